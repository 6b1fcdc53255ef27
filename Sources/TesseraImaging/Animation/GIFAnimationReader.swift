import CGIF
import Foundation
import TesseraCore

/// A GIF's frames through giflib (`GIFFile` reads them one by one), composited as browsers do: each frame
/// drawn over the canvas where it is not transparent; before the next frame, a "background" disposal
/// clears the frame's area to transparent (browsers ignore the background colour) and a "previous"
/// disposal puts back what was under it.
final class GIFAnimationReader: AnimationReading {
    private let bytes: OwnedBytes
    private let file: GIFFile
    private var canvas: [UInt8]
    let canvasSize: PixelSize
    /// What the last frame asks done before the next: its disposal, its area, the canvas before it.
    private var pending: (disposal: Int32, area: PixelRegion, before: [UInt8]?)?

    init(_ data: Data) throws(ImageLoadError.Reason) {
        bytes = OwnedBytes(data)
        file = try GIFFile(bytes.bytes)
        canvasSize = file.canvasSize
        canvas = [UInt8](repeating: 0, count: max(canvasSize.area, 0) * 4)
    }

    var plays: Int { file.plays }

    func nextFrame() throws(ImageLoadError.Reason) -> (pixels: PixelBuffer, delay: Duration)? {
        // A later frame cut short ends the animation at the last whole one (the first frame's own damage
        // is the still's, shown with its badge).
        guard let frame = try file.nextFrame(), frame.damage == nil || pending == nil else { return nil }
        // A screen of 0 x 0 takes the first frame's size (as `GIFFile` does): frames are that size.
        if canvas.count != frame.pixels.bytes.count {
            guard pending == nil else { throw .decodeFailed("GIF frames of different sizes on a 0 x 0 screen") }
            canvas = [UInt8](repeating: 0, count: frame.pixels.bytes.count)
        }
        let width = frame.pixels.width
        if let pending {
            switch pending.disposal {
            case DISPOSE_BACKGROUND: clear(pending.area, width: width)
            case DISPOSE_PREVIOUS: if let before = pending.before { canvas = before }
            default: break
            }
        }
        let before = frame.disposal == DISPOSE_PREVIOUS ? canvas : nil
        let area = frame.area
        // A GIF frame's pixels are opaque or transparent (`GIFFile` writes alpha 255 or a zero pixel): each
        // opaque one replaces the canvas's, compared and copied as a whole 4-byte word.
        let opaque = UInt32(0xFF00_0000).littleEndian
        frame.pixels.bytes.withUnsafeBytes { source in
            canvas.withUnsafeMutableBytes { target in
                for y in area.y..<area.maxY {
                    let start = (y * width + area.x) * 4
                    let from = source.baseAddress! + start, to = target.baseAddress! + start
                    for offset in stride(from: 0, to: area.width * 4, by: 4) {
                        let pixel = from.load(fromByteOffset: offset, as: UInt32.self)
                        if pixel & opaque != 0 { to.storeBytes(of: pixel, toByteOffset: offset, as: UInt32.self) }
                    }
                }
            }
        }
        pending = (frame.disposal, area, before)
        return (PixelBuffer(width: width, height: frame.pixels.height, bytes: canvas), frame.delay)
    }

    private func clear(_ area: PixelRegion, width: Int) {
        canvas.withUnsafeMutableBytes { bytes in
            for y in area.y..<area.maxY {
                (bytes.baseAddress! + (y * width + area.x) * 4).initializeMemory(as: UInt8.self, repeating: 0,
                                                                               count: area.width * 4)
            }
        }
    }
}
