import Foundation
import TesseraCore
import TesseraImaging

/// The `i` overlay's information about images, read on a worker (it reads the whole file) and kept per
/// file version, so a changed file is read again and an unchanged one never twice. Main thread only,
/// apart from the reads.
final class ImageInformationCache {
    enum State: Sendable {
        case reading
        case ready(ImageInformation)
        case failed(String)
    }

    private struct Key: Hashable, Sendable {
        var path: String
        var version: FileVersion?
    }

    private let perform: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let wake: @Sendable () -> Void
    private let results = Inbox<(Key, State)>()
    private var states: [Key: State] = [:]
    /// Entries kept at most; the information of a few hundred images is a few hundred kilobytes.
    private let capacity = 256

    /// Where the files are read.
    private let decoding: any DecodingService

    /// - Parameters:
    ///   - decoding: where the files are read (their header, EXIF and ICC readers are C).
    ///   - perform: runs a read off the main thread.
    init(wake: @escaping @Sendable () -> Void, decoding: any DecodingService = .inProcess,
         perform: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.wake = wake
        self.decoding = decoding
        self.perform = perform
    }

    /// Whether a read is under way (the overlay waits for it to show).
    var isReading: Bool {
        for (key, state) in results.drain() { states[key] = state }
        return states.values.contains { if case .reading = $0 { true } else { false } }
    }

    /// What is known of the file at `path` in `version`; the first ask starts its read.
    func information(path: String, version: FileVersion?) -> State {
        for (key, state) in results.drain() { states[key] = state }
        let key = Key(path: path, version: version)
        if let state = states[key] { return state }
        if states.count >= capacity { states.removeAll() }
        states[key] = .reading
        let results = results, wake = wake, decoding = decoding
        perform {
            let state: State
            do {
                state = .ready(try ImageInformation.read(path: path, decoding: decoding))
            } catch {
                state = .failed(String(describing: error))
            }
            results.push((key, state))
            wake()
        }
        return .reading
    }
}
