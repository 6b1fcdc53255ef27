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
        guard let frame = try file.nextFrame() else { return nil }
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
        frame.pixels.bytes.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutableBufferPointer { target in
                for y in area.y..<area.maxY {
                    var i = (y * width + area.x) * 4
                    for _ in area.x..<area.maxX {
                        if source[i + 3] != 0 {
                            target[i] = source[i]; target[i + 1] = source[i + 1]
                            target[i + 2] = source[i + 2]; target[i + 3] = source[i + 3]
                        }
                        i += 4
                    }
                }
            }
        }
        pending = (frame.disposal, area, before)
        return (PixelBuffer(width: width, height: frame.pixels.height, bytes: canvas), frame.delay)
    }

    private func clear(_ area: PixelRegion, width: Int) {
        for y in area.y..<area.maxY {
            let start = (y * width + area.x) * 4
            canvas.replaceSubrange(start..<start + area.width * 4, with: repeatElement(0, count: area.width * 4))
        }
    }
}
