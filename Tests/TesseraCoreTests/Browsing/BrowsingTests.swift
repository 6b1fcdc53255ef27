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

    func testEachOrderAndItsTies() {
        let items = [item("img10.jpg", size: 5, modified: 1), item("img2.jpg", size: 9, modified: 3),
                     item("img1.jpg", size: 5, modified: 2), CarouselItem(path: "https://host/a.jpg")]
        XCTAssertEqual(StripOrder.name.sorted(items).map(\.displayName), ["img1.jpg", "img2.jpg", "img10.jpg", "a.jpg"],
                       "paths in natural order")
        XCTAssertEqual(StripOrder.modified.sorted(items).map(\.displayName), ["img10.jpg", "img1.jpg", "img2.jpg", "a.jpg"],
                       "oldest first; an unknown file last")
        XCTAssertEqual(StripOrder.size.sorted(items).map(\.displayName), ["img1.jpg", "img10.jpg", "img2.jpg", "a.jpg"],
                       "equal sizes by name")
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
    }

    func testMergingPutsNewItemsWhereSortingWould() {
        let items = StripOrder.size.sorted([item("a", size: 1, modified: 0), item("b", size: 5, modified: 0),
                                           item("c", size: 9, modified: 0)])
        let new = [item("z", size: 10, modified: 0), item("y", size: 0, modified: 0), item("x", size: 5, modified: 0)]
        XCTAssertEqual(StripOrder.size.merging(new, into: items), StripOrder.size.sorted(items + new))
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
