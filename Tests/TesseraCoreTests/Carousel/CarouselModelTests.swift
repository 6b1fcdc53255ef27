import Foundation
import XCTest
@testable import TesseraCore

final class CarouselModelTests: XCTestCase {
    private func makeModel(count: Int, scheduler: WorkScheduler<ImageKey, PixelBuffer>, loads: CountingObserver? = nil,
                           loader: @escaping Fixture.Loader,
                           configure: (inout CarouselConfiguration) -> Void = { _ in }) -> (CarouselModel, ImagePipeline) {
        var configuration = CarouselConfiguration()
        configure(&configuration)
        let pipeline = ImagePipeline.fixture(scheduler, loads: loads, loader: loader)
        let model = CarouselModel(items: Fixture.items(count), configuration: configuration, pipeline: pipeline,
                                  viewportWidth: 1280, viewportHeight: 720)
        return (model, pipeline)
    }

    /// Every cell that shows an image shows the image of the index it is tagged with.
    private func assertNoWrongImages(_ model: CarouselModel, file: StaticString = #filePath, line: UInt = #line) {
        for cell in model.visibleCells {
            guard case .image(let pixels) = cell.content, let index = cell.index else { continue }
            XCTAssertEqual(Fixture.decodedIndex(pixels), index, "cell \(cell.id) tagged \(index) shows another image",
                           file: file, line: line)
        }
    }

    func testFastScrollingWithASlowDecoderNeverShowsTheWrongImage() {
        // Real worker threads, each decode 2-25 ms: completions arrive long after their cells moved on.
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>(workerCount: 3)
        let (model, pipeline) = makeModel(count: 400, scheduler: scheduler,
                                          loader: Fixture.loader(delay: { Double.random(in: 0.002...0.025) }))
        defer { pipeline.shutdown() }
        let visibleCount = model.layout.visibleRange(offset: 0).count
        var time = Duration.zero
        var farthest = 0.0
        // Fling right, then left, then right with drags; step 1/60 s, checking every frame.
        for round in 0..<6 {
            let start = 1000.0, end = round.isMultiple(of: 2) ? 100.0 : 1900.0
            model.beginDrag(x: start, time: time)
            for step in 1...6 {
                time += .milliseconds(16)
                model.drag(x: start + (end - start) * Double(step) / 6, time: time)
                model.update(now: time)
                assertNoWrongImages(model)
            }
            model.endDrag(time: time)
            for _ in 0..<40 {
                time += .milliseconds(16)
                model.update(now: time)
                farthest = max(farthest, model.scroll.offset)
                for cell in model.cellsAwaitingUpload { model.didUpload(cell, now: time) }
                assertNoWrongImages(model)
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
        // Then let everything land and check the final screen is complete and right.
        let deadline = Date().addingTimeInterval(5)
        while model.visibleCells.contains(where: { if case .image = $0.content { return false } else { return true } }),
              Date() < deadline {
            time += .milliseconds(16)
            model.update(now: time)
            Thread.sleep(forTimeInterval: 0.005)
        }
        assertNoWrongImages(model)
        XCTAssertTrue(model.visibleCells.allSatisfy { if case .image = $0.content { return true } else { return false } })
        XCTAssertGreaterThan(farthest, 5 * 416, "the flings moved the strip by several cells")
        XCTAssertLessThanOrEqual(model.cellsCreated, visibleCount + 2, "reuse pool stays near visible + 2")
    }

    func testLateCompletionForARecycledCellIsNotApplied() {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let (model, _) = makeModel(count: 100, scheduler: scheduler, loader: Fixture.loader())
        model.update(now: .zero)
        let firstCell = model.visibleCells[0]
        XCTAssertEqual(firstCell.index, 0)
        // Scroll far away before any decode runs: cell 0 is reused for a later index.
        model.scrollBy(20 * 416, time: .zero)
        model.update(now: .milliseconds(16))
        scheduler.runPending()  // now the old decodes finish (those not dropped)
        model.update(now: .milliseconds(32))
        assertNoWrongImages(model)
        XCTAssertNotEqual(firstCell.index, 0)
    }

    func testVisibleItemsLoadFirstThenTheNeighbourAheadThenFurtherAheadNearestFirst() {
        let log = CallLog()
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let base = Fixture.loader()
        let (model, _) = makeModel(count: 50, scheduler: scheduler, loader: { key in log.record(key); return try base(key) },
                                   configure: { $0.preload = PreloadPolicy(ahead: 1, behind: 1) })
        model.update(now: .zero)
        let visible = model.layout.visibleRange(offset: 0)
        scheduler.runPending()
        let order = log.all.map { Fixture.index(of: $0.path) }
        XCTAssertEqual(Set(order.prefix(visible.count)), Set(visible), "visible items first")
        XCTAssertEqual(order.dropFirst(visible.count).first, visible.upperBound, "then the neighbour ahead")
        // Then, with nothing else to do, the workers go on ahead (the default strategy's idle lookahead).
        let ahead = Array(order.dropFirst(visible.count + 1))
        XCTAssertFalse(ahead.isEmpty)
        XCTAssertEqual(ahead, Array((visible.upperBound + 1)...(visible.upperBound + ahead.count)))
    }

    /// The view picks a cell's texture (with or without alpha) by the image's opacity; the worker finds
    /// it, whatever made the pixels (here a loader that never says), so the main thread never scans them.
    func testImagesReachTheirCellsWithTheirOpacityAlreadyKnown() {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let (model, _) = makeModel(count: 10, scheduler: scheduler, loader: { key in
            let index = Fixture.index(of: key.path)
            return PixelBuffer(width: 8, height: 6, filledWith: RGBA(r: 10, g: 20, b: 30, a: index % 2 == 0 ? 255 : 128))
        })
        model.update(now: .zero)
        scheduler.runPending()
        model.update(now: .milliseconds(16))
        var seen = 0
        for cell in model.visibleCells {
            guard case .image(let pixels) = cell.content, let index = cell.index else { continue }
            XCTAssertEqual(pixels.knownOpaque, index % 2 == 0, "item \(index)")
            seen += 1
        }
        XCTAssertGreaterThanOrEqual(seen, 3)
    }

    func testTwoRequestsForTheSameItemShareOneDecode() {
        let log = CallLog()
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let base = Fixture.loader()
        let loads = CountingObserver()
        let pipeline = ImagePipeline.fixture(scheduler, cacheBytes: 1 << 20, loads: loads,
                                             loader: { key in log.record(key); return try base(key) })
        let key = ImageKey(path: "/fake/img7.jpg", size: PixelSize(width: 400, height: 300))
        for priority in [2, 1, 0, 0, 3] { pipeline.request(key, priority: priority) }
        scheduler.runPending()
        XCTAssertEqual(log.all, [key])
        XCTAssertEqual(pipeline.drain().count, 1)
        pipeline.request(key, priority: 0)  // cached now: no second decode
        scheduler.runPending()
        XCTAssertEqual(log.all.count, 1)
        XCTAssertEqual(loads.strip.started, 1)
        XCTAssertEqual(loads.strip.mainThreadLoads, 1, "the inline executor runs on this (main) thread")
    }

    /// A picture landing within `CarouselConfiguration.quickArrival` of its cell coming on screen appears at
    /// once (a later one fades in: the test after this one).
    func testAQuickArrivalAppearsAtOnce() {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let (model, _) = makeModel(count: 30, scheduler: scheduler, loader: Fixture.loader())
        let clock = ManualClock()
        model.update(now: clock.now())
        scheduler.runPending()
        clock.advance(by: .milliseconds(40))
        model.update(now: clock.now())
        XCTAssertFalse(model.visibleCells.isEmpty)
        XCTAssertTrue(model.visibleCells.allSatisfy { $0.needsUpload && !$0.fadesIn })
    }

    /// The first screen's pictures are asked for before any frame: those that land before the first frame,
    /// however long the window took, appear in it at once.
    func testTheFirstScreenIsRequestedBeforeTheFirstFrameAndAppearsWithoutAFade() {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let (model, _) = makeModel(count: 30, scheduler: scheduler, loader: Fixture.loader())
        let clock = ManualClock()
        model.requestFirstScreen(now: clock.now())
        XCTAssertGreaterThan(scheduler.queuedCount, 0, "asked for before the first frame")
        scheduler.runPending()
        // The window and renderer take longer than a quick arrival.
        clock.advance(by: .milliseconds(400))
        model.update(now: clock.now())
        XCTAssertFalse(model.visibleCells.isEmpty)
        XCTAssertTrue(model.visibleCells.allSatisfy { $0.needsUpload && !$0.fadesIn })
    }

    /// A picture that kept its placeholder on screen past `quickArrival` fades in; a cached one appears at once.
    func testArrivingImageFadesInAndCachedImageAppearsAtOnce() {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let (model, _) = makeModel(count: 30, scheduler: scheduler, loader: Fixture.loader())
        let clock = ManualClock()
        model.update(now: clock.now())
        scheduler.runPending()
        clock.advance(by: .milliseconds(150))
        model.update(now: clock.now())
        let cell = model.visibleCells[0]
        XCTAssertTrue(cell.needsUpload && cell.fadesIn)
        model.didUpload(cell, now: clock.now())
        XCTAssertEqual(cell.imageAlpha(now: clock.now(), fade: model.fade), 0, accuracy: 1e-9)
        clock.advance(by: .milliseconds(125))
        XCTAssertEqual(cell.imageAlpha(now: clock.now(), fade: model.fade), 0.5, accuracy: 1e-9)
        clock.advance(by: .milliseconds(125))
        XCTAssertEqual(cell.imageAlpha(now: clock.now(), fade: model.fade), 1, accuracy: 1e-9)

        // Scroll item 0 out of view and back: it comes from the cache, without a fade.
        model.scrollBy(10 * 416, time: clock.now())
        model.update(now: clock.now())
        XCTAssertFalse(model.visibleCells.contains { $0.index == 0 })
        model.scrollBy(-10 * 416, time: clock.now())
        model.update(now: clock.now())
        let again = model.visibleCells.first { $0.index == 0 }!
        XCTAssertFalse(again.fadesIn)
        model.didUpload(again, now: clock.now())
        XCTAssertEqual(again.imageAlpha(now: clock.now(), fade: model.fade), 1)
    }

    /// While the single-image view has the window the strip does not update; what its workers finished
    /// meanwhile is on screen, without a fade, as soon as the strip is shown again.
    func testDecodesThatFinishedWhileTheStripWasHiddenAppearAtOnce() {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let (model, _) = makeModel(count: 30, scheduler: scheduler, loader: Fixture.loader())
        model.update(now: .zero)
        scheduler.runPending()
        model.refreshVisibleCells()
        XCTAssertTrue(model.visibleCells.allSatisfy { $0.hasImage && !$0.fadesIn })
        model.update(now: .milliseconds(16))
        XCTAssertTrue(model.visibleCells.allSatisfy { $0.hasImage && !$0.fadesIn }, "the deliveries change nothing")
    }

    func testFadeZeroShowsArrivalsAtOnce() {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let (model, _) = makeModel(count: 5, scheduler: scheduler, loader: Fixture.loader(),
                                   configure: { $0.fade = FadeTiming(duration: .zero) })
        model.update(now: .zero)
        scheduler.runPending()
        model.update(now: .zero)
        let cell = model.visibleCells[0]
        model.didUpload(cell, now: .zero)
        XCTAssertEqual(cell.imageAlpha(now: .zero, fade: model.fade), 1)
    }

    func testAFailingItemShowsAnErrorCellOnceAndCanBeRetried() {
        let log = CallLog()
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let base = Fixture.loader(failing: [1])
        let (model, _) = makeModel(count: 10, scheduler: scheduler, loader: { key in log.record(key); return try base(key) })
        model.update(now: .zero)
        scheduler.runPending()
        model.update(now: .milliseconds(16))
        let cell = model.visibleCells.first { $0.index == 1 }!
        XCTAssertEqual(cell.content, .failed(LoadFailure(shortText: "Not an image", detail: "/fake/img1.jpg: not an image")))
        // Further frames do not decode the bad file again.
        for frame in 2..<10 { model.update(now: .milliseconds(16 * frame)); scheduler.runPending() }
        XCTAssertEqual(log.all.filter { $0.path.hasSuffix("img1.jpg") }.count, 1)
        model.retry(1)
        model.update(now: .milliseconds(200))
        scheduler.runPending()
        XCTAssertEqual(log.all.filter { $0.path.hasSuffix("img1.jpg") }.count, 2)
    }

    /// A resting strip asks for the same images every frame and, once they are all cached or loading,
    /// skips asking again. An image the cache lets go meanwhile must still be asked for again.
    func testAnImageTheCacheLetsGoWhileTheStripRestsIsDecodedAgain() {
        let log = CallLog()
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let base = Fixture.loader()
        let (model, pipeline) = makeModel(count: 50, scheduler: scheduler, loader: { key in log.record(key); return try base(key) })
        for frame in 0..<4 {
            model.update(now: .milliseconds(16 * frame))
            scheduler.runPending()
        }
        let decoded = log.all.count
        let ahead = model.layout.visibleRange(offset: 0).upperBound + 1
        XCTAssertNotNil(pipeline.storedValue(for: model.key(for: ahead)), "the idle lookahead decoded ahead")
        model.update(now: .milliseconds(64))
        scheduler.runPending()
        XCTAssertEqual(log.all.count, decoded, "nothing new to decode at rest")

        pipeline.removeStoredValues { $0 == model.key(for: ahead) }
        model.update(now: .milliseconds(80))
        scheduler.runPending()
        XCTAssertEqual(log.all.count, decoded + 1)
        XCTAssertEqual(log.all.last, model.key(for: ahead))
    }

    func testItemsThatLeaveThePreloadWindowAreDroppedBeforeTheyStart() {
        let log = CallLog()
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let base = Fixture.loader()
        let loads = CountingObserver()
        let (model, _) = makeModel(count: 500, scheduler: scheduler, loads: loads,
                                   loader: { key in log.record(key); return try base(key) })
        model.update(now: .zero)
        model.scrollBy(100 * 416, time: .zero)
        model.update(now: .milliseconds(16))
        scheduler.runPending()
        XCTAssertTrue(log.all.allSatisfy { Fixture.index(of: $0.path) >= 90 }, "work for the first screen was dropped")
        XCTAssertGreaterThan(loads.strip.droppedQueued, 0)
    }

    func testKeyboardSelectionScrollsToShowTheSelectedCell() {
        let (model, _) = makeModel(count: 40, scheduler: .inline(), loader: Fixture.loader())
        var time = Duration.zero
        for _ in 0..<5 {
            model.moveSelection(columns: 1, time: time)
            for _ in 0..<30 { time += .milliseconds(16); model.update(now: time) }
        }
        XCTAssertEqual(model.selectedIndex, 5)
        XCTAssertTrue(model.layout.visibleRange(offset: model.scroll.offset).contains(5))
        model.selectLast(time: time)
        for _ in 0..<30 { time += .milliseconds(16); model.update(now: time) }
        XCTAssertEqual(model.scroll.offset, model.scroll.maxOffset, accuracy: 0.5)
        model.selectFirst(time: time)
        for _ in 0..<30 { time += .milliseconds(16); model.update(now: time) }
        XCTAssertEqual(model.scroll.offset, 0, accuracy: 0.5)
    }

    /// A drag, fling or wheel that leaves the selection off screen brings it to the nearest whole image on
    /// screen once the strip rests, so Right steps on from there instead of scrolling back to the start.
    func testScrollingTheSelectionOutOfViewBringsItToTheNearestImageOnScreen() {
        let (model, _) = makeModel(count: 200, scheduler: .inline(), loader: Fixture.loader())
        var time = Duration.zero
        func settle() { for _ in 0..<400 { time += .milliseconds(16); model.update(now: time); if !model.scroll.isMoving { break } } }
        XCTAssertEqual(model.selectedIndex, 0)

        // A fling to the right: the selection stays put while the strip moves, then joins it.
        model.beginDrag(x: 1100, time: time)
        for step in 1...6 { time += .milliseconds(10); model.drag(x: 1100 - 150 * Double(step), time: time); model.update(now: time) }
        model.endDrag(time: time)
        time += .milliseconds(16)
        model.update(now: time)
        XCTAssertTrue(model.scroll.isDecelerating)
        XCTAssertEqual(model.selectedIndex, 0, "not while the strip moves")
        settle()
        let whole = try! XCTUnwrap(model.layout.wholeColumns(offset: model.scroll.offset))
        XCTAssertGreaterThan(whole.lowerBound, 3, "the fling went several screens")
        XCTAssertEqual(model.selectedIndex, whole.lowerBound, "the first whole image, nearest to where it was")

        // Right steps on from there without scrolling back.
        let offset = model.scroll.offset
        model.moveSelection(columns: 1, time: time)
        settle()
        XCTAssertEqual(model.selectedIndex, whole.lowerBound + 1)
        XCTAssertEqual(model.scroll.offset, offset, accuracy: 0.5, "the next image was already on screen")

        // The wheel back towards the start: the selection is now right of the screen and comes to its last
        // whole image.
        model.scrollBy(-20 * 416, time: time)
        let back = try! XCTUnwrap(model.layout.wholeColumns(offset: model.scroll.offset))
        XCTAssertEqual(model.selectedIndex, back.upperBound)

        // A drag that leaves a partly shown selection on screen keeps it (a click on an edge cell).
        model.selectWithoutScrolling(back.upperBound + 1)
        model.beginDrag(x: 600, time: time)
        model.endDrag(time: time)
        settle()
        XCTAssertEqual(model.selectedIndex, back.upperBound + 1)
    }

    /// A key's animated scroll towards a selection off screen is not taken for the user's scrolling, even
    /// when it cuts a fling short.
    func testAKeyDuringAFlingKeepsItsSelection() {
        let (model, _) = makeModel(count: 200, scheduler: .inline(), loader: Fixture.loader())
        var time = Duration.zero
        model.beginDrag(x: 1100, time: time)
        for step in 1...6 { time += .milliseconds(10); model.drag(x: 1100 - 150 * Double(step), time: time); model.update(now: time) }
        model.endDrag(time: time)
        for _ in 0..<10 { time += .milliseconds(16); model.update(now: time) }
        XCTAssertTrue(model.scroll.isDecelerating)
        model.selectLast(time: time)
        for _ in 0..<200 { time += .milliseconds(16); model.update(now: time) }
        XCTAssertFalse(model.scroll.isMoving)
        XCTAssertEqual(model.selectedIndex, 199)
        XCTAssertEqual(model.scroll.offset, model.scroll.maxOffset, accuracy: 0.5)
    }

    /// In a grid the selection keeps its row when it joins the screen.
    func testInAGridTheSelectionKeepsItsRow() {
        let (model, _) = makeModel(count: 200, scheduler: .inline(), loader: Fixture.loader()) { $0.rows = 2 }
        model.update(now: .zero)
        model.moveSelection(rows: 1, time: .zero)
        XCTAssertEqual(model.selectedIndex, 1)
        model.scrollBy(30 * 416, time: .milliseconds(16))
        let whole = try! XCTUnwrap(model.layout.wholeColumns(offset: model.scroll.offset))
        XCTAssertEqual(model.selectedIndex, whole.lowerBound * 2 + 1)
    }

    func testHiDPIDecodesAtThePixelSizeOfTheCell() {
        let model = CarouselModel(items: Fixture.items(3), configuration: CarouselConfiguration(),
                                  pipeline: .fixture(.inline(), loader: Fixture.loader()),
                                  viewportWidth: 1280, viewportHeight: 720, pixelScale: 2)
        XCTAssertEqual(model.cellPixelSize, PixelSize(width: 800, height: 600))
        XCTAssertEqual(model.key(for: 0).size, PixelSize(width: 800, height: 600))
    }
}
