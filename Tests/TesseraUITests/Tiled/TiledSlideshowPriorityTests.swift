import Foundation
import TesseraSDL
import XCTest
@testable import TesseraCore
@testable import TesseraUI

/// The slideshow's two views on one executor: the image shown and the one opened ahead of it. What is on
/// screen goes first, whatever the other asks for.
final class TiledSlideshowPriorityTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-slideshow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Both large pyramids at 100 %, each asking for a screenful of tiles: the shown one's opening and
    /// every one of its tile loads run before anything of the next one's; the next one's then follow.
    func testTheShownImagesTilesAllRunBeforeTheNextImagesTiles() throws {
        let shownPath = try TiledFixtures.writeDeepZoom(TiledFixtures.gradient(width: 1024, height: 768), tileSize: 64,
                                                        overlap: 0, in: folder, name: "shown")
        let nextPath = try TiledFixtures.writeDeepZoom(TiledFixtures.gradient(width: 1024, height: 768), tileSize: 64,
                                                       overlap: 0, in: folder, name: "next")
        let executor = WorkExecutor.manual()
        let harness = try TiledViewHarness(path: shownPath, width: 320, height: 240, executor: executor)
        let shown = harness.view
        let next = TiledImageView(path: nextPath, renderer: harness.renderer, text: harness.text, assets: nil,
                                  options: TiledViewHarness.options(), executor: executor, rank: .preload,
                                  pixelScale: 1, now: harness.clock.now())
        func update() {
            shown.update(now: harness.clock.now())
            next.update(now: harness.clock.now())
        }

        // The openings: the shown image's first. (Once open, a view asks for tiles, which run before the
        // next image's opening: the views take what was delivered only after both openings.)
        XCTAssertEqual(executor.runPending(limit: 1), 1)
        next.update(now: harness.clock.now())
        XCTAssertNil(next.geometry, "the shown image opens first")
        XCTAssertEqual(executor.runPending(limit: 1), 1)
        update()
        XCTAssertNotNil(shown.geometry)
        XCTAssertNotNil(next.geometry)

        // 100 %: each asks for the tiles of its screen at full resolution.
        harness.press("1")
        let actual = try XCTUnwrap(KeyBindings.defaults.action(for: try KeyCombo(parsing: "1"), in: .single))
        _ = next.perform(actual, now: harness.clock.now())
        try harness.frame()
        next.update(now: harness.clock.now())
        let shownAsked = shown.tileLoadCounts.queued
        let nextAsked = next.tileLoadCounts.queued
        XCTAssertGreaterThan(shownAsked, 10)
        XCTAssertGreaterThan(nextAsked, 10)

        var steps = 0
        while executor.runPending(limit: 1) == 1 {
            steps += 1
            let (shownQueued, shownStarted) = shown.tileLoadCounts
            let nextStarted = next.tileLoadCounts.started
            if nextStarted > 0 {
                XCTAssertEqual(shownQueued, 0, "a tile of the next image ran while \(shownQueued) of the shown one waited")
                XCTAssertEqual(shownStarted, shownAsked)
            } else {
                XCTAssertEqual(shownStarted, steps)
            }
        }
        XCTAssertEqual(steps, shownAsked + nextAsked)
        XCTAssertEqual(next.tileLoadCounts.started, nextAsked)
    }

    /// Once the next image is shown (its rank raised, the old one's lowered), its waiting tiles go first.
    func testTheNextImageShownTakesTheLeadWithItsWaitingTiles() throws {
        let firstPath = try TiledFixtures.writeDeepZoom(TiledFixtures.gradient(width: 1024, height: 768), tileSize: 64,
                                                        overlap: 0, in: folder, name: "first")
        let secondPath = try TiledFixtures.writeDeepZoom(TiledFixtures.gradient(width: 1024, height: 768), tileSize: 64,
                                                         overlap: 0, in: folder, name: "second")
        let executor = WorkExecutor.manual()
        let harness = try TiledViewHarness(path: firstPath, width: 320, height: 240, executor: executor)
        let first = harness.view
        let second = TiledImageView(path: secondPath, renderer: harness.renderer, text: harness.text, assets: nil,
                                    options: TiledViewHarness.options(), executor: executor, rank: .preload,
                                    pixelScale: 1, now: harness.clock.now())
        executor.runPending(limit: 2)
        harness.press("1")
        let actual = try XCTUnwrap(KeyBindings.defaults.action(for: try KeyCombo(parsing: "1"), in: .single))
        _ = second.perform(actual, now: harness.clock.now())
        try harness.frame()
        second.update(now: harness.clock.now())
        XCTAssertGreaterThan(first.tileLoadCounts.queued, 0)
        let secondAsked = second.tileLoadCounts.queued
        XCTAssertGreaterThan(secondAsked, 0)

        // The slideshow moves on.
        second.rank = .visible
        first.rank = .preload
        XCTAssertEqual(executor.runPending(limit: secondAsked), secondAsked)
        XCTAssertEqual(second.tileLoadCounts.started, secondAsked)
        XCTAssertEqual(first.tileLoadCounts.started, 0)
    }
}
