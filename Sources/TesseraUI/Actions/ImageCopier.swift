import Foundation
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
    private let makeClipboard: () throws -> ImageClipboard
    private var clipboard: ImageClipboard?
    /// Copies started and not yet drained.
    private(set) var pending = 0

    /// - Parameters:
    ///   - loader: decodes the image at full size, in sRGB.
    ///   - makeClipboard: the clipboard's owner, made at the first copy (after SDL's video has started).
    init(loader: ImageLoader, wake: @escaping @Sendable () -> Void,
         perform: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
         makeClipboard: @escaping () throws -> ImageClipboard = { try ImageClipboard() }) {
        self.loader = loader
        self.wake = wake
        self.perform = perform
        self.makeClipboard = makeClipboard
    }

    /// Starts copying the image at `path`, turned by `sessionOrientation` (an EXIF orientation value
    /// applied after the file's own: a turn not written into it).
    func copy(path: String, displayName: String, sessionOrientation: Int) {
        let uri = FreedesktopThumbnailPath.fileURI(forAbsolutePath: FreedesktopThumbnailPath.absolutePath(path))
        let clipboard: ImageClipboard
        do {
            clipboard = try self.clipboard ?? makeClipboard()
            self.clipboard = clipboard
        } catch {
            results.push(Outcome(message: "copied \(uri) (\(error))", isError: false, fallbackText: uri))
            pending += 1
            wake()
            return
        }
        pending += 1
        let loader = loader, results = results, wake = wake
        perform {
            results.push(Self.copy(path: path, displayName: displayName, uri: uri, turn: sessionOrientation,
                                   loader: loader, clipboard: clipboard))
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
                             clipboard: ImageClipboard) -> Outcome {
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
            return Outcome(message: "cannot copy \(displayName): \(error)", isError: true)
        } catch {
            return Outcome(message: "cannot copy \(displayName): \(error)", isError: true)
        }
    }
}
