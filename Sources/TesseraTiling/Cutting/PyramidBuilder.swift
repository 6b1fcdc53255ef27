import Foundation
import TesseraCore

/// Memory that holds one band of a level (the rows one row of tiles needs) while tile encoders read it.
///
/// The builder writes a buffer only on its own thread and only after `isInUse` has dropped to zero; the
/// encoders that read it meanwhile release it one by one. `@unchecked Sendable`: the pixels are guarded by
/// that protocol, the reader count by `condition`.
final class BandBuffer: @unchecked Sendable {
    let pixels: UnsafeMutableRawPointer
    let byteCount: Int
    private let condition = NSCondition()
    private var readers = 0

    init(byteCount: Int) {
        self.byteCount = byteCount
        pixels = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 16), alignment: 16)
    }

    deinit { pixels.deallocate() }

    /// `count` more readers will release this buffer.
    func retain(_ count: Int) {
        condition.lock()
        readers += count
        condition.unlock()
    }

    func release() {
        condition.lock()
        readers -= 1
        if readers == 0 { condition.broadcast() }
        condition.unlock()
    }

    var isInUse: Bool {
        condition.lock()
        defer { condition.unlock() }
        return readers > 0
    }

    func waitUntilFree() {
        condition.lock()
        while readers > 0 { condition.wait() }
        condition.unlock()
    }
}

/// A complete band of one level: rows `firstRow ..< firstRow + rowCount` of the level, `width` pixels
/// each, in `buffer` from its start, `rowBytes` apart. Every tile of row `tileRow` lies inside it.
struct PyramidBand {
    let level: Int
    let tileRow: Int
    let firstRow: Int
    let rowCount: Int
    let width: Int
    let buffer: BandBuffer

    var rowBytes: Int { width * 4 }

    /// Where `region` (level coordinates, inside the band) starts.
    func pointer(to region: PixelRegion) -> UnsafeMutableRawPointer {
        buffer.pixels + (region.y - firstRow) * rowBytes + region.x * 4
    }
}

/// Who takes the finished bands: the tile encoders.
protocol PyramidBandConsumer: AnyObject {
    /// Takes a complete band and, for every reader it starts, `retain`s the buffer (each reader
    /// `release`s it when done). The builder will not write the buffer again until it is free.
    func consume(_ band: PyramidBand) throws
    /// Returns once `buffer` has no readers (lending the calling thread to pending work meanwhile).
    func waitUntilFree(_ buffer: BandBuffer) throws
}

/// Builds the pyramid strip by strip as full-resolution rows arrive, never holding more than two bands
/// (one row of tiles plus the overlap, twice) per level.
///
/// Rows go into the top level's band; every second row of a level is averaged with the one before it
/// (`BoxReduction`) straight into the next level's band, and so on down to level `lowestLevel`. When a
/// level has all the rows of a row of tiles, the band goes to the consumer (the encoders read it on
/// worker threads) and the level switches to its other buffer, first copying the overlap rows the next
/// row of tiles shares with this one. It waits only if the encoders still read that other buffer, which
/// bounds memory whatever the relative speed of decoding and encoding.
///
/// Geometry (level sizes, tile regions) comes from `DeepZoomGeometry` alone. Single-threaded: call it
/// from one thread.
final class PyramidBuilder {
    let geometry: DeepZoomGeometry
    private let top: LevelBuilder
    private(set) var isComplete = false

    /// - Parameter lowestLevel: the last level built (maxLevel for flat tiles: no reduction at all).
    init(geometry: DeepZoomGeometry, lowestLevel: Int, consumer: PyramidBandConsumer) {
        self.geometry = geometry
        var child: LevelBuilder?
        for level in lowestLevel...geometry.maxLevel {
            child = LevelBuilder(level: level, geometry: geometry, child: child, consumer: consumer)
        }
        top = child!
    }

    /// The bytes of band buffers allocated so far over all levels (the builder's whole pixel memory).
    var allocatedBytes: Int {
        var total = 0
        var level: LevelBuilder? = top
        while let current = level {
            total += current.allocatedBytes
            level = current.child
        }
        return total
    }

    /// Where the next full-resolution rows go: up to `limit` rows, `stride` bytes apart. Fill them, then
    /// call `commitRows` with how many were filled.
    func nextRows(limit: Int) -> (pointer: UnsafeMutableRawPointer, stride: Int, count: Int) {
        precondition(!isComplete, "all rows were already given")
        return (top.nextRowPointer, top.rowBytes, min(limit, top.rowsLeftInBand))
    }

    func commitRows(_ count: Int) throws {
        for _ in 0..<count { try top.commitRow() }
        isComplete = top.isComplete
    }
}

/// One level's bands and its link to the level below.
private final class LevelBuilder {
    let level: Int
    let width: Int, height: Int
    let rowBytes: Int
    let child: LevelBuilder?
    private let geometry: DeepZoomGeometry
    private let tileRows: Int
    private let bandCapacityRows: Int
    private unowned let consumer: PyramidBandConsumer
    private var buffers: [BandBuffer] = []
    private var current = 0
    private var tileRow = 0
    private var bandStart = 0, bandEnd: Int
    private var nextRow = 0
    /// The row committed last, kept for pairing with the next one. It stays valid while the next row is
    /// written even across a band switch: the buffer it lives in is not written again before the band
    /// after that.
    private var previousRow: UnsafeMutableRawPointer?

    init(level: Int, geometry: DeepZoomGeometry, child: LevelBuilder?, consumer: PyramidBandConsumer) {
        self.level = level
        let size = geometry.levelSize(level)
        width = size.width
        height = size.height
        rowBytes = width * 4
        self.child = child
        self.consumer = consumer
        self.geometry = geometry
        tileRows = geometry.rows(level)
        // The tallest row of tiles: an inner one, overlap on both sides.
        bandCapacityRows = min(height, geometry.tileSize + 2 * geometry.overlap)
        bandEnd = Self.rows(of: 0, level: level, geometry: geometry).upperBound
        buffers = [BandBuffer(byteCount: bandCapacityRows * rowBytes)]
    }

    var allocatedBytes: Int { buffers.reduce(0) { $0 + $1.byteCount } }
    var isComplete: Bool { nextRow >= height }
    var rowsLeftInBand: Int { bandEnd - nextRow }
    var nextRowPointer: UnsafeMutableRawPointer { buffers[current].pixels + (nextRow - bandStart) * rowBytes }

    /// The row at `nextRowPointer` is written: feed the level below, and hand the band over when full.
    func commitRow() throws {
        let row = nextRowPointer
        let y = nextRow
        if let child {
            if y & 1 == 1 {
                BoxReduction.halveRows(previousRow!, row, sourceWidth: width, into: child.nextRowPointer)
                try child.commitRow()
            } else if y == height - 1 {
                BoxReduction.halveRows(row, row, sourceWidth: width, into: child.nextRowPointer)
                try child.commitRow()
            }
        }
        previousRow = row
        nextRow += 1
        while nextRow == bandEnd, tileRow < tileRows {
            try finishBand()
        }
    }

    /// Hands the full band to the consumer and moves to the next row of tiles in the other buffer,
    /// carrying over the rows both bands share (the overlap).
    private func finishBand() throws {
        try consumer.consume(PyramidBand(level: level, tileRow: tileRow, firstRow: bandStart,
                                         rowCount: bandEnd - bandStart, width: width, buffer: buffers[current]))
        tileRow += 1
        guard tileRow < tileRows else { return }
        if buffers.count == 1 { buffers.append(BandBuffer(byteCount: bandCapacityRows * rowBytes)) }
        let next = 1 - current
        try consumer.waitUntilFree(buffers[next])
        let rows = Self.rows(of: tileRow, level: level, geometry: geometry)
        let start = rows.lowerBound, end = rows.upperBound
        let carried = bandEnd - start
        if carried > 0 {
            buffers[next].pixels.copyMemory(from: buffers[current].pixels + (start - bandStart) * rowBytes,
                                            byteCount: carried * rowBytes)
        }
        current = next
        bandStart = start
        bandEnd = end
    }

    /// The level's rows that row `tileRow` of tiles needs, overlap included: its tiles' region, from the
    /// one place that computes it.
    private static func rows(of tileRow: Int, level: Int, geometry: DeepZoomGeometry) -> Range<Int> {
        let region = geometry.region(of: TileID(level: level, column: 0, row: tileRow))
        return region.y..<region.maxY
    }
}
