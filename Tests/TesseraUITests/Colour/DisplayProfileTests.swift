import CX11
import Foundation
import TesseraImaging
import TesseraSDL
import TesseraTestSupport
import XCTest
@testable import TesseraUI

/// The display's colour profile: X11's `_ICC_PROFILE` on the root window, read before SDL starts on a
/// real X server (Xvfb), handed to the loaders as their destination; none under SDL's dummy driver or
/// when the property is not set.
final class DisplayProfileTests: XCTestCase {
    /// An RGB profile that is not sRGB (Ghostscript's Adobe RGB, from libgs-common).
    private static let adobeRGBPath = "/usr/share/color/icc/ghostscript/a98.icc"

    func testTheDummyDriverHasNoProfileAndGivesSRGB() throws {
        let display = DisplayFacts.beforeSDL(headless: true)
        XCTAssertNil(display.colourProfile)
        XCTAssertEqual(DisplayColour.conversion(for: display, enabled: true)?.destination, .sRGB)
        XCTAssertNil(DisplayColour.conversion(for: display, enabled: false), "--no-colour-management")
    }

    func testAWaylandDisplayIsNotAskedThroughX11() {
        XCTAssertFalse(VideoDriverChoice.usesX11(headless: false, environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]))
        XCTAssertTrue(VideoDriverChoice.usesX11(headless: false, environment: ["DISPLAY": ":0"]))
        XCTAssertTrue(VideoDriverChoice.usesX11(headless: false, environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0",
                                                                             "SDL_VIDEODRIVER": "x11"]))
        XCTAssertFalse(VideoDriverChoice.usesX11(headless: true, environment: ["DISPLAY": ":0"]))
    }

    func testTheRootWindowsProfileReachesTheLoaders() throws {
        guard let profile = FileManager.default.contents(atPath: Self.adobeRGBPath).map([UInt8].init) else {
            throw XCTSkip("\(Self.adobeRGBPath) is missing: install libgs-common (make test-deps does)")
        }
        let server = try XvfbServer()
        defer { server.stop() }
        try withEnvironment(["DISPLAY": server.name, "SDL_VIDEODRIVER": "x11"]) {
            var display = DisplayFacts.beforeSDL(headless: false)
            XCTAssertNil(display.colourProfile, "no profile set yet")
            XCTAssertEqual(display.screenSize?.width, 320)
            XCTAssertEqual(display.screenSize?.height, 240)
            XCTAssertEqual(DisplayColour.conversion(for: display, enabled: true)?.destination, .sRGB)

            try server.setRootProfile(profile)
            display = DisplayFacts.beforeSDL(headless: false)
            XCTAssertEqual(display.colourProfile, profile)
            XCTAssertEqual(DisplayColour.conversion(for: display, enabled: true)?.destination, .icc(ICCProfile(profile)))

            // A property that is no profile: logged, sRGB.
            try server.setRootProfile([1, 2, 3, 4])
            display = DisplayFacts.beforeSDL(headless: false)
            XCTAssertEqual(display.colourProfile, [1, 2, 3, 4])
            XCTAssertEqual(DisplayColour.conversion(for: display, enabled: true)?.destination, .sRGB)
        }
    }

    /// Runs `body` with `values` in the environment (SDL reads DISPLAY and SDL_VIDEODRIVER there), then
    /// puts back what was there.
    private func withEnvironment(_ values: [String: String], _ body: () throws -> Void) throws {
        let saved = values.keys.map { ($0, ProcessInfo.processInfo.environment[$0]) }
        for (key, value) in values { setenv(key, value, 1) }
        defer {
            for (key, value) in saved {
                if let value { setenv(key, value, 1) } else { unsetenv(key) }
            }
        }
        try body()
    }
}

private extension XvfbServer {
    /// Sets `_ICC_PROFILE` on the root window as colord does: CARDINAL, 8 bits.
    func setRootProfile(_ bytes: [UInt8]) throws {
        guard let display = XOpenDisplay(name) else { throw XCTSkip("cannot connect to Xvfb \(name)") }
        defer { XCloseDisplay(display) }
        let property = XInternAtom(display, "_ICC_PROFILE", 0)
        let cardinal = XInternAtom(display, "CARDINAL", 0)
        _ = bytes.withUnsafeBufferPointer {
            XChangeProperty(display, XDefaultRootWindow(display), property, cardinal, 8, PropModeReplace,
                            $0.baseAddress, Int32($0.count))
        }
        XSync(display, 0)
    }
}
