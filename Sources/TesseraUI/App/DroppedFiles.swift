import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// Files and folders dropped on the window from a file manager join the strip: a folder's images as
/// listing it on the command line would give them, a file as itself when it is an image. The listing
/// and the `stat`s run on a worker; the main thread takes the items in as changes, as the watcher's.
/// Main thread only, apart from the work.
final class DroppedFiles {
    /// What one drop brought: the items to add, and the first of them (to select).
    struct Arrival: Sendable {
        var dropped: String
        var changes: [ItemChange]
    }

    private let perform: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let wake: @Sendable () -> Void
    private let inbox = Inbox<Arrival>()

    init(wake: @escaping @Sendable () -> Void, perform: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.wake = wake
        self.perform = perform
    }

    /// Starts listing `path`.
    func add(_ path: String) {
        let inbox = inbox, wake = wake
        perform {
            let listing = ItemListing(paths: [path], recursive: false, contentCheck: { ImageFormat.sniff($0) != .unknown })
            var changes: [ItemChange] = []
            if let found = try? listing.wait() {
                let table = found.collected.table
                for id in 0..<UInt32(table.count) {
                    let item = table.path(of: id)
                    // A file dropped on its own is listed whatever it is (as one named on the command
                    // line); only an image is taken.
                    if PathText.same(item, path),
                       ImageFormat.sniff(ImageFile.head(ofFileAt: item, count: 64) ?? Data()) == .unknown { continue }
                    if let version = FileVersion.ofFile(atPath: item) { changes.append(.present(path: item, version: version)) }
                }
            }
            inbox.push(Arrival(dropped: path, changes: changes))
            wake()
        }
    }

    /// What arrived since the last call.
    func drain() -> [Arrival] { inbox.drain() }
}
