import CZlib
import Foundation
import TesseraCore

/// An APNG's frames. libpng on Debian has no APNG support, so the chunks are walked here (`acTL`, `fcTL`,
/// `fdAT`) and each frame's data goes to libpng (`PNGDecoder`) as a small PNG of its own: the file's
/// header with the frame's size, the chunks that say how to read pixels (palette, transparency, gamma,
/// colour profile), the frame's data as `IDAT`, an end. libpng then decodes every bit depth and colour
/// type as it does for a still. Composited here by the frame's dispose and blend operations (APNG 1.0):
/// `OVER` blends with straight alpha, `SOURCE` replaces, disposal to background clears to transparent,
/// disposal to previous puts back the area as it was before the frame.
final class APNGReader: AnimationReading {
    /// One frame's control chunk and where its data is.
    private struct FrameControl {
        var area: PixelRegion
        var delay: Duration
        var dispose: UInt8
        var blend: UInt8
        /// Each data chunk's payload (an `IDAT`'s whole, an `fdAT`'s after its sequence number).
        var data: [Range<Int>] = []
    }

    private let bytes: [UInt8]
    let canvasSize: PixelSize
    let plays: Int
    private let header: [UInt8]
    /// The chunks before the image data that a frame's PNG needs, whole (length, type, data, CRC).
    private let ancillary: [UInt8]
    private var frames: [FrameControl]
    private var next = 0
    private var canvas: [UInt8]
    private var pending: (dispose: UInt8, area: PixelRegion, before: [UInt8]?)?
    private var profile: [UInt8]?

    /// The chunks a frame's PNG takes from the file: how its pixels are read and what colours they mean.
    private static let carried: Set<String> = ["PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT"]

    init(_ data: Data) throws(ImageLoadError.Reason) {
        bytes = [UInt8](data)
        guard bytes.count > 33, bytes[12..<16].elementsEqual("IHDR".utf8) else { throw .truncated }
        header = Array(bytes[16..<29])
        canvasSize = PixelSize(width: Int(Self.be32(bytes, 16)), height: Int(Self.be32(bytes, 20)))
        var plays = 0
        var ancillary: [UInt8] = []
        var frames: [FrameControl] = []
        var offset = 8
        var seenData = false
        while offset + 12 <= bytes.count {
            let length = Int(Self.be32(bytes, offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = offset + 8
            guard length <= bytes.count - body - 4 else { break }  // cut short: the frames before it stand
            switch type {
            case "acTL" where length >= 8:
                plays = Int(Self.be32(bytes, body + 4))
            case "fcTL" where length >= 26:
                let area = PixelRegion(x: Int(Self.be32(bytes, body + 12)), y: Int(Self.be32(bytes, body + 16)),
                                       width: Int(Self.be32(bytes, body + 4)), height: Int(Self.be32(bytes, body + 8)))
                guard area.width > 0, area.height > 0, area.maxX <= canvasSize.width, area.maxY <= canvasSize.height else {
                    throw .decodeFailed("APNG frame outside its canvas")
                }
                let numerator = Int(bytes[body + 20]) << 8 | Int(bytes[body + 21])
                var denominator = Int(bytes[body + 22]) << 8 | Int(bytes[body + 23])
                if denominator == 0 { denominator = 100 }
                frames.append(FrameControl(area: area, delay: .milliseconds(numerator * 1000 / denominator),
                                           dispose: bytes[body + 24], blend: bytes[body + 25]))
            case "IDAT":
                seenData = true
                // Image data before any frame control is the default image, not part of the animation.
                if frames.count == 1 { frames[0].data.append(body..<body + length) }
            case "fdAT" where length > 4:
                if !frames.isEmpty { frames[frames.count - 1].data.append(body + 4..<body + length) }
            case "IEND":
                offset = bytes.count
                continue
            default:
                if !seenData && Self.carried.contains(type) { ancillary += bytes[offset..<body + length + 4] }
            }
            offset = body + length + 4
        }
        self.plays = plays
        self.ancillary = ancillary
        self.frames = frames.filter { !$0.data.isEmpty }
        guard !self.frames.isEmpty else { throw .decodeFailed("APNG without frames") }
        canvas = [UInt8](repeating: 0, count: canvasSize.area * 4)
    }

    func nextFrame() throws(ImageLoadError.Reason) -> (pixels: PixelBuffer, delay: Duration)? {
        guard next < frames.count else { return nil }
        let frame = frames[next]
        let pixels: PixelBuffer
        do {
            pixels = try PNGDecoder().decode(framePNG(frame, width: frame.area.width, height: frame.area.height),
                                             format: .png, targetSize: nil)
        } catch let reason as ImageLoadError.Reason {
            throw reason
        } catch {
            throw .decodeFailed(String(describing: error))
        }
        guard pixels.width == frame.area.width, pixels.height == frame.area.height else {
            throw .decodeFailed("APNG frame of the wrong size")
        }
        if next == 0 { profile = pixels.colourProfile }
        let width = canvasSize.width
        if let pending {
            switch pending.dispose {
            case 1: clear(pending.area)
            case 2: if let before = pending.before { canvas = before }
            default: break
            }
        }
        // Disposal to previous on the first frame is to background (APNG 1.0).
        let dispose = next == 0 && frame.dispose == 2 ? 1 : frame.dispose
        let before = dispose == 2 ? canvas : nil
        let area = frame.area
        pixels.bytes.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutableBufferPointer { target in
                for row in 0..<area.height {
                    for column in 0..<area.width {
                        let s = (row * area.width + column) * 4
                        let t = ((area.y + row) * width + area.x + column) * 4
                        if frame.blend == 0 || source[s + 3] == 255 {
                            for c in 0..<4 { target[t + c] = source[s + c] }
                        } else if source[s + 3] > 0 {
                            Self.blendOver(source, s, into: target, t)
                        }
                    }
                }
            }
        }
        pending = (dispose, area, before)
        next += 1
        var composite = PixelBuffer(width: width, height: canvasSize.height, bytes: canvas)
        composite.colourProfile = profile
        return (composite, frame.delay)
    }

    /// Straight-alpha "over": the frame's pixel over the canvas's.
    private static func blendOver(_ source: UnsafeBufferPointer<UInt8>, _ s: Int,
                                  into target: UnsafeMutableBufferPointer<UInt8>, _ t: Int) {
        let sa = Double(source[s + 3]) / 255, da = Double(target[t + 3]) / 255
        let a = sa + da * (1 - sa)
        for c in 0..<3 {
            let value = (Double(source[s + c]) * sa + Double(target[t + c]) * da * (1 - sa)) / a
            target[t + c] = UInt8(min(255, value.rounded()))
        }
        target[t + 3] = UInt8(min(255, (a * 255).rounded()))
    }

    private func clear(_ area: PixelRegion) {
        let width = canvasSize.width
        for y in area.y..<area.maxY {
            let start = (y * width + area.x) * 4
            canvas.replaceSubrange(start..<start + area.width * 4, with: repeatElement(0, count: area.width * 4))
        }
    }

    /// The frame as a PNG of its own: signature, the header at the frame's size, the carried chunks, its
    /// data as one IDAT, the end.
    private func framePNG(_ frame: FrameControl, width: Int, height: Int) -> Data {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = header
        ihdr.replaceSubrange(0..<8, with: Self.be32Bytes(UInt32(width)) + Self.be32Bytes(UInt32(height)))
        png += Self.chunk("IHDR", ihdr)
        png += ancillary
        png += Self.chunk("IDAT", frame.data.flatMap { bytes[$0] })
        png += Self.chunk("IEND", [])
        return Data(png)
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        let crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        return be32Bytes(UInt32(body.count)) + typed + be32Bytes(crc)
    }

    private static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private static func be32Bytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Whether a PNG is an APNG of more than one frame: an `acTL` before its image data saying so.
    static func isAnimated(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(1 << 20))
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(be32(bytes, offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if type == "IDAT" { return false }
            if type == "acTL" && length >= 8 && offset + 16 <= bytes.count { return be32(bytes, offset + 8) > 1 }
            offset += 12 + length
        }
        return false
    }
}
