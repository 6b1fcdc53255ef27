import CJXL
import Foundation
import TesseraCore

/// An animated JPEG XL's frames through libjxl, which composites them onto the canvas itself (its
/// default); each frame's duration is in the animation's ticks, turned into time here.
final class JXLAnimationReader: AnimationReading {
    private let bytes: OwnedBytes
    private let session: JXLDecodeSession
    let canvasSize: PixelSize
    let plays: Int
    /// Seconds per tick, as a fraction.
    private let tickNumerator: UInt64, tickDenominator: UInt64

    init(_ data: Data) throws(ImageLoadError.Reason) {
        bytes = OwnedBytes(data)
        session = try JXLDecodeSession(bytes.bytes, events: JXL_DEC_COLOR_ENCODING, JXL_DEC_FRAME, JXL_DEC_FULL_IMAGE)
        try session.readBasicInfo()
        canvasSize = session.uprightSize
        let animation = session.info.animation
        plays = Int(animation.num_loops)
        // Ticks per second is tps_numerator / tps_denominator.
        tickNumerator = UInt64(max(animation.tps_denominator, 1))
        tickDenominator = UInt64(max(animation.tps_numerator, 1))
    }

    func nextFrame() throws(ImageLoadError.Reason) -> (pixels: PixelBuffer, delay: Duration)? {
        let frame: (pixels: PixelBuffer, ticks: UInt32)?
        do {
            frame = try session.decodeNextFrame()
        } catch let reason as ImageLoadError.Reason {
            throw reason
        } catch {
            throw .decodeFailed(String(describing: error))
        }
        guard let frame else { return nil }
        let milliseconds = UInt64(frame.ticks) * 1000 * tickNumerator / tickDenominator
        return (frame.pixels, .milliseconds(Int(milliseconds)))
    }

    /// Whether the header says the file is an animation.
    static func isAnimated(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard let session = try? JXLDecodeSession(raw), (try? session.readBasicInfo()) != nil else { return false }
            return session.info.have_animation != 0
        }
    }
}
