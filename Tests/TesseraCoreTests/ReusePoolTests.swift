import XCTest
@testable import TesseraCore

private final class Cell {
    var item = -1
}

final class ReusePoolTests: XCTestCase {
    func testDequeueCreatesWhenEmpty() {
        var made = 0
        let pool = ReusePool<Cell> { made += 1; return Cell() }
        let a = pool.dequeue()
        let b = pool.dequeue()
        XCTAssertFalse(a === b)
        XCTAssertEqual(pool.createdCount, 2)
        XCTAssertEqual(made, 2)
        XCTAssertEqual(pool.freeCount, 0)
    }

    func testEnqueuedCellIsReused() {
        let pool = ReusePool<Cell> { Cell() }
        let a = pool.dequeue()
        a.item = 7
        pool.enqueue(a)
        XCTAssertEqual(pool.freeCount, 1)
        let again = pool.dequeue()
        XCTAssertTrue(again === a)
        XCTAssertEqual(again.item, 7, "the caller reconfigures reused cells")
        XCTAssertEqual(pool.createdCount, 1)
        XCTAssertEqual(pool.freeCount, 0)
    }

    func testScrollingALongStripCreatesOnlyAScreenful() {
        let pool = ReusePool<Cell> { Cell() }
        var onScreen: [Int: Cell] = [:]
        for first in 0..<1000 {
            let visible = first..<(first + 5)
            for (item, cell) in onScreen where !visible.contains(item) {
                pool.enqueue(cell)
                onScreen[item] = nil
            }
            for item in visible where onScreen[item] == nil {
                let cell = pool.dequeue()
                cell.item = item
                onScreen[item] = cell
            }
        }
        XCTAssertLessThanOrEqual(pool.createdCount, 6)
        pool.removeAllFree()
        XCTAssertEqual(pool.freeCount, 0)
    }
}
