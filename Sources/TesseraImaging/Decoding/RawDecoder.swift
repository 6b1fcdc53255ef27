import Foundation
import TesseraCore

/// Camera raw files (DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2, ...) through libraw, upright.
///
/// For a target (a cell, a thumbnail), the preview the camera embedded is shown when it is at least the
/// target size: a JPEG preview is decoded by TurboJPEG, shrinking by DCT scaling, with none of the seconds
/// of demosaicing a full development costs. Otherwise, and for the single view (no target), the sensor
/// data is developed: at half size (no demosaicing) when that still covers the target, else in full.
/// Developed pixels are sRGB; previews are taken to be sRGB too, as cameras write them.
package struct RawDecoder: ImageDecoding {
    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .raw }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw -> PixelBuffer in
            let file = try RawFile(raw)
            let full = file.uprightSize
            guard let targetSize else { return try file.develop(halfSize: false) }
            let wanted = full.aspectFit(in: targetSize)
            if let preview = try Self.preview(of: file, covering: wanted) { return preview }
            let half = PixelSize(width: full.width / 2, height: full.height / 2)
            return try file.develop(halfSize: half.width >= wanted.width && half.height >= wanted.height)
        }
    }

    /// The embedded preview, upright, when it is at least `wanted` in both dimensions; a JPEG one decoded
    /// at the smallest DCT scale that still covers it.
    private static func preview(of file: RawFile, covering wanted: PixelSize) throws -> PixelBuffer? {
        let orientation = file.orientation
        let stored: PixelBuffer
        switch file.preview() {
        case .jpeg(let jpeg)?:
            guard let header = ImageHeader.read(jpeg), header.format == .jpeg,
                  Self.covers(orientation.orientedSize(header.size), wanted) else { return nil }
            stored = try TurboJPEGDecoder().decode(jpeg, format: .jpeg, targetSize: orientation.orientedSize(wanted))
        case .rgb(let width, let height, let bytes)?:
            guard Self.covers(orientation.orientedSize(PixelSize(width: width, height: height)), wanted) else { return nil }
            stored = bytes.withUnsafeBufferPointer {
                PixelBuffer(width: width, height: height,
                            bytes: PixelConversion.bgra(fromRGB: $0.baseAddress!, stride: width * 3, width: width, height: height))
            }
        case nil:
            return nil
        }
        return orientation.apply(to: stored)
    }

    private static func covers(_ size: PixelSize, _ wanted: PixelSize) -> Bool {
        size.width >= wanted.width && size.height >= wanted.height
    }
}
