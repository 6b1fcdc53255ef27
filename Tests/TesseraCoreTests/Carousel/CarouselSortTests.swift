import XCTest
@testable import TesseraCore

/// Sorting the strip again, marks, and session turns: what the user does to the items, seen from the model.
final class CarouselSortTests: XCTestCase {
    /// img0 is the newest and the smallest, img19 the oldest and the largest.
    private func items(_ count: Int) -> [CarouselItem] {
        (0..<count).map {
            CarouselItem(path: "/photos/img\($0).jpg",
                         version: FileVersion(size: Int64($0 + 1), modifiedNanoseconds: Int64((count - $0) * 1000)))
        }
    }

    private static let loader: Fixture.Loader = { key in
        PixelBuffer(width: 8, height: 6, filledWith: RGBA(r: UInt8(key.sessionOrientation), g: 0, b: 0))
    }

    private func makeModel(_ items: [CarouselItem]) -> (CarouselModel, WorkScheduler<ImageKey, PixelBuffer>) {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let strategy = PreloadWindowStrategy(preload: PreloadPolicy(ahead: 2, behind: 1))
        let pipeline = ImagePipeline.fixture(scheduler, strategy: strategy, loader: Self.loader)
        let model = CarouselModel(items: items, configuration: CarouselConfiguration(), pipeline: pipeline,
                                  strategy: strategy, viewportWidth: 1280, viewportHeight: 720)
        return (model, scheduler)
    }

    private func settle(_ model: CarouselModel, _ scheduler: WorkScheduler<ImageKey, PixelBuffer>, at time: inout Duration) {
        for _ in 0..<40 {
            time += .milliseconds(16)
            model.update(now: time)
            scheduler.runPending()
        }
    }

    func testSortingKeepsTheSelectedImageSelectedAndOnScreen() {
        let (model, scheduler) = makeModel(items(20))
        var time = Duration.zero
        model.select(3, time: time, animated: false)
        settle(model, scheduler, at: &time)
        let selected = model.items[3].path
        model.sort(by: .mtime, time: time)
        settle(model, scheduler, at: &time)
        XCTAssertEqual(model.sortOrder, .mtime)
        XCTAssertEqual(model.items.first?.path, "/photos/img19.jpg", "oldest first")
        XCTAssertEqual(model.selectedItem?.path, selected)
        XCTAssertEqual(model.selectedIndex, 16)
        XCTAssertTrue(model.visibleCells.contains { $0.index == model.selectedIndex }, "the selection is on screen")
        model.sort(by: .name, time: time)
        XCTAssertEqual(model.selectedItem?.path, selected)
        XCTAssertEqual(model.items.map(\.path), items(20).map(\.path).sorted(by: NaturalOrder.areInIncreasingOrder))
    }

    /// Opening with `--sort mtime`: the times come in from the background after the first frames.
    private func modelByTimeWithNothingRead(_ count: Int) -> (CarouselModel, WorkScheduler<ImageKey, PixelBuffer>) {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let strategy = PreloadWindowStrategy(preload: PreloadPolicy(ahead: 2, behind: 1))
        let pipeline = ImagePipeline.fixture(scheduler, strategy: strategy, loader: Self.loader)
        let model = CarouselModel(table: ItemTable(items(count)), order: .mtime, shuffleSeed: 1,
                                  configuration: CarouselConfiguration(), pipeline: pipeline, strategy: strategy,
                                  viewportWidth: 1280, viewportHeight: 720)
        return (model, scheduler)
    }

    private func stats(_ count: Int) -> [ItemFacts.Reading] {
        items(count).enumerated().map { ItemFacts.Reading(id: UInt32($0.offset), version: $0.element.version) }
    }

    func testAStripStillAtItsStartShowsTheStartOfTheOrderWhenItsKeysComeIn() {
        let (model, scheduler) = modelByTimeWithNothingRead(20)
        var time = Duration.zero
        settle(model, scheduler, at: &time)
        XCTAssertEqual(model.selectedItem?.path, "/photos/img0.jpg", "name order until the times are in")
        model.learn(stats(20), resort: true, showingStart: true, time: time)
        settle(model, scheduler, at: &time)
        XCTAssertEqual(model.selectedIndex, 0)
        XCTAssertEqual(model.selectedItem?.path, "/photos/img19.jpg", "the oldest first")
        XCTAssertEqual(model.scroll.offset, 0)
        XCTAssertTrue(model.visibleCells.contains { $0.index == 0 })
    }

    func testAnImageTheUserChoseStaysSelectedWhenTheKeysComeIn() {
        let (model, scheduler) = modelByTimeWithNothingRead(20)
        var time = Duration.zero
        model.select(2, time: time, animated: false)
        settle(model, scheduler, at: &time)
        model.learn(stats(20), resort: true, showingStart: true, time: time)
        settle(model, scheduler, at: &time)
        XCTAssertEqual(model.selectedItem?.path, "/photos/img2.jpg")
        XCTAssertEqual(model.selectedIndex, 17)
        XCTAssertTrue(model.visibleCells.contains { $0.index == model.selectedIndex }, "the selection is on screen")
    }

    func testAnOrderChosenAtTheStartKeepsTheSelectedImage() {
        let (model, scheduler) = modelByTimeWithNothingRead(20)
        var time = Duration.zero
        settle(model, scheduler, at: &time)
        model.learn(stats(20), resort: true, time: time)
        XCTAssertEqual(model.selectedItem?.path, "/photos/img0.jpg", "o pressed at the start: the image stays")
        XCTAssertEqual(model.selectedIndex, 19)
    }

    func testANewFileJoinsTheOrderTheStripIsIn() {
        let (model, _) = makeModel(items(5))
        model.sort(by: .size, time: .zero)
        model.apply([.present(path: "/photos/new.jpg", version: FileVersion(size: 3, modifiedNanoseconds: 0))])
        XCTAssertEqual(model.items.map(\.displayName), ["img0.jpg", "img1.jpg", "img2.jpg", "new.jpg", "img3.jpg", "img4.jpg"],
                       "by size, ties by name")
    }

    func testMarksFollowTheirItemsThroughSortingAndChanges() {
        let (model, _) = makeModel(items(6))
        model.marks.toggle(model.items[1].path)
        model.marks.toggle(model.items[4].path)
        model.sort(by: .mtime, time: .zero)
        XCTAssertEqual(model.items.indices.filter(model.isMarked).map { model.items[$0].path },
                       ["/photos/img4.jpg", "/photos/img1.jpg"])
        model.apply([.removed(path: "/photos/img5.jpg")])
        XCTAssertEqual(model.marks.marked(in: model.items).map(\.path), ["/photos/img4.jpg", "/photos/img1.jpg"])
        XCTAssertEqual(model.markedCount, 2)
        model.apply([.removed(path: "/photos/img1.jpg")])
        XCTAssertEqual(model.markedCount, 1, "a mark of a file not shown does not count")
        model.apply([.present(path: "/photos/img1.jpg", version: FileVersion(size: 2, modifiedNanoseconds: 5000))])
        XCTAssertEqual(model.markedCount, 2, "and counts again when the file comes back")
        model.marks.clear()
        XCTAssertEqual(model.markedCount, 0)
    }

    func testASessionTurnReloadsTheCellWithTheTurnedKey() {
        let (model, scheduler) = makeModel(items(4))
        var time = Duration.zero
        settle(model, scheduler, at: &time)
        func shownRed(_ index: Int) -> UInt8? {
            guard case .image(let pixels)? = model.visibleCells.first(where: { $0.index == index })?.content else { return nil }
            return pixels.pixel(x: 0, y: 0).r
        }
        XCTAssertEqual(shownRed(1), 1)
        model.setSessionOrientation(6, of: "/photos/img1.jpg")
        XCTAssertEqual(model.key(for: 1).sessionOrientation, 6)
        XCTAssertEqual(shownRed(1), 1, "the old picture stays until the turned one comes")
        settle(model, scheduler, at: &time)
        XCTAssertEqual(shownRed(1), 6)
        XCTAssertEqual(shownRed(0), 1, "other items are not touched")
    }
}
