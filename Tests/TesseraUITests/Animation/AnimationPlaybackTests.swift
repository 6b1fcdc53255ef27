import Foundation
import TesseraSDL
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraUI

/// An animated GIF plays in the single view with its own delays (a zero delay as 100 ms), space pauses
/// and resumes it there, the frame loop may sleep until the next frame, and the report counts the frames.
final class AnimationPlaybackTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    private let red = RGBA(r: 220, g: 30, b: 30), green = RGBA(r: 30, g: 200, b: 40), blue = RGBA(r: 40, g: 50, b: 210)

    /// Three solid frames, red for 200 ms, green for "0" (100 ms), blue for 300 ms, looping forever.
    private func animatedGIF() throws -> String {
        let frames = [(0, 20), (1, 0), (2, 30)].map { index, delay in
            GIFFixtures.Frame(width: 120, height: 90, indices: Array(repeating: UInt8(index), count: 120 * 90), delay: delay)
        }
        let data = GIFFixtures.gif(screenWidth: 120, screenHeight: 90, palette: [red, green, blue], repeats: 0, frames: frames)
        let path = files.path("anim.gif")
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    private func centre(_ pixels: PixelBuffer) -> RGBA { pixels.pixel(x: pixels.width / 2, y: pixels.height / 2) }

    func testTheSingleViewPlaysEachFrameForItsDelayAndSpacePausesIt() throws {
        let stills = [try files.png("still1.png", RGBA(r: 90, g: 90, b: 90)), try files.png("still2.png", RGBA(r: 60, g: 60, b: 60))]
        var options = files.options([try animatedGIF()] + stills)
        options.report = ReportOptions()
        let viewer = try ViewerHarness(options)
        try viewer.settle()
        let recorder = try XCTUnwrap(viewer.viewer.parts.observer as? RunRecorder)
        viewer.press("Enter")
        // The strip's selected cell played its first frames before Enter.
        let framesInTheStrip = recorder.report().animationFramesShown
        let detail = try XCTUnwrap(viewer.modes.detail)
        // Time stands still while the view opens and the first frame and the one after it are decoded.
        try viewer.run(until: { detail.isSharp && detail.animationFramesShown == 1 && detail.nextAnimationFrameAt != nil },
                       advance: .zero)
        let start = viewer.now
        XCTAssertTrue(detail.isAnimated)
        XCTAssertTrue(centre(try viewer.frame(advance: .zero)).isClose(to: red, tolerance: 4))
        XCTAssertEqual(detail.nextAnimationFrameAt, start + .milliseconds(200))
        XCTAssertTrue(viewer.viewer.isIdle(now: viewer.now), "between frames the loop may sleep")
        XCTAssertEqual(viewer.viewer.nextWake(now: viewer.now), start + .milliseconds(200), "until the next frame")

        XCTAssertTrue(centre(try viewer.frame(advance: .milliseconds(199))).isClose(to: red, tolerance: 4))
        XCTAssertTrue(centre(try viewer.frame(advance: .milliseconds(1))).isClose(to: green, tolerance: 4), "200 ms on")
        try viewer.run(until: { detail.nextAnimationFrameAt != nil }, advance: .zero)
        XCTAssertEqual(detail.nextAnimationFrameAt, start + .milliseconds(300), "a zero delay shows for 100 ms")
        XCTAssertTrue(centre(try viewer.frame(advance: .milliseconds(99))).isClose(to: green, tolerance: 4))
        XCTAssertTrue(centre(try viewer.frame(advance: .milliseconds(1))).isClose(to: blue, tolerance: 4))

        // Space pauses the animation (no step); frames stop; space again resumes.
        viewer.press("space")
        XCTAssertTrue(detail.isAnimationPaused)
        XCTAssertEqual(viewer.model.selectedIndex, 0, "space on an animation does not step")
        XCTAssertNil(viewer.viewer.nextWake(now: viewer.now), "paused: nothing to wake for")
        for _ in 0..<5 { XCTAssertTrue(centre(try viewer.frame(advance: .seconds(1))).isClose(to: blue, tolerance: 4)) }
        viewer.press("ctrl+space")
        XCTAssertFalse(detail.isAnimationPaused)
        try viewer.run(until: { detail.nextAnimationFrameAt != nil }, advance: .zero)
        XCTAssertTrue(centre(try viewer.frame(advance: .milliseconds(300))).isClose(to: red, tolerance: 4), "looped to the first")

        XCTAssertEqual(recorder.report().animationFramesShown, framesInTheStrip + detail.animationFramesShown)
        XCTAssertGreaterThanOrEqual(detail.animationFramesShown, 4)

        // Leaving the animation stops its feed; on a still, space steps on.
        viewer.press("n")
        try viewer.frame()
        XCTAssertEqual(viewer.model.selectedIndex, 1)
        XCTAssertFalse(try XCTUnwrap(viewer.modes.detail).isAnimated)
        viewer.press("space")
        try viewer.frame()
        XCTAssertEqual(viewer.model.selectedIndex, 2, "space on a still is the next image")
    }

    func testTheStripsSelectedCellPlaysAndTheOthersShowTheirFirstFrame() throws {
        let first = try animatedGIF()
        let second = files.path("anim2.gif")
        try FileManager.default.copyItem(atPath: first, toPath: second)
        let viewer = try ViewerHarness(files.options([first, second]))
        // Time stands still while the cells load and the selected one's first two frames are decoded.
        try viewer.run(until: { viewer.modes.stripAnimationFramesShown == 1 && viewer.modes.nextWake(now: viewer.now) != nil }, advance: .zero)
        XCTAssertEqual(viewer.model.selectedIndex, 0)
        let cell0 = try XCTUnwrap(viewer.cellRect(0)), cell1 = try XCTUnwrap(viewer.cellRect(1))
        func centre(_ pixels: PixelBuffer, _ rect: PixelRect) -> RGBA { pixels.pixel(x: rect.x + rect.width / 2, y: rect.y + rect.height / 2) }

        var pixels = try viewer.frame(advance: .zero)
        XCTAssertTrue(centre(pixels, cell0).isClose(to: red, tolerance: 6))
        pixels = try viewer.frame(advance: .milliseconds(200))
        XCTAssertTrue(centre(pixels, cell0).isClose(to: green, tolerance: 6), "the selected cell plays: \(centre(pixels, cell0))")
        XCTAssertTrue(centre(pixels, cell1).isClose(to: red, tolerance: 6), "the other cell keeps its first frame")
        XCTAssertTrue(viewer.viewer.isIdle(now: viewer.now), "the strip sleeps between frames")

        // The selection moves: the second cell plays, the first is its first frame again.
        viewer.press("Right")
        // The strip scrolls to it (time moves), then its first frame is up and the second decoded.
        try viewer.run(until: { viewer.modes.stripAnimationFramesShown == 1 && viewer.modes.nextWake(now: viewer.now) != nil })
        let due = try XCTUnwrap(viewer.modes.nextWake(now: viewer.now))
        pixels = try viewer.frame(advance: due - viewer.now)
        XCTAssertTrue(centre(pixels, cell1).isClose(to: green, tolerance: 6), "\(centre(pixels, cell1))")
        XCTAssertTrue(centre(pixels, cell0).isClose(to: red, tolerance: 6))
    }

    /// A view opened ahead (the slideshow's next image) decodes no frames until it is shown; shown, it
    /// plays; a truncated GIF plays the frames it has.
    func testAViewThatDoesNotPlayDecodesNoFramesAndATruncatedGIFPlaysWhatItHas() throws {
        let path = try animatedGIF()
        let harness = try TiledViewHarness(path: path, width: 320, height: 240)
        harness.view.playsAnimation = false
        try harness.run(until: { harness.view.isSharp && harness.view.isAnimated })
        for _ in 0..<20 { try harness.frame(advance: .milliseconds(50)) }
        XCTAssertEqual(harness.view.animationFramesShown, 0)
        XCTAssertEqual(harness.recorder.report().animationFramesShown, 0)
        harness.view.playsAnimation = true
        try harness.run(until: { harness.view.animationFramesShown >= 3 })
        XCTAssertEqual(harness.recorder.report().animationFramesShown, harness.view.animationFramesShown)

        // Cut inside the last frame: frames 0 and 1 play in turn.
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = files.path("cut.gif")
        try data.prefix(data.count - 30).write(to: URL(fileURLWithPath: cut))
        let truncated = try TiledViewHarness(path: cut, width: 320, height: 240)
        var seen: Set<RGBA> = []
        try truncated.run(until: {
            if truncated.view.animationFramesShown > 0, let pixels = try? truncated.renderer.readPixels() {
                seen.insert(pixels.pixel(x: 160, y: 120))
            }
            return truncated.view.animationFramesShown >= 6
        })
        XCTAssertNil(truncated.view.errorText)
        XCTAssertTrue(seen.contains { $0.isClose(to: red, tolerance: 4) }, "\(seen)")
        XCTAssertTrue(seen.contains { $0.isClose(to: green, tolerance: 4) }, "\(seen)")
        XCTAssertFalse(seen.contains { $0.isClose(to: blue, tolerance: 4) }, "the cut frame never shows: \(seen)")
    }
}
