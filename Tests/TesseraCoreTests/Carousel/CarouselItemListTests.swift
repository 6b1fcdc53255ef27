import XCTest
@testable import TesseraCore

/// The strip's item list on its own: watcher changes, the index by path, and keys that change meaning.
final class CarouselItemListTests: XCTestCase {
    private func version(_ n: Int64) -> FileVersion { FileVersion(size: n, modifiedNanoseconds: n) }

    private func list(_ names: [String]) -> CarouselItemList {
        CarouselItemList(names.map { CarouselItem(path: "/p/\($0)", version: version(1)) },
                         cellPixelSize: PixelSize(width: 40, height: 30))
    }

    func testChangesKeepNaturalOrderAndTheLastWordCounts() {
        let items = list(["img1.jpg", "img3.jpg", "img10.jpg"])
        let update = items.apply([.present(path: "/p/img2.jpg", version: version(1)),
                                  .removed(path: "/p/img3.jpg"),
                                  .present(path: "/p/img4.jpg", version: version(1)),
                                  .removed(path: "/p/img4.jpg"),
                                  .present(path: "/p/img10.jpg", version: version(2))])
        XCTAssertEqual(items.items.map(\.path), ["/p/img1.jpg", "/p/img2.jpg", "/p/img10.jpg"])
        XCTAssertEqual(update.removed, ["/p/img3.jpg"])
        XCTAssertEqual(update.changedContent, ["/p/img10.jpg"])
        XCTAssertEqual(update.previousItems?.map(\.path), ["/p/img1.jpg", "/p/img3.jpg", "/p/img10.jpg"])
        XCTAssertEqual(items.index(of: "/p/img10.jpg"), 2)
        XCTAssertNil(items.index(of: "/p/img3.jpg"))
        XCTAssertEqual(items[2].version, version(2))
    }

    func testAContentChangeAloneMovesNoItem() {
        let items = list(["a.jpg", "b.jpg"])
        let update = items.apply([.present(path: "/p/b.jpg", version: version(5))])
        XCTAssertNil(update.previousItems, "indices still hold")
        XCTAssertEqual(update.changedContent, ["/p/b.jpg"])
        XCTAssertTrue(items.apply([.present(path: "/p/b.jpg", version: version(5))]).changedContent.isEmpty,
                      "the same version again is no change")
    }

    func testKeysFollowTheVersionAndTheCellSize() {
        let items = list(["a.jpg"])
        let before = items.key(for: 0)
        var generation = items.generation
        XCTAssertEqual(before, items.key(for: 0))
        XCTAssertEqual(before.size, PixelSize(width: 40, height: 30))
        XCTAssertEqual(items.key(for: 0, variant: .preview).size, PixelSize(width: 10, height: 8))

        items.setVersion(version(2), at: 0)
        XCTAssertNotEqual(items.generation, generation)
        XCTAssertEqual(items.key(for: 0).version, version(2))

        generation = items.generation
        items.cellPixelSize = PixelSize(width: 40, height: 30)
        XCTAssertEqual(items.generation, generation, "the same size: the keys still hold")
        items.cellPixelSize = PixelSize(width: 80, height: 60)
        XCTAssertNotEqual(items.generation, generation)
        XCTAssertEqual(items.key(for: 0).size, PixelSize(width: 80, height: 60))
    }
}
