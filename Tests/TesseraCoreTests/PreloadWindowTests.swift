import XCTest
@testable import TesseraCore

final class PreloadWindowTests: XCTestCase {
    private func pairs(_ window: PreloadWindow) -> [[Int]] {
        window.items.map { [$0.index, $0.priority] }
    }

    func testDefaultIsIndexPlusMinusOneCentreFirst() {
        let forward = PreloadWindow(visible: 3..<6, itemCount: 10, direction: 1)
        XCTAssertEqual(pairs(forward), [[4, 0], [5, 0], [3, 0], [6, 1], [2, 1]])
        let backward = PreloadWindow(visible: 3..<6, itemCount: 10, direction: -1)
        XCTAssertEqual(pairs(backward), [[4, 0], [3, 0], [5, 0], [2, 1], [6, 1]])
        let resting = PreloadWindow(visible: 4..<5, itemCount: 10, direction: 0)
        XCTAssertEqual(pairs(resting), [[4, 0], [5, 1], [3, 1]])
    }

    func testClampsAtTheEnds() {
        let start = PreloadWindow(visible: 0..<3, itemCount: 10, direction: -1)
        XCTAssertEqual(pairs(start), [[1, 0], [0, 0], [2, 0], [3, 1]])
        let end = PreloadWindow(visible: 7..<10, itemCount: 10, direction: 1)
        XCTAssertEqual(pairs(end), [[8, 0], [9, 0], [7, 0], [6, 1]])
        let everything = PreloadWindow(visible: 0..<4, itemCount: 4, direction: 1,
                                       policy: PreloadPolicy(ahead: 5, behind: 5))
        XCTAssertEqual(Set(everything.indices), [0, 1, 2, 3])
        XCTAssertTrue(everything.items.allSatisfy { $0.priority == 0 })
        XCTAssertTrue(PreloadWindow(visible: 0..<0, itemCount: 0, direction: 1).items.isEmpty)
        // A visible range reaching past itemCount (stale layout) is clamped.
        let stale = PreloadWindow(visible: 8..<12, itemCount: 10, direction: 1)
        XCTAssertEqual(pairs(stale), [[9, 0], [8, 0], [7, 1]])
    }

    func testAheadFollowsDirection() {
        let policy = PreloadPolicy(ahead: 2, behind: 1)
        let forward = PreloadWindow(visible: 3..<5, itemCount: 10, direction: 1, policy: policy)
        XCTAssertEqual(pairs(forward), [[4, 0], [3, 0], [5, 1], [2, 1], [6, 2]])
        let backward = PreloadWindow(visible: 3..<5, itemCount: 10, direction: -1, policy: policy)
        XCTAssertEqual(pairs(backward), [[3, 0], [4, 0], [2, 1], [5, 1], [1, 2]])
        let resting = PreloadWindow(visible: 3..<5, itemCount: 10, direction: 0, policy: policy)
        XCTAssertEqual(pairs(resting), [[3, 0], [4, 0], [5, 1], [2, 1], [6, 2], [1, 2]])
    }

    func testGridPreloadsWholeColumns() {
        // 2 rows, 11 items: columns [0,1] [2,3] [4,5] [6,7] [8,9] [10]. Visible columns 1-3.
        let window = PreloadWindow(visible: 2..<8, itemCount: 11, rows: 2, direction: 1,
                                   policy: PreloadPolicy(ahead: 2, behind: 1))
        XCTAssertEqual(pairs(window), [[4, 0], [5, 0], [6, 0], [7, 0], [2, 0], [3, 0],
                                       [8, 1], [9, 1], [0, 1], [1, 1], [10, 2]])
        // Works with the layout's visible range directly.
        let layout = StripLayout(itemCount: 11, rows: 2, cellSize: Size(width: 100, height: 80),
                                 viewportSize: Size(width: 400, height: 300))
        let visible = layout.visibleRange(offset: 0)
        let fromLayout = PreloadWindow(visible: visible, itemCount: 11, rows: 2, direction: 1)
        XCTAssertEqual(fromLayout.items.filter { $0.priority == 1 }.map(\.index), [8, 9])
    }

    func testQueries() {
        let window = PreloadWindow(visible: 3..<6, itemCount: 10, direction: 1)
        XCTAssertEqual(window.indices, [4, 5, 3, 6, 2])
        XCTAssertTrue(window.contains(6))
        XCTAssertFalse(window.contains(7))
        XCTAssertEqual(window.priority(of: 2), 1)
        XCTAssertEqual(window.priority(of: 4), 0)
        XCTAssertNil(window.priority(of: 9))
        XCTAssertEqual(PreloadPolicy.default, PreloadPolicy(ahead: 1, behind: 1))
    }
}
