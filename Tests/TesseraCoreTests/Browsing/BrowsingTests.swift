import XCTest
@testable import TesseraCore

final class ItemMarksTests: XCTestCase {
    private let items = ["a", "b", "c", "d", "e"].map { CarouselItem(path: "/p/\($0).jpg") }

    func testToggleInvertClearAndTheMarkedInStripOrder() {
        var marks = ItemMarks()
        marks.toggle("/p/d.jpg")
        marks.toggle("/p/b.jpg")
        XCTAssertEqual(marks.marked(in: items).map(\.path), ["/p/b.jpg", "/p/d.jpg"])
        marks.toggle("/p/d.jpg")
        XCTAssertEqual(marks.marked(in: items).map(\.path), ["/p/b.jpg"])
        marks.toggle("/gone.jpg")
        marks.invert(over: items)
        XCTAssertEqual(marks.marked(in: items).map(\.path), ["/p/a.jpg", "/p/c.jpg", "/p/d.jpg", "/p/e.jpg"])
        XCTAssertFalse(marks.contains("/gone.jpg"), "a mark of a file not shown does not survive an invert")
        marks.clear()
        XCTAssertTrue(marks.marked(in: items).isEmpty)
    }

    func testAMarkFollowsItsFileNotItsPlace() {
        var marks = ItemMarks()
        marks.toggle("/p/c.jpg")
        let reordered = Array(items.reversed())
        XCTAssertEqual(marks.marked(in: reordered).map(\.path), ["/p/c.jpg"])
        XCTAssertEqual(reordered.indices.filter { marks.contains(reordered[$0].path) }, [2])
    }

    func testNearestMarkedDoesNotWrapAround() {
        var marks = ItemMarks()
        marks.toggle("/p/b.jpg")
        marks.toggle("/p/d.jpg")
        XCTAssertEqual(marks.nearestMarked(from: 0, forward: true, in: items), 1)
        XCTAssertEqual(marks.nearestMarked(from: 1, forward: true, in: items), 3)
        XCTAssertNil(marks.nearestMarked(from: 3, forward: true, in: items), "nsxiv's N stops at the last mark")
        XCTAssertEqual(marks.nearestMarked(from: 4, forward: false, in: items), 3)
        XCTAssertEqual(marks.nearestMarked(from: 3, forward: false, in: items), 1)
        XCTAssertNil(marks.nearestMarked(from: 1, forward: false, in: items))
        XCTAssertNil(ItemMarks().nearestMarked(from: 0, forward: true, in: items))
    }
}

final class StripOrderTests: XCTestCase {
    private func item(_ name: String, size: Int64, modified: Int64) -> CarouselItem {
        CarouselItem(path: "/p/\(name)", version: FileVersion(size: size, modifiedNanoseconds: modified))
    }

    /// As a folder lists them (name order), then sizes and times against the names.
    private let listed = [
        CarouselItem(path: "/p/img1.jpg", version: FileVersion(size: 5, modifiedNanoseconds: 2)),
        CarouselItem(path: "/p/img2.jpg", version: FileVersion(size: 9, modifiedNanoseconds: 3)),
        CarouselItem(path: "/p/img10.jpg", version: FileVersion(size: 5, modifiedNanoseconds: 1)),
        CarouselItem(path: "https://host/a.jpg"),
    ]

    private func arranged(_ items: [CarouselItem], _ order: StripOrder, reversed: Bool = false,
                          readings: [ItemFacts.Reading] = [], seed: UInt64 = 1) -> [String] {
        let list = CarouselItemList(table: ItemTable(items), versions: Dictionary(uniqueKeysWithValues: items.enumerated()
            .compactMap { id, item in item.version.map { (UInt32(id), $0) } }), cellPixelSize: PixelSize(width: 4, height: 3),
            shuffleSeed: seed)
        list.learn(readings)
        _ = list.sort(by: order, reversed: reversed)
        return list.items.map(\.displayName)
    }

    func testEachOrderAndItsTies() {
        XCTAssertEqual(arranged(listed, .name), ["img1.jpg", "img2.jpg", "img10.jpg", "a.jpg"], "as listed")
        XCTAssertEqual(arranged(listed, .mtime), ["img10.jpg", "img1.jpg", "img2.jpg", "a.jpg"],
                       "oldest first; an unknown file last")
        XCTAssertEqual(arranged(listed, .size), ["img1.jpg", "img10.jpg", "img2.jpg", "a.jpg"], "equal sizes by name")
    }

    func testReversedEachOrderComesTheOtherWayAndUnknownFilesStayLast() {
        XCTAssertEqual(arranged(listed, .name, reversed: true), ["a.jpg", "img10.jpg", "img2.jpg", "img1.jpg"])
        XCTAssertEqual(arranged(listed, .mtime, reversed: true), ["img2.jpg", "img1.jpg", "img10.jpg", "a.jpg"], "newest first")
        XCTAssertEqual(arranged(listed, .size, reversed: true), ["img2.jpg", "img10.jpg", "img1.jpg", "a.jpg"],
                       "largest first, equal sizes by name backwards")
    }

    func testTakenIsTheEXIFDateElseTheModificationTime() {
        // img2 was taken first although modified last; img1 has no date: its modification time counts.
        let readings = [ItemFacts.Reading(id: 1, version: listed[1].version, taken: 0, takenRead: true),
                        ItemFacts.Reading(id: 0, version: listed[0].version, taken: nil, takenRead: true)]
        XCTAssertEqual(arranged(listed, .taken, readings: readings), ["img2.jpg", "img10.jpg", "img1.jpg", "a.jpg"],
                       "img10's date is not read yet: its modification time stands in; the URL is not known at all")
        XCTAssertEqual(arranged(listed, .taken, reversed: true, readings: readings), ["img1.jpg", "img10.jpg", "img2.jpg", "a.jpg"])
    }

    func testRandomIsAShuffleFixedByItsSeed() {
        let items = (0..<40).map { item("img\($0).jpg", size: 1, modified: 1) }
        let shuffled = arranged(items, .random, seed: 42)
        XCTAssertEqual(Set(shuffled), Set(items.map(\.displayName)), "every item once")
        XCTAssertNotEqual(shuffled, items.map(\.displayName))
        XCTAssertEqual(arranged(items, .random, seed: 42), shuffled, "the same seed, the same order")
        XCTAssertNotEqual(arranged(items, .random, seed: 43), shuffled)
        XCTAssertEqual(arranged(items, .random, reversed: true, seed: 42), shuffled.reversed())
    }

    func testCyclingVisitsEveryOrderOnceAndComesBack() {
        var order = StripOrder.name
        var seen: [StripOrder] = []
        for _ in StripOrder.allCases {
            seen.append(order)
            order = order.next
        }
        XCTAssertEqual(Set(seen).count, StripOrder.allCases.count)
        XCTAssertEqual(order, .name)
        XCTAssertEqual(StripOrder.allCases.map(\.rawValue), ["name", "mtime", "taken", "size", "random", "rating"], "--sort's words")
    }

    func testNewItemsGoWhereSortingThemAllWould() {
        let old = [item("a", size: 1, modified: 6), item("b", size: 5, modified: 4), item("c", size: 9, modified: 2)]
        let new = [item("z", size: 10, modified: 1), item("y", size: 0, modified: 5), item("x", size: 5, modified: 4)]
        // The folder as it would be listed now, all six in natural order.
        let everything = (old + new).sorted { NaturalOrder.areInIncreasingOrder($0.path, $1.path) }
        for order in StripOrder.allCases {
            for reversed in [false, true] {
                let list = CarouselItemList(old, cellPixelSize: PixelSize(width: 4, height: 3))
                _ = list.sort(by: order, reversed: reversed)
                _ = list.apply(new.map { .present(path: $0.path, version: $0.version!) })
                let all = CarouselItemList(everything, cellPixelSize: PixelSize(width: 4, height: 3))
                _ = all.sort(by: order, reversed: reversed)
                XCTAssertEqual(list.items.map(\.displayName), all.items.map(\.displayName), "\(order), reversed: \(reversed)")
            }
        }
    }
}

final class SlideshowTests: XCTestCase {
    func testItAdvancesAfterTheDelayOnlyOnceTheNextImageIsReady() {
        var show = Slideshow(delay: .seconds(5))
        XCTAssertFalse(show.shouldAdvance(now: .seconds(100), nextIsReady: true), "stopped")
        show.start(now: .seconds(10))
        XCTAssertFalse(show.shouldAdvance(now: .milliseconds(14_999), nextIsReady: true))
        XCTAssertFalse(show.shouldAdvance(now: .seconds(15), nextIsReady: false), "waits for the decode")
        XCTAssertTrue(show.shouldAdvance(now: .seconds(15), nextIsReady: true))
        XCTAssertTrue(show.shouldAdvance(now: .seconds(30), nextIsReady: true), "late decodes show at once")
        show.imageShown(now: .seconds(16))
        XCTAssertEqual(show.dueAt, .seconds(21), "a key's step starts the delay again")
        show.stop()
        XCTAssertNil(show.dueAt)
        XCTAssertFalse(show.shouldAdvance(now: .seconds(30), nextIsReady: true))
    }
}

final class StatusLineTests: XCTestCase {
    func testAMessageShowsForItsLifetimeAndTheNextReplacesIt() {
        var line = StatusLine(lifetime: .seconds(4), errorLifetime: .seconds(8))
        XCTAssertNil(line.current(now: .zero))
        line.show("moved 2 images to the trash", now: .seconds(1))
        XCTAssertEqual(line.current(now: .seconds(4))?.text, "moved 2 images to the trash")
        XCTAssertNil(line.current(now: .seconds(5)))
        line.show("a.jpg: the file is read-only", isError: true, now: .seconds(10))
        XCTAssertEqual(line.current(now: .seconds(17))?.isError, true, "errors stay longer")
        line.show("restored 2 images", now: .seconds(17))
        XCTAssertEqual(line.current(now: .seconds(17))?.text, "restored 2 images")
        XCTAssertEqual(line.expiresAt, .seconds(21))
    }

    func testTheOverlayLevelsCycleFromTheNameBar() {
        XCTAssertEqual(OverlayLevel.name.next, .information)
        XCTAssertEqual(OverlayLevel.information.next, .off)
        XCTAssertEqual(OverlayLevel.off.next, .name)
    }
}
