import XCTest
@testable import TesseraSDL

/// Wayland where a Wayland display is named, SDL's own order (X11 first) elsewhere, the dummy driver for a
/// headless run, and `SDL_VIDEODRIVER` over all of them.
final class VideoDriverChoiceTests: XCTestCase {
    func testAWaylandSessionAsksForWaylandThenX11() {
        XCTAssertEqual(VideoDriverChoice.hint(headless: false, environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]),
                       "wayland,x11")
    }

    func testWithoutAWaylandDisplaySDLsOrderStands() {
        XCTAssertNil(VideoDriverChoice.hint(headless: false, environment: ["DISPLAY": ":0"]))
        XCTAssertNil(VideoDriverChoice.hint(headless: false, environment: ["WAYLAND_DISPLAY": "", "DISPLAY": ":0"]))
    }

    func testAHeadlessRunDrawsWithTheDummyDriverUnderWaylandToo() {
        XCTAssertEqual(VideoDriverChoice.hint(headless: true, environment: [:]), "dummy")
        XCTAssertEqual(VideoDriverChoice.hint(headless: true, environment: ["WAYLAND_DISPLAY": "wayland-0"]), "dummy")
    }

    func testSDLVideoDriverInTheEnvironmentOverridesEveryChoice() {
        for headless in [false, true] {
            XCTAssertNil(VideoDriverChoice.hint(headless: headless,
                                                environment: ["SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": "wayland-0"]))
        }
    }
}
