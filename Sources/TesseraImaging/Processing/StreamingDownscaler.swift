import TesseraCore

/// Area-averaging downscaler fed one source row at a time, top to bottom, so a decoder that produces rows
/// (libpng, libjpeg) can shrink an image while decoding it and never hold it whole: memory is the output
/// plus three rows. Same weights and arithmetic as `PixelScaler`, so the result is identical to decoding
/// whole and calling `PixelScaler.scaled`. Downscaling only (each source row then feeds at most two
/// destination rows).
package final class StreamingDownscaler {
    package let sourceSize: PixelSize
    package let outputSize: PixelSize
    private let xs: AxisWeights
    private let ys: AxisWeights
    private var output: [UInt8]
    private var filtered: [Float]
    /// Accumulators for the destination row being finished and the next one.
    private var current: [Float]
    private var next: [Float]
    private var currentRow = 0
    private var sourceRow = 0

    package init(from source: PixelSize, to size: PixelSize) {
        precondition(size.width <= source.width && size.height <= source.height, "StreamingDownscaler only shrinks")
        sourceSize = source
        outputSize = PixelSize(width: max(1, size.width), height: max(1, size.height))
        xs = AxisWeights(source: source.width, destination: outputSize.width)
        ys = AxisWeights(source: source.height, destination: outputSize.height)
        output = [UInt8](repeating: 0, count: outputSize.area * 4)
        filtered = [Float](repeating: 0, count: outputSize.width * 4)
        current = filtered
        next = filtered
    }

    /// How many source rows are still expected.
    package var remainingRows: Int { sourceSize.height - sourceRow }

    /// Adds the next source row: `sourceSize.width` BGRA pixels starting at `row`.
    package func consume(row: UnsafeBufferPointer<UInt8>) {
        precondition(sourceRow < sourceSize.height, "more rows than the source has")
        let sy = sourceRow
        sourceRow += 1
        if outputSize == sourceSize {
            // Nothing to scale: copy, as PixelScaler returns an unscaled buffer untouched.
            let rowBytes = sourceSize.width * 4
            output.withUnsafeMutableBufferPointer { out in
                for i in 0..<rowBytes { out[sy * rowBytes + i] = row[i] }
            }
            return
        }
        xs.withPointers { xStart, xCount, xWeight in
            filtered.withUnsafeMutableBufferPointer { out in
                PixelScaler.filterRow(row, offset: 0, xStart: xStart, xCount: xCount, xWeight: xWeight,
                                      stride: xs.stride, count: xs.destination, into: out)
            }
        }
        ys.withPointers { yStart, yCount, yWeight in
            // This row feeds the current destination row and possibly the next (a shared boundary).
            for dy in currentRow..<min(currentRow + 2, ys.destination) {
                let first = Int(yStart[dy]), n = Int(yCount[dy])
                guard sy >= first, sy < first + n else { continue }
                let w = yWeight[dy * ys.stride + (sy - first)]
                if dy == currentRow { accumulate(into: &current, weight: w) } else { accumulate(into: &next, weight: w) }
            }
            // Finish every destination row whose last source row this was.
            while currentRow < ys.destination, sy >= Int(yStart[currentRow]) + Int(yCount[currentRow]) - 1 {
                finishCurrentRow()
            }
        }
    }

    /// The finished image; call after every source row went in.
    package func result() -> PixelBuffer {
        precondition(sourceRow == sourceSize.height, "\(remainingRows) source rows missing")
        return PixelBuffer(width: outputSize.width, height: outputSize.height, bytes: output)
    }

    private func accumulate(into acc: inout [Float], weight w: Float) {
        acc.withUnsafeMutableBufferPointer { a in
            filtered.withUnsafeBufferPointer { row in
                for i in 0..<a.count { a[i] += w * row[i] }
            }
        }
    }

    private func finishCurrentRow() {
        let rowFloats = outputSize.width * 4
        output.withUnsafeMutableBufferPointer { out in
            current.withUnsafeBufferPointer { acc in
                PixelScaler.writeUnpremultiplied(acc, into: out, at: currentRow * rowFloats)
            }
        }
        swap(&current, &next)
        for i in 0..<next.count { next[i] = 0 }
        currentRow += 1
    }
}
