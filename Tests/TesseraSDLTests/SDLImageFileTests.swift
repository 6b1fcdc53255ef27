import Foundation
import TesseraImaging
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraSDL

/// SDL_image's files: a PNG decodes to the pixels written; bytes it cannot read give an `SDLError` with
/// SDL's reason.
final class SDLImageFileTests: XCTestCase {
    private var system: SDLSystem?

    override func setUpWithError() throws {
        system = try SDLSystem(headless: true)  // IMG_Init before SDL_image reads anything
    }

    override func tearDown() {
        system = nil
    }

    func testAPNGDecodesToThePixelsWritten() throws {
        let pixels = PixelBuffer(width: 5, height: 3, bytes: (0..<15).flatMap { (i: Int) -> [UInt8] in
            [UInt8(i * 17), UInt8(255 - i * 9), UInt8(i * 3), UInt8(i % 2 == 0 ? 255 : 90)]
        })
        let decoded = try SDLImageFile.decodeARGB8888(PNGEncoder.encode(pixels))
        XCTAssertEqual(decoded.size, pixels.size)
        XCTAssertEqual(decoded.bytes, pixels.bytes)
    }

    func testBytesSDLImageCannotReadThrowItsReason() {
        XCTAssertThrowsError(try SDLImageFile.decodeARGB8888(Data("not an image".utf8))) { error in
            let sdlError = error as? SDLError
            XCTAssertEqual(sdlError?.call, "IMG_Load_RW")
            XCTAssertFalse(sdlError?.message.isEmpty ?? true, "SDL says why")
        }
    }
}
