import CTesseraSandbox
import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// A whole-slide image's own decode helper, from the viewer's side (the helper's side is
/// `SlideHelperService`): started with the pool's configuration for one slide, which it opens by path under
/// its lock-down. Its requests carry no descriptor. It answers one request at a time, so the view's tile
/// workers take turns; a helper that fails is stopped, that request fails with why, and the next request
/// starts another.
final class SlideHelper: Sendable {
    let path: String
    let pool: DecodeHelperPool
    private let acceptGenericTIFF: Bool
    /// The running helper, held by one request at a time; nil before the first and after a failure.
    private let running = Mutex<DecodeHelperProcess?>(nil)

    init(path: String, pool: DecodeHelperPool, acceptGenericTIFF: Bool) {
        self.path = path
        self.pool = pool
        self.acceptGenericTIFF = acceptGenericTIFF
    }

    deinit { running.withLock { $0?.terminate() } }

    /// The slide's format and levels; nil when OpenSlide does not recognise the file. A slide OpenSlide
    /// recognises but cannot open is refused with its words (`.decodeFailed`).
    func open() throws(ImageLoadError.Reason) -> SlideFacts? {
        var request = tessera_decode_request()
        request.magic = DecodeHelperWire.requestMagic
        request.kind = ImageFacts.Kind.slide.rawValue
        let outcome = withHelper { helper -> Result<SlideFacts?, ImageLoadError.Reason> in
            switch helper.facts(request, tail: [], descriptor: -1, timeLimit: pool.configuration.timeLimit) {
            case .answer(.slide(let facts)) where facts?.isPlausible ?? true: .success(facts)
            case .answer: .failure(.helperFailed(.unavailable("a wrong answer")))
            case .refused(let reason): .failure(reason)
            case .failed(let failure): .failure(.helperFailed(failure))
            }
        }
        return try outcome.get()
    }

    /// The region `width` x `height` of OpenSlide's level `level` at (`x`, `y`) in the full image's
    /// pixels, reduced to `size`, as `SlideReader.read` reads it; OpenSlide's refusal is `.decodeFailed`.
    func region(x: Int, y: Int, level: Int, width: Int, height: Int,
                reducedTo size: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer {
        var request = tessera_decode_request()
        request.magic = DecodeHelperWire.requestMagic
        request.kind = UInt8(TESSERA_REQUEST_SLIDE_REGION)
        request.region_x = Int32(clamping: x)
        request.region_y = Int32(clamping: y)
        request.region_width = Int32(clamping: width)
        request.region_height = Int32(clamping: height)
        request.directory = UInt64(max(0, level))
        request.box_width = Int32(clamping: size.width)
        request.box_height = Int32(clamping: size.height)
        let outcome = withHelper { helper -> Result<PixelBuffer, ImageLoadError.Reason> in
            switch helper.decode(request, tail: [], descriptor: -1, timeLimit: pool.configuration.timeLimit) {
            case .answer(let pixels) where pixels.size == size: .success(pixels)
            case .answer(let pixels): .failure(.helperFailed(.unavailable("the helper's tile is \(pixels.size), not \(size)")))
            case .refused(let reason): .failure(reason)
            case .failed(let failure): .failure(.helperFailed(failure))
            }
        }
        return try outcome.get()
    }

    /// Runs `body` with the running helper (started first if none runs) while no other request can; a
    /// helper whose request failed (`.helperFailed`) is stopped there, so the next request starts another.
    private func withHelper<Value: Sendable>(
        _ body: (DecodeHelperProcess) -> Result<Value, ImageLoadError.Reason>
    ) -> Result<Value, ImageLoadError.Reason> {
        running.withLock { running -> Result<Value, ImageLoadError.Reason> in
            let helper: DecodeHelperProcess
            if let current = running {
                helper = current
            } else {
                do throws(DecodeHelperFailure) {
                    helper = try pool.start(extraArguments: ["--slide", path] + (acceptGenericTIFF ? ["--accept-generic-tiff"] : []))
                } catch {
                    return .failure(.helperFailed(error))
                }
                running = helper
            }
            let outcome = body(helper)
            if case .failure(.helperFailed) = outcome {
                helper.terminate()
                running = nil
            }
            return outcome
        }
    }
}
