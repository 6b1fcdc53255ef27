import Foundation
import Synchronization
import XCTest
@testable import TesseraCore

/// Files changing, vanishing and appearing under a running strip, and remote items that download.
final class CarouselChangeTests: XCTestCase {
    private static let cellStride = 416.0  // 400 pt cell + 16 pt spacing

    private func version(_ n: Int64) -> FileVersion { FileVersion(size: n, modifiedNanoseconds: n * 1000) }

    private func items(_ count: Int) -> [CarouselItem] {
        (0..<count).map { CarouselItem(path: "/photos/img\($0).jpg", version: version(1)) }
    }

    /// A decoder whose pixels say which content they came from: red = the file version's size.
    private static let loader: Fixture.Loader = { key in
        PixelBuffer(width: 8, height: 6, filledWith: RGBA(r: UInt8(truncatingIfNeeded: key.version?.size ?? 0), g: 0, b: 0))
    }

    private func makeModel(_ items: [CarouselItem], remote: RemoteFetching? = nil)
        -> (CarouselModel, ImagePipeline, WorkScheduler<ImageKey, PixelBuffer>) {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let strategy = PreloadWindowStrategy(preload: PreloadPolicy(ahead: 2, behind: 1))
        let pipeline = ImagePipeline.fixture(scheduler, strategy: strategy, loader: Self.loader)
        let model = CarouselModel(items: items, configuration: CarouselConfiguration(), pipeline: pipeline,
                                  remote: remote, strategy: strategy, viewportWidth: 1280, viewportHeight: 720)
        return (model, pipeline, scheduler)
    }

    /// Runs frames until the decodes asked for have landed.
    private func settle(_ model: CarouselModel, _ scheduler: WorkScheduler<ImageKey, PixelBuffer>, at time: inout Duration) {
        for _ in 0..<4 {
            time += .milliseconds(16)
            model.update(now: time)
            scheduler.runPending()
        }
        time += .milliseconds(16)
        model.update(now: time)
    }

    private func cell(showing path: String, in model: CarouselModel) -> CarouselCell? {
        model.visibleCells.first { $0.index.map { model.items[$0].path } == path }
    }

    private func shownVersionSize(of path: String, in model: CarouselModel) -> Int? {
        guard case .image(let pixels)? = cell(showing: path, in: model)?.content else { return nil }
        return Int(pixels.pixel(x: 0, y: 0).r)
    }

    private func screenX(of path: String, in model: CarouselModel) -> Double? {
        cell(showing: path, in: model).map { model.viewportFrame(of: $0).x }
    }

    // MARK: Changed files

    func testAChangedFileReloadsItsCellKeepingTheOldImageUntilTheNewOneArrives() {
        let (model, pipeline, scheduler) = makeModel(items(20))
        var time = Duration.zero
        settle(model, scheduler, at: &time)
        XCTAssertEqual(shownVersionSize(of: "/photos/img1.jpg", in: model), 1)

        model.apply([.present(path: "/photos/img1.jpg", version: version(2))])
        // No flash of the placeholder: the old image stays while the new one decodes.
        XCTAssertEqual(shownVersionSize(of: "/photos/img1.jpg", in: model), 1)
        XCTAssertEqual(cell(showing: "/photos/img1.jpg", in: model)?.isStale, true)
        XCTAssertNil(pipeline.storedValue(for: model.key(for: 1).withVersion(version(1))), "the old pixels leave the cache")

        settle(model, scheduler, at: &time)
        XCTAssertEqual(shownVersionSize(of: "/photos/img1.jpg", in: model), 2)
        XCTAssertEqual(cell(showing: "/photos/img1.jpg", in: model)?.isStale, false)
        XCTAssertEqual(shownVersionSize(of: "/photos/img0.jpg", in: model), 1, "other cells are left alone")
    }

    func testADecodeOfTheOldContentFinishingAfterTheChangeIsNotShown() {
        let (model, _, scheduler) = makeModel(items(20))
        var time = Duration.zero
        model.update(now: time)  // decodes of version 1 are queued, not run
        model.apply([.present(path: "/photos/img0.jpg", version: version(2))])
        scheduler.runPending()  // now they finish: img0's is stale
        time += .milliseconds(16)
        model.update(now: time)
        XCTAssertNil(shownVersionSize(of: "/photos/img0.jpg", in: model), "old content must not land after the change")
        XCTAssertEqual(shownVersionSize(of: "/photos/img1.jpg", in: model), 1)
        settle(model, scheduler, at: &time)
        XCTAssertEqual(shownVersionSize(of: "/photos/img0.jpg", in: model), 2)
    }

    func testAnUnchangedVersionChangesNothing() {
        let (model, _, scheduler) = makeModel(items(20))
        var time = Duration.zero
        settle(model, scheduler, at: &time)
        let before = model.visibleCells.map(\.id)
        model.apply([.present(path: "/photos/img1.jpg", version: version(1))])
        XCTAssertEqual(model.visibleCells.map(\.id), before)
        XCTAssertEqual(cell(showing: "/photos/img1.jpg", in: model)?.isStale, false)
    }

    // MARK: Deleted and new files

    func testADeletedFileLeavesTheStripWithoutMovingWhatTheUserLooksAt() {
        let (model, _, scheduler) = makeModel(items(100))
        var time = Duration.zero
        model.scrollBy(20 * Self.cellStride, time: time)
        settle(model, scheduler, at: &time)
        model.selectWithoutScrolling(22)
        let selectedX = screenX(of: "/photos/img22.jpg", in: model)
        XCTAssertNotNil(selectedX)

        model.apply([.removed(path: "/photos/img3.jpg")])  // before the screen
        XCTAssertEqual(model.items.count, 99)
        XCTAssertFalse(model.items.contains { $0.path == "/photos/img3.jpg" })
        XCTAssertEqual(model.items[model.selectedIndex].path, "/photos/img22.jpg", "the selection stays on its item")
        XCTAssertEqual(screenX(of: "/photos/img22.jpg", in: model), selectedX, "the selected image does not move")

        model.apply([.removed(path: "/photos/img23.jpg")])  // on screen, after the selection
        XCTAssertNil(cell(showing: "/photos/img23.jpg", in: model))
        XCTAssertEqual(screenX(of: "/photos/img22.jpg", in: model), selectedX)
        settle(model, scheduler, at: &time)
        XCTAssertNotNil(shownVersionSize(of: "/photos/img24.jpg", in: model), "the next image moved up into the gap")
    }

    func testDeletingTheSelectedImageSelectsTheNextOne() {
        let (model, _, scheduler) = makeModel(items(10))
        var time = Duration.zero
        settle(model, scheduler, at: &time)
        model.selectWithoutScrolling(4)
        model.apply([.removed(path: "/photos/img4.jpg"), .removed(path: "/photos/img5.jpg")])
        XCTAssertEqual(model.items[model.selectedIndex].path, "/photos/img6.jpg")
        model.selectWithoutScrolling(model.items.count - 1)
        model.apply([.removed(path: "/photos/img9.jpg")])
        XCTAssertEqual(model.items[model.selectedIndex].path, "/photos/img8.jpg", "the last one went: the one before it")
        model.apply(model.items.map { .removed(path: $0.path) })
        XCTAssertTrue(model.items.isEmpty)
        settle(model, scheduler, at: &time)
        XCTAssertTrue(model.visibleCells.isEmpty)
    }

    func testANewFileAppearsInNaturalOrderAndTheViewStaysPut() {
        let (model, _, scheduler) = makeModel(items(30))
        var time = Duration.zero
        model.scrollBy(10 * Self.cellStride, time: time)
        settle(model, scheduler, at: &time)
        model.selectWithoutScrolling(12)
        let selectedX = screenX(of: "/photos/img12.jpg", in: model)

        model.apply([.present(path: "/photos/img4b.jpg", version: version(3)),    // between img4 and img5
                     .present(path: "/photos/img100.jpg", version: version(3)),   // after img29 (100 > 29)
                     .present(path: "/elsewhere/new.jpg", version: version(3))])  // a folder not shown: the end
        let paths = model.items.map(\.path)
        XCTAssertEqual(paths.firstIndex(of: "/photos/img4b.jpg"), 5)
        XCTAssertEqual(paths.firstIndex(of: "/photos/img100.jpg"), 31)
        XCTAssertEqual(paths.last, "/elsewhere/new.jpg")
        XCTAssertEqual(model.items[model.selectedIndex].path, "/photos/img12.jpg")
        XCTAssertEqual(screenX(of: "/photos/img12.jpg", in: model), selectedX)

        model.apply([.present(path: "/photos/img11b.jpg", version: version(3))])  // on screen, before the selection
        settle(model, scheduler, at: &time)
        XCTAssertEqual(shownVersionSize(of: "/photos/img11b.jpg", in: model), 3, "a new visible file loads")
        XCTAssertEqual(screenX(of: "/photos/img12.jpg", in: model), selectedX)
    }

    func testAThousandNewFilesAtOnceMergeInNaturalOrder() {
        // The strip shows the even-numbered files; the odd ones arrive in one batch, shuffled, with a few
        // from a folder the strip does not show.
        let evens = (0..<1000).map { CarouselItem(path: "/photos/img\($0 * 2).jpg", version: version(1)) }
        let (model, _, scheduler) = makeModel(evens)
        var time = Duration.zero
        settle(model, scheduler, at: &time)
        var arrivals: [ItemChange] = (0..<1000).map { .present(path: "/photos/img\($0 * 2 + 1).jpg", version: version(2)) }
        arrivals += ["/other/b.jpg", "/other/a10.jpg", "/other/a9.jpg"].map { .present(path: $0, version: version(2)) }
        var generator = SystemRandomNumberGenerator()
        arrivals.shuffle(using: &generator)

        model.apply(arrivals)
        XCTAssertEqual(model.items.map(\.path),
                       (0..<2000).map { "/photos/img\($0).jpg" } + ["/other/a9.jpg", "/other/a10.jpg", "/other/b.jpg"])
        XCTAssertEqual(model.items[model.selectedIndex].path, "/photos/img0.jpg")
    }

    func testAPathNamedTwiceInOneBatchTakesTheLastWord() {
        let (model, _, _) = makeModel(items(5))
        model.apply([.present(path: "/photos/img9.jpg", version: version(2)), .removed(path: "/photos/img9.jpg"),
                     .removed(path: "/photos/img1.jpg"), .present(path: "/photos/img1.jpg", version: version(3))])
        XCTAssertEqual(model.items.map(\.path), items(5).map(\.path))
        XCTAssertEqual(model.items[1].version, version(3))
    }

    func testAFolderEmptiedThenRefilledShowsTheNewFile() {
        let (model, _, scheduler) = makeModel(items(3))
        var time = Duration.zero
        settle(model, scheduler, at: &time)
        model.apply(items(3).map { .removed(path: $0.path) })
        settle(model, scheduler, at: &time)
        XCTAssertTrue(model.items.isEmpty)
        model.apply([.present(path: "/photos/new.jpg", version: version(4))])
        settle(model, scheduler, at: &time)
        XCTAssertEqual(model.items.map(\.path), ["/photos/new.jpg"])
        XCTAssertEqual(model.selectedIndex, 0)
        XCTAssertEqual(shownVersionSize(of: "/photos/new.jpg", in: model), 4)
    }

    func testAFlingCarriesOnWhenAFileAppearsBeforeTheScreen() {
        let (model, _, scheduler) = makeModel(items(200))
        var time = Duration.zero
        model.scrollBy(30 * Self.cellStride, time: time)
        settle(model, scheduler, at: &time)
        model.beginDrag(x: 900, time: time)
        for step in 1...5 {
            time += .milliseconds(16)
            model.drag(x: 900 - Double(step) * 60, time: time)
        }
        model.endDrag(time: time)
        time += .milliseconds(16)
        model.update(now: time)
        XCTAssertTrue(model.scroll.isDecelerating)
        let offset = model.scroll.offset, velocity = model.scroll.velocity
        let resting = model.scroll.projectedRestingOffset

        model.apply([.present(path: "/photos/img1b.jpg", version: version(1))])
        XCTAssertTrue(model.scroll.isDecelerating, "the fling goes on")
        XCTAssertEqual(model.scroll.offset, offset + Self.cellStride, accuracy: 1e-6)
        XCTAssertEqual(model.scroll.velocity, velocity, accuracy: 1e-6)
        XCTAssertEqual(model.scroll.projectedRestingOffset, resting + Self.cellStride, accuracy: 1e-6)
    }

    // MARK: Remote items

    func testRemoteItemsDownloadOnlyWhenTheStripIsNotDraggedOrDecelerating() {
        let remote = FakeRemote()
        let urls = (0..<100).map { CarouselItem(path: "https://example.test/img\($0).jpg") }
        let (model, _, scheduler) = makeModel(urls, remote: remote)
        var time = Duration.zero
        // A drag and a fling from the first frame: nothing may start until it ends.
        model.beginDrag(x: 1000, time: time)
        model.update(now: time)
        for step in 1...8 {
            time += .milliseconds(16)
            model.drag(x: 1000 - Double(step) * 80, time: time)
            model.update(now: time)
            XCTAssertTrue(remote.started.isEmpty, "no download while dragging")
        }
        model.endDrag(time: time)
        var sawDeceleration = false
        while model.scroll.isMoving {
            sawDeceleration = sawDeceleration || model.scroll.isDecelerating
            time += .milliseconds(16)
            model.update(now: time)
            if model.scroll.isMoving { XCTAssertTrue(remote.started.isEmpty, "no download while moving") }
        }
        XCTAssertTrue(sawDeceleration)

        // Scrolling ended: the visible items start, first.
        time += .milliseconds(16)
        model.update(now: time)
        let visible = Set(model.layout.visibleRange(offset: model.scroll.offset).map { urls[$0].path })
        XCTAssertFalse(visible.isEmpty)
        XCTAssertTrue(visible.isSubset(of: Set(remote.started)), "\(visible) not all in \(remote.started)")
        XCTAssertEqual(Set(remote.started.prefix(visible.count)), visible)

        // They arrive; their decodes use the downloaded version; nothing is fetched twice.
        let startedCount = remote.started.count
        for url in remote.started { remote.finish(url, version: version(7)) }
        settle(model, scheduler, at: &time)
        for path in visible { XCTAssertEqual(shownVersionSize(of: path, in: model), 7) }
        XCTAssertEqual(remote.started.count, Set(remote.started).count)
        XCTAssertGreaterThanOrEqual(remote.started.count, startedCount)
    }

    func testAFailedDownloadShowsItsReasonAndRetriesOnRequest() {
        let remote = FakeRemote()
        let urls = (0..<10).map { CarouselItem(path: "https://example.test/img\($0).jpg") }
        let (model, _, scheduler) = makeModel(urls, remote: remote)
        var time = Duration.zero
        model.update(now: time)
        remote.fail(urls[0].path, LoadFailure(shortText: "Not found (404)", detail: "404"))
        settle(model, scheduler, at: &time)
        XCTAssertEqual(model.visibleCells.first { $0.index == 0 }?.content,
                       .failed(LoadFailure(shortText: "Not found (404)", detail: "404")))

        model.retry(0)
        XCTAssertEqual(remote.forgotten, [urls[0].path])
        time += .milliseconds(16)
        model.update(now: time)
        XCTAssertEqual(remote.started.filter { $0 == urls[0].path }.count, 2, "the retry fetches again")
    }

    func testTheStripIsNotIdleFromADownloadsStartUntilItsPictureIsShownOrItFailed() {
        let remote = FakeRemote()
        let urls = (0..<3).map { CarouselItem(path: "https://example.test/img\($0).jpg") }
        let (model, _, scheduler) = makeModel(urls, remote: remote)
        var time = Duration.zero
        model.update(now: time)
        XCTAssertTrue(model.isFilling(now: time), "downloads under way")
        for url in urls.map(\.path) { remote.finish(url, version: version(7)) }
        // The bytes are here, no decode asked for yet: a run waiting for idle must not end on placeholders.
        XCTAssertTrue(model.isFilling(now: time), "downloaded, decodes not yet asked for")
        remote.fail(urls[2].path, LoadFailure(shortText: "Not found (404)", detail: "404"))
        settle(model, scheduler, at: &time)
        XCTAssertEqual(shownVersionSize(of: urls[0].path, in: model), 7)
        XCTAssertFalse(model.isFilling(now: time), "every picture shown or failed")
    }

    func testDownloadsThatLeftTheScreenBeforeStartingAreDropped() {
        let remote = FakeRemote()
        let urls = (0..<100).map { CarouselItem(path: "https://example.test/img\($0).jpg") }
        let (model, _, _) = makeModel(urls, remote: remote)
        model.update(now: .zero)
        XCTAssertTrue(remote.retained.last?.contains(urls[0].path) ?? false)
        model.scrollBy(50 * Self.cellStride, time: .milliseconds(16))
        model.update(now: .milliseconds(32))
        XCTAssertFalse(remote.retained.last?.contains(urls[0].path) ?? true, "img0 is no longer wanted")
        XCTAssertTrue(remote.retained.last?.contains(urls[50].path) ?? false)
    }
}

extension ImageKey {
    func withVersion(_ version: FileVersion) -> ImageKey { ImageKey(path: path, size: size, variant: variant, version: version) }
}

/// A download table the test drives by hand.
final class FakeRemote: RemoteFetching {
    private struct State {
        var states: [String: RemoteState] = [:]
        var started: [String] = []
        var retained: [Set<String>] = []
        var forgotten: [String] = []
    }
    private let state = Mutex(State())

    var started: [String] { state.withLock { $0.started } }
    var retained: [Set<String>] { state.withLock { $0.retained } }
    var forgotten: [String] { state.withLock { $0.forgotten } }

    func finish(_ url: String, version: FileVersion) {
        state.withLock { $0.states[url] = .ready(localPath: "/cache/" + url.split(separator: "/").last!, version: version) }
    }

    func fail(_ url: String, _ failure: LoadFailure) { state.withLock { $0.states[url] = .failed(failure) } }

    func state(of url: String) -> RemoteState { state.withLock { $0.states[url] ?? .notStarted } }

    func fetch(_ url: String, priority: Int) {
        state.withLock {
            guard $0.states[url] == nil else { return }
            $0.states[url] = .inFlight
            $0.started.append(url)
        }
    }

    func retainQueued(_ urls: Set<String>) { state.withLock { $0.retained.append(urls) } }

    func forgetFailure(_ url: String) {
        state.withLock {
            $0.forgotten.append(url)
            if case .failed = $0.states[url] { $0.states[url] = nil }
        }
    }
}
