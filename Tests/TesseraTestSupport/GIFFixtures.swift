import CGIF
import Foundation
import TesseraCore

/// GIF files written with giflib's own encoder, for the tests of the decoder, the animation readers and
/// the viewer playing them.
package enum GIFFixtures {
    /// A frame to write: its place on the screen, colour indices row by row, and options.
    package struct Frame {
        package var left = 0, top = 0, width: Int, height: Int
        package var indices: [UInt8]
        package var interlaced = false
        package var transparentIndex: Int32 = NO_TRANSPARENT_COLOR
        /// Centiseconds; with `disposal`, written in a graphic control extension when either is set.
        package var delay: Int? = nil
        package var disposal: Int32? = nil

        package init(left: Int = 0, top: Int = 0, width: Int, height: Int, indices: [UInt8], interlaced: Bool = false,
                    transparentIndex: Int32 = NO_TRANSPARENT_COLOR, delay: Int? = nil, disposal: Int32? = nil) {
            self.left = left; self.top = top; self.width = width; self.height = height
            self.indices = indices; self.interlaced = interlaced; self.transparentIndex = transparentIndex
            self.delay = delay; self.disposal = disposal
        }
    }

    /// A GIF written by giflib: an 8-colour global table (`palette`, filled up with black), a NETSCAPE2.0
    /// loop extension when `repeats` is given, then `frames`.
    package static func gif(screenWidth: Int = 64, screenHeight: Int = 48, palette: [RGBA], repeats: Int? = nil,
                           frames: [Frame]) -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        var error: Int32 = 0
        let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), { gif, bytes, count in
            let sink = Unmanaged<Sink>.fromOpaque(gif!.pointee.UserData).takeUnretainedValue()
            sink.data.append(bytes!, count: Int(count))
            return count
        }, &error)!
        var colours = (palette + Array(repeating: RGBA(r: 0, g: 0, b: 0), count: 8 - palette.count))
            .map { GifColorType(Red: $0.r, Green: $0.g, Blue: $0.b) }
        let map = GifMakeMapObject(8, &colours)
        defer { GifFreeMapObject(map) }
        EGifSetGifVersion(gif, true)
        precondition(EGifPutScreenDesc(gif, Int32(screenWidth), Int32(screenHeight), 3, 0, map) == GIF_OK)
        if let repeats {
            precondition(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK)
            precondition(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)) == GIF_OK)
            precondition(EGifPutExtensionBlock(gif, 3, [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8)]) == GIF_OK)
            precondition(EGifPutExtensionTrailer(gif) == GIF_OK)
        }
        for frame in frames {
            if frame.transparentIndex != NO_TRANSPARENT_COLOR || frame.delay != nil || frame.disposal != nil {
                var control = GraphicsControlBlock(DisposalMode: frame.disposal ?? DISPOSE_DO_NOT, UserInputFlag: false,
                                                   DelayTime: Int32(frame.delay ?? 10),
                                                   TransparentColor: frame.transparentIndex)
                var controlBytes = [GifByteType](repeating: 0, count: 4)
                _ = EGifGCBToExtension(&control, &controlBytes)
                precondition(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, controlBytes) == GIF_OK)
            }
            precondition(EGifPutImageDesc(gif, Int32(frame.left), Int32(frame.top), Int32(frame.width), Int32(frame.height),
                                          frame.interlaced, nil) == GIF_OK)
            // giflib takes the rows in file order: for an interlaced frame, the passes one after another.
            let order = frame.interlaced
                ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: frame.height, by: $0.1) }
                : Array(0..<frame.height)
            for row in order {
                var line = Array(frame.indices[(row * frame.width)..<((row + 1) * frame.width)])
                precondition(EGifPutLine(gif, &line, Int32(frame.width)) == GIF_OK)
            }
        }
        precondition(EGifCloseFile(gif, &error) == GIF_OK)
        return sink.data
    }
}
