import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraSDL

/// `ctrl+c`: the selected image itself on the clipboard, as a PNG (its full size, in sRGB, turned as it is
/// shown) with its file's URI beside it, for an editor, an office document or a chat window to paste. The
/// image is decoded (in a helper) and encoded on a worker; the clipboard is held by `ImageClipboard`'s own
/// thread, so the picture stays pastable while the viewer runs. Where no X display takes pictures, the
/// URI goes on the text clipboard instead, and the line says so. Main thread only, apart from the work.
final class ImageCopier {
    /// What a copy came to, for the overlay's line.
    struct Outcome: Sendable {
        var message: String
        var isError: Bool
        /// The URI to put on the text clipboard when the picture could not go on it.
        var fallbackText: String?
    }

    private let loader: ImageLoader
    private let wake: @Sendable () -> Void
    private let perform: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let results = Inbox<Outcome>()
    private let owner: ClipboardOwner
    /// Copies started and not yet drained.
    private(set) var pending = 0

    /// The clipboard's owner, made on the copy lane at the first copy (an X connection and a round trip
    /// to the server, which the main thread does not wait for) and made anew once it has ended.
    private final class ClipboardOwner: Sendable {
        private let make: @Sendable () throws -> ImageClipboard
        private let held = Mutex<ImageClipboard?>(nil)

        init(make: @escaping @Sendable () throws -> ImageClipboard) { self.make = make }

        func clipboard() throws -> ImageClipboard {
            try held.withLock { held in
                if let held { return held }
                let made = try make()
                held = made
                return made
            }
        }

        func drop() { held.withLock { $0 = nil } }
    }

    /// - Parameters:
    ///   - loader: decodes the image at full size, in sRGB.
    ///   - perform: runs a copy off the main thread, one after another.
    ///   - makeClipboard: the clipboard's owner, made at the first copy (after SDL's video has started).
    init(loader: ImageLoader, wake: @escaping @Sendable () -> Void,
         perform: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
         makeClipboard: @escaping @Sendable () throws -> ImageClipboard = { try ImageClipboard() }) {
        self.loader = loader
        self.wake = wake
        self.perform = perform
        owner = ClipboardOwner(make: makeClipboard)
    }

    /// Starts copying the image at `path`, turned by `sessionOrientation` (an EXIF orientation value
    /// applied after the file's own: a turn not written into it).
    func copy(path: String, displayName: String, sessionOrientation: Int) {
        let uri = FreedesktopThumbnailPath.fileURI(forAbsolutePath: FreedesktopThumbnailPath.absolutePath(path))
        pending += 1
        let loader = loader, results = results, wake = wake, owner = owner
        perform {
            results.push(Self.copy(path: path, displayName: displayName, uri: uri, turn: sessionOrientation,
                                   loader: loader, owner: owner))
            wake()
        }
    }

    /// What finished since the last call.
    func drain() -> [Outcome] {
        let outcomes = results.drain()
        pending -= outcomes.count
        return outcomes
    }

    private static func copy(path: String, displayName: String, uri: String, turn: Int, loader: ImageLoader,
                             owner: ClipboardOwner) -> Outcome {
        let clipboard: ImageClipboard
        do {
            clipboard = try owner.clipboard()
        } catch {
            return Outcome(message: "copied \(uri) (\(error))", isError: false, fallbackText: uri)
        }
        do {
            var pixels = try loader.load(path: path, fitting: nil)
            if let orientation = ImageOrientation(rawValue: turn), orientation != .up { pixels = orientation.apply(to: pixels) }
            // Fast compression: the user waits for it, and the paste is read once.
            let png = try PNGEncoder.encode(pixels, effort: .fast)
            try clipboard.offer(png: [UInt8](png), uriList: uri)
            return Outcome(message: "copied \(displayName) (\(pixels.width) × \(pixels.height))", isError: false)
        } catch let error as ImageLoadError {
            return Outcome(message: "cannot copy \(displayName): \(error.reason.shortText)", isError: true)
        } catch let error as ImageClipboardError {
            if case .textOnly = error { return Outcome(message: "copied \(uri) (\(error))", isError: false, fallbackText: uri) }
            // An owner that ended (its display went away) is made anew by the next copy.
            if error == .ended { owner.drop() }
            return Outcome(message: "cannot copy \(displayName): \(error)", isError: true)
        } catch {
            return Outcome(message: "cannot copy \(displayName): \(error)", isError: true)
        }
    }
}
