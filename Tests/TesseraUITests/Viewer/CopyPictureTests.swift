import Foundation
import TesseraTestBasics
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraSDL
@testable import TesseraUI

/// `ctrl+c` puts the picture itself on the X11 clipboard: pasted back as `image/png` it is the image, at
/// its full size and turned as shown, and its file comes as `text/uri-list`.
final class CopyPictureTests: XCTestCase {
    private var server: XvfbServer?
    private var files: ViewerFixtures!

    override func setUpWithError() throws {
        guard ChildProcess.isInstalled("xclip") else { throw XCTSkip("xclip is not installed (make test-deps installs it)") }
        server = try XvfbServer()
        files = try ViewerFixtures()
    }

    override func tearDown() {
        server?.stop()
        files = nil
    }

    /// What a program pasting `target` gets, once the owner's thread has taken the clipboard (5 s at most).
    private func paste(_ target: String) throws -> Data {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let run = try ChildProcess.run("xclip", ["-selection", "clipboard", "-t", target, "-o"],
                                           environment: ["DISPLAY": server?.name ?? ""])
            if run.status == 0 || Date() > deadline {
                XCTAssertEqual(run.status, 0, run.stderr)
                return run.output
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func testThePastedPictureIsTheImageTurnedAsShownWithItsFile() throws {
        let path = try files.halvesPNG("a photo.png", top: RGBA(r: 200, g: 30, b: 30), bottom: RGBA(r: 30, g: 30, b: 200),
                                       width: 300, height: 200)
        let display = try XCTUnwrap(server?.name)
        let copier = ImageCopier(loader: ImageLoader(decoders: ImageDecoders.viewer, colour: .sRGB), wake: {},
                                 perform: { $0() }, makeClipboard: { try ImageClipboard(displayName: display) })
        // Turned 90° clockwise for the session (EXIF orientation 6): the top's red goes to the right.
        copier.copy(path: path, displayName: "a photo.png", sessionOrientation: 6)
        let outcome = try XCTUnwrap(copier.drain().first)
        XCTAssertFalse(outcome.isError, outcome.message)
        XCTAssertEqual(outcome.message, "copied a photo.png (200 × 300)")

        let pasted = try PNGDecoder().decode(try paste("image/png"), format: .png, targetSize: nil)
        XCTAssertEqual(pasted.size, PixelSize(width: 200, height: 300))
        XCTAssertEqual(pasted.pixel(x: 180, y: 150), RGBA(r: 200, g: 30, b: 30))
        XCTAssertEqual(pasted.pixel(x: 20, y: 150), RGBA(r: 30, g: 30, b: 200))
        let uris = String(decoding: try paste("text/uri-list"), as: UTF8.self)
        XCTAssertEqual(uris, "file://" + path.replacingOccurrences(of: " ", with: "%20") + "\r\n")
    }

    /// With no display that takes pictures, the file's URI goes on the text clipboard and the line says so.
    func testWithoutAPictureClipboardTheURIIsCopied() throws {
        let path = try files.png("b.png", RGBA(r: 1, g: 2, b: 3))
        let copier = ImageCopier(loader: ImageLoader(decoders: ImageDecoders.viewer, colour: .sRGB), wake: {},
                                 perform: { $0() }, makeClipboard: { throw ImageClipboardError.textOnly(reason: "no X display") })
        copier.copy(path: path, displayName: "b.png", sessionOrientation: 1)
        let outcome = try XCTUnwrap(copier.drain().first)
        XCTAssertEqual(outcome.fallbackText, "file://" + path)
        XCTAssertFalse(outcome.isError)
    }
}
