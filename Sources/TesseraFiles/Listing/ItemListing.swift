#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import TesseraCore

/// The strip's items, listed on a thread of their own from the moment the listing is made: the folders
/// are read and sorted (and a list read from its file or standard input) while the main thread makes the
/// window and the renderer, and `wait()` hands the result over before the first frame.
package final class ItemListing: Sendable {
    /// Where a list (`-i`) comes from.
    package enum ListSource: Sendable, Equatable {
        case standardInput
        case file(String)

        /// As the user named it (`-` for standard input).
        package var name: String {
            switch self {
            case .standardInput: "-"
            case .file(let path): path
            }
        }
    }

    /// Why there is nothing to browse.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case collect(ImagePathCollector.CollectError)
        /// The list could not be opened or read.
        case unreadableList(String)
        /// The list (and the command line) named nothing.
        case emptyList(String)

        package var description: String {
            switch self {
            case .collect(let error): "\(error)"
            case .unreadableList(let name): "\(name): cannot read the list"
            case .emptyList(let name): "\(name): the list names no images"
            }
        }
    }

    /// What the listing found, and how long it took (names listed and ordered).
    package struct Outcome: Sendable {
        package var collected: ImagePathCollector.Collected
        package var duration: Duration
    }

    package let recursive: Bool
    private let listing: BackgroundResult<Outcome, Failure>

    /// Starts listing `paths` and then the entries of `list`, walking subfolders when `recursive`; a
    /// folder's files whose names say nothing of an image are listed when `contentCheck` finds one.
    package init(paths: [String], list: ListSource? = nil, nulSeparated: Bool = false, recursive: Bool,
                 contentCheck: FolderLister.ContentCheck? = nil) {
        self.recursive = recursive
        listing = BackgroundResult(name: "tessera.listing", { () throws(Failure) -> Outcome in
            let collector = ImagePathCollector(recursive: recursive, contentCheck: contentCheck)
            return try Self.collect(paths: paths, list: list, nulSeparated: nulSeparated, collector: collector).get()
        }, afterward: { result in
            // After the hand-over, so the window waits for none of it.
            if case .success(let found) = result { Self.removeLeftovers(besideFilesIn: found.collected) }
        })
    }

    /// Whether the listing has ended, waiting at most `limit` for it.
    package func hasEnded(within limit: Duration) -> Bool {
        listing.hasEnded(within: limit)
    }

    /// Waits for the listing.
    package func wait() throws(Failure) -> Outcome {
        try listing.wait()
    }

    /// Removes a crashed run's temporary files (`ReplacementLeftovers`) from the folders of the files
    /// named one by one; the folders listed had theirs removed as they were read.
    static func removeLeftovers(besideFilesIn collected: ImagePathCollector.Collected) {
        var done = Set(collected.folders.map { PathText.Key(FolderLister.withoutTrailingSlashes($0)) })
        for file in collected.files {
            let folder = FileReplacement.split(file).folder
            guard done.insert(PathText.Key(folder)).inserted else { continue }
            let names = FolderLister.names(in: folder)
            ReplacementLeftovers.remove(names.leftovers, in: folder)
        }
    }

    private static func collect(paths: [String], list: ListSource?, nulSeparated: Bool,
                                collector: ImagePathCollector) -> Result<Outcome, Failure> {
        let start = ContinuousClock.now
        do throws(Failure) {
            var collected: ImagePathCollector.Collected
            if let list {
                let descriptor: Int32
                switch list {
                case .standardInput: descriptor = STDIN_FILENO
                case .file(let path): descriptor = POSIXFiles.open(path, O_RDONLY | O_CLOEXEC)
                }
                guard descriptor >= 0 else { throw .unreadableList(list.name) }
                defer { if descriptor != STDIN_FILENO { close(descriptor) } }
                var entries = ListReader(descriptor: descriptor, nulSeparated: nulSeparated).makeIterator()
                var listedAny = false
                let listed = AnyIterator { () -> String? in
                    let entry = entries.next()
                    if entry != nil { listedAny = true }
                    return entry
                }
                do throws(ImagePathCollector.CollectError) {
                    collected = try collector.collect(paths, listed: listed)
                } catch {
                    if entries.failure != nil { throw .unreadableList(list.name) }
                    if paths.isEmpty && !listedAny { throw .emptyList(list.name) }
                    throw .collect(error)
                }
                if entries.failure != nil { throw .unreadableList(list.name) }
            } else {
                do throws(ImagePathCollector.CollectError) {
                    collected = try collector.collect(paths)
                } catch {
                    throw .collect(error)
                }
            }
            return .success(Outcome(collected: collected, duration: ContinuousClock.now - start))
        } catch {
            return .failure(error)
        }
    }
}
