import Foundation
import Synchronization
import TesseraCore
import TesseraImaging

/// A decoder that records every call, then either forwards to a real decoder, fails the way it's told,
/// or (with neither) returns a 1x1 image. Tests that must *not* reach a decoder assert `calls` is empty.
final class RecordingDecoder: ImageDecoding {
    struct Call: Equatable, Sendable {
        var format: ImageFormat
        var targetSize: PixelSize?
        var resultSize: PixelSize?
    }

    enum Behaviour: Sendable {
        case forward(any ImageDecoding)
        case fail(any Error & Sendable)
        case solid(PixelSize)
    }

    private let formats: Set<ImageFormat>
    private let behaviour: Behaviour
    private let log = Mutex<[Call]>([])

    init(formats: Set<ImageFormat> = Set(ImageFormat.allCases), _ behaviour: Behaviour = .solid(PixelSize(width: 1, height: 1))) {
        self.formats = formats
        self.behaviour = behaviour
    }

    var calls: [Call] { log.withLock { $0 } }

    func canDecode(_ format: ImageFormat) -> Bool { formats.contains(format) }

    func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        var call = Call(format: format, targetSize: targetSize)
        defer { log.withLock { $0.append(call) } }
        switch behaviour {
        case .forward(let inner):
            let result = try inner.decode(data, format: format, targetSize: targetSize)
            call.resultSize = result.size
            return result
        case .fail(let error):
            throw error
        case .solid(let size):
            call.resultSize = size
            return PixelBuffer(width: size.width, height: size.height, filledWith: RGBA(r: 9, g: 9, b: 9))
        }
    }
}

/// An error that is not an `ImageLoadError.Reason`, to check the loader's mapping.
struct SomeDecoderError: Error, CustomStringConvertible, Sendable {
    var description: String { "codec exploded" }
}
