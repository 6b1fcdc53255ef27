import Foundation
import TesseraSDL
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraUI

/// Ctrl-x and a key run the key-handler without stopping the viewer, which shows what the handler changed
/// and drops what it removed (no watcher here); the slideshow steps on a test clock.
final class KeyHandlerAndSlideshowTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    private let grey = RGBA(r: 100, g: 100, b: 100), green = RGBA(r: 30, g: 200, b: 60)

    private func writeHandler(_ body: String) throws {
        let handler = files.path("config/tessera/key-handler")
        try FileManager.default.createDirectory(atPath: files.path("config/tessera"), withIntermediateDirectories: true)
        try Data(("#!/bin/sh\ndir=$(dirname \"$0\")\n" + body).utf8).write(to: URL(fileURLWithPath: handler))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: handler)
    }

    func testTheHandlerGetsTheComboAndTheMarkedImagesAndTheStripFollowsWhatItDid() throws {
        let paths = try ["a", "b", "c"].map { try files.png("\($0).png", grey) }
        // Records its argument and input, waits a little (the viewer keeps drawing), removes the first
        // image and paints the second green.
        try writeHandler("""
            printf '%s' "$1" > "$dir/argument"
            cat > "$dir/input"
            sleep 0.3
            rm "$(sed -n 1p "$dir/input")"
            cp "$dir/../green.png" "$(sed -n 2p "$dir/input")"
            """)
        try files.png("config/green.png", green)
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("m")
        viewer.press("Right")
        viewer.press("m")
        viewer.press("ctrl+x")
        XCTAssertEqual(viewer.overlay.activity, "key-handler: press a key (Esc cancels)")
        viewer.press("ctrl+r")
        XCTAssertEqual(viewer.overlay.activity, "running key-handler: C-r")
        try viewer.frame()
        viewer.press("ctrl+x")
        XCTAssertEqual(viewer.overlay.status?.text, "the key-handler is still running (C-r)", "one run at a time")
        XCTAssertEqual(viewer.overlay.activity, "running key-handler: C-r")
        var frames = 0
        try viewer.run(until: {
            frames += 1
            return !viewer.viewer.parts.keyHandler.isRunning
        })
        XCTAssertGreaterThan(frames, 3, "frames went on while the handler ran")
        let frame = try viewer.settle()
        XCTAssertEqual(try String(contentsOfFile: files.path("config/tessera/argument"), encoding: .utf8), "C-r")
        XCTAssertEqual(try String(contentsOfFile: files.path("config/tessera/input"), encoding: .utf8), "\(paths[0])\n\(paths[1])\n")
        XCTAssertEqual(viewer.model.items.map(\.path), [paths[1], paths[2]], "the removed image left the strip")
        let cell = try XCTUnwrap(viewer.cellRect(0))
        XCTAssertEqual(frame.share(of: green, in: PixelRect(x: cell.x + cell.width / 2 - 20, y: cell.y + cell.height / 2 - 20,
                                                            width: 40, height: 40)), 1, "the changed image shows new")
        XCTAssertNil(viewer.overlay.activity)
        try viewer.frame(advance: .seconds(10))
        XCTAssertNil(viewer.overlay.status, "a handler that succeeds says nothing")
    }

    func testEscCancelsThePrefixAndAFailureIsOneLine() throws {
        let path = try files.png("a.png", grey)
        let viewer = try ViewerHarness(files.options([path]))
        try viewer.settle()
        viewer.press("ctrl+x")
        viewer.press("ctrl+r")
        try viewer.settle()
        XCTAssertEqual(viewer.overlay.status?.text, "no key handler at \(files.path("config/tessera/key-handler"))")
        XCTAssertEqual(viewer.overlay.status?.isError, true)

        try writeHandler("echo 'cannot do that' >&2\nexit 3\n")
        viewer.press("ctrl+x")
        viewer.press("Esc")
        XCTAssertNil(viewer.overlay.activity)
        XCTAssertFalse(viewer.viewer.parts.keyHandler.isRunning, "Esc cancels the prefix")
        viewer.press("q")
        XCTAssertTrue(viewer.modes.wantsToQuit, "and the next key does what it always does")

        let again = try ViewerHarness(files.options([path]))
        try again.settle()
        again.press("ctrl+x")
        again.press("x")
        try again.run(until: { !again.viewer.parts.keyHandler.isRunning })
        try again.frame()
        XCTAssertEqual(again.overlay.status?.text, "key-handler x: exit status 3: cannot do that")
        XCTAssertEqual(again.overlay.status?.isError, true)
    }

    func testTheSlideshowStepsAfterItsDelayOnlyOnceTheNextImageIsDecoded() throws {
        let paths = try (0..<4).map { try files.png("img\($0).png", RGBA(r: UInt8(40 + $0 * 50), g: 90, b: 90)) }
        var options = files.options(paths)
        options.slideshowDelay = .seconds(5)
        let viewer = try ViewerHarness(options)
        try viewer.settle()
        viewer.press("s")
        XCTAssertEqual(viewer.modes.mode, .detail, "s opens the single view")
        XCTAssertTrue(viewer.commands.slideshow.isRunning)
        XCTAssertTrue(viewer.overlay.tags.contains("slideshow 5 s"), "\(viewer.overlay.tags)")
        let started = viewer.now

        // Long past the delay at once, but the next image has only just been asked for: no step.
        try viewer.frame(advance: .seconds(10))
        XCTAssertEqual(viewer.model.selectedIndex, 0)
        // It steps at the first frame that starts with it decoded, and never before. (A frame's step reads
        // what the frames before it decoded.)
        var readyBeforeFrame = viewer.modes.isReadyToShow(1)
        try viewer.run(until: {
            let stepped = viewer.model.selectedIndex == 1
            XCTAssertEqual(stepped, readyBeforeFrame, "a step exactly when the next image was ready")
            readyBeforeFrame = viewer.modes.isReadyToShow(1)
            return stepped
        }, advance: .milliseconds(16))
        // The run's last frame stepped; readiness was read before it ran.
        XCTAssertEqual(viewer.modes.detail?.path, paths[1])
        let shownAt = viewer.now

        // The next step waits the delay, even with the next image decoded long before.
        try viewer.run(until: { viewer.modes.isReadyToShow(2) })
        while viewer.now - shownAt < .milliseconds(4900) {
            try viewer.frame(advance: .milliseconds(100))
            XCTAssertEqual(viewer.model.selectedIndex, 1, "\(viewer.now - shownAt) after the step")
        }
        try viewer.frame(advance: .milliseconds(200))
        XCTAssertEqual(viewer.model.selectedIndex, 2)

        // A key's step starts the delay again.
        try viewer.frame(advance: .seconds(3))
        viewer.press("n")
        try viewer.run(until: { viewer.modes.isReadyToShow(0) })
        let stepped = viewer.now
        XCTAssertEqual(viewer.model.selectedIndex, 3)
        try viewer.frame(advance: .seconds(5) - (viewer.now - stepped) - .milliseconds(100))
        XCTAssertEqual(viewer.model.selectedIndex, 3, "not 5 s after the slideshow's own step")
        try viewer.frame(advance: .milliseconds(200))
        XCTAssertEqual(viewer.model.selectedIndex, 0, "after the last, the first")

        viewer.press("s")
        XCTAssertFalse(viewer.commands.slideshow.isRunning)
        try viewer.frame(advance: .seconds(20))
        XCTAssertEqual(viewer.model.selectedIndex, 0)
        XCTAssertGreaterThan(viewer.now - started, .seconds(15))
    }

    func testSlideshowFromTheCommandLineStartsInTheSingleView() throws {
        let paths = try (0..<2).map { try files.png("img\($0).png", grey) }
        var options = files.options(paths)
        options.startsSlideshow = true
        options.slideshowDelay = .seconds(2)
        let viewer = try ViewerHarness(options)
        try viewer.frame()
        XCTAssertEqual(viewer.modes.mode, .detail)
        XCTAssertTrue(viewer.commands.slideshow.isRunning)
        viewer.press("Esc")
        try viewer.frame()
        XCTAssertFalse(viewer.commands.slideshow.isRunning, "the strip stops it")
    }
}
