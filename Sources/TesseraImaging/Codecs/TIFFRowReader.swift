import Foundation
import TesseraCore
import TesseraFiles

/// A TIFF's main image row by row for the tile cutter, through libtiff over the file's descriptor: strips
/// or tiles, any compression, so a giant TIFF is cut in memory that follows its width, as JPEG and PNG are.
///
/// libtiff decodes a strip or a row of tiles whole, and the cutter asks for a few rows at a time, so one
/// block of rows (`Directory.rowsPerBlock`) is decoded into a buffer of its own and handed out from there:
/// each block is decoded once. Rows come as stored (the Orientation tag is ignored, as vips does when it
/// cuts); CMYK is turned into sRGB by the file's profile as it is read, other colour keeps its profile for
/// the cutter's colour stage.
final class TIFFRowReader: ScanlineSource {
    private let reader: TIFFReader
    let width: Int, height: Int
    let isGrayscale = false
    let hasAlpha: Bool
    let colourSpace: ColourSpace
    private let cmyk: CMYKConversion?
    private let blockRows: Int
    private var block: [UInt8] = []
    /// The rows `block` holds, and the next row to hand out.
    private var blockStart = 0, blockEnd = 0, nextRow = 0

    /// Takes over `file`'s descriptor.
    init(file: ImageFile) throws(TileCutError.Reason) {
        do throws(ImageLoadError.Reason) {
            reader = try TIFFReader(TIFFReader.TIFFFile(file))
            let main = try reader.select(.top(0))
            let profile = reader.iccProfile
            let samples = try reader.beginPixels()
            width = main.size.width
            height = main.size.height
            hasAlpha = main.hasExtraSample
            blockRows = max(1, min(main.rowsPerBlock, height))
            cmyk = samples == .cmyk ? CMYKConversion(profile: profile, inverted: false, name: "a CMYK TIFF") : nil
            colourSpace = main.isSeparated ? .sRGB : ColourSpace(profile: profile)
        } catch {
            throw Self.reason(error)
        }
        guard width > 0, height > 0 else { throw .corrupt("the image has no pixels") }
    }

    func readRows(into first: UnsafeMutableRawPointer, stride: Int, count: Int) throws(TileCutError.Reason) {
        guard nextRow + count <= height else { throw .corrupt("read past the last row") }
        let rowBytes = width * 4
        for i in 0..<count {
            if nextRow >= blockEnd { try readBlock() }
            block.withUnsafeBytes { bytes in
                (first + i * stride).copyMemory(from: bytes.baseAddress! + (nextRow - blockStart) * rowBytes, byteCount: rowBytes)
            }
            nextRow += 1
        }
    }

    /// The block of rows starting at `nextRow` (a block boundary), decoded once.
    private func readBlock() throws(TileCutError.Reason) {
        let rows = min(blockRows, height - nextRow)
        if block.count < width * blockRows * 4 { block = [UInt8](repeating: 0, count: width * blockRows * 4) }
        var failure: ImageLoadError.Reason?
        block.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            do throws(ImageLoadError.Reason) {
                try reader.readRows(nextRow, count: rows, into: base)
                cmyk?.apply(base, count: width * rows)
            } catch {
                failure = error
            }
        }
        if let failure { throw Self.reason(failure) }
        blockStart = nextRow
        blockEnd = nextRow + rows
    }

    func finish() throws(TileCutError.Reason) {}

    private static func reason(_ reason: ImageLoadError.Reason) -> TileCutError.Reason {
        switch reason {
        case .truncated: .truncated
        case .empty: .empty
        case .decodeFailed(let why): .corrupt(why)
        default: .corrupt(reason.shortText)
        }
    }
}
