import CTesseraSandbox
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// The messages of a frames exchange (an animation's frames read in a decode helper) and of a probe: its
/// requests and the replies that carry a frame's facts. The messages are `DecodeHelperWire`'s fixed
/// structs; `kind` tells them from a decode, a refusal is a decode's refusal.
enum DecodeHelperFramesWire {
    /// The bytes of one frame slot of `width` x `height` pixels, nil when they overflow or are none.
    static func slotBytes(width: Int, height: Int) -> Int? {
        guard width > 0, height > 0 else { return nil }
        let (row, overflow) = width.multipliedReportingOverflow(by: 4)
        let (bytes, overflow2) = row.multipliedReportingOverflow(by: height)
        return overflow || overflow2 ? nil : bytes
    }

    // MARK: - Requests

    /// Opens the animation attached; `pixelLimit` bounds one frame, `byteLimit` the file; with
    /// `animationsOnly` a still is answered as one and not opened.
    static func opening(pixelLimit: Int, byteLimit: Int, animationsOnly: Bool,
                        name: String) -> (tessera_decode_request, tail: [UInt8]) {
        var request = request(kind: TESSERA_REQUEST_FRAMES_OPEN)
        request.pixel_limit = Int64(pixelLimit)
        request.byte_limit = Int64(byteLimit)
        request.animations_only = animationsOnly ? 1 : 0
        let nameBytes = Array(name.utf8)
        request.name_length = UInt32(nameBytes.count)
        return (request, nameBytes)
    }

    /// The next frame into slot `slot` of the frames memfd.
    static func next(slot: Int) -> tessera_decode_request {
        var request = request(kind: TESSERA_REQUEST_FRAMES_NEXT)
        request.buffer_half = Int32(slot)
        return request
    }

    static var rewind: tessera_decode_request { request(kind: TESSERA_REQUEST_FRAMES_REWIND) }
    static var end: tessera_decode_request { request(kind: TESSERA_REQUEST_FRAMES_END) }

    /// Whether the attached file, of up to `byteLimit` bytes, is an animation.
    static func probe(byteLimit: Int, name: String) -> (tessera_decode_request, tail: [UInt8]) {
        var request = request(kind: TESSERA_REQUEST_FRAMES_PROBE)
        request.byte_limit = Int64(byteLimit)
        let nameBytes = Array(name.utf8)
        request.name_length = UInt32(nameBytes.count)
        return (request, nameBytes)
    }

    private static func request(kind: Int32) -> tessera_decode_request {
        var request = tessera_decode_request()
        request.magic = DecodeHelperWire.requestMagic
        request.kind = UInt8(kind)
        return request
    }

    // MARK: - Replies

    /// A frame of `width` x `height` is in its slot: the plays the reader knows of and the frame's delay.
    static func frame(width: Int, height: Int, plays: Int, delay: Duration) -> tessera_decode_reply {
        var reply = DecodeHelperWire.reply(status: 0, text: "")
        reply.width = Int32(width)
        reply.height = Int32(height)
        let (seconds, attoseconds) = delay.components
        reply.numbers = (Int64(plays), seconds, attoseconds)
        return reply
    }

    /// The opening's reply: the first frame is in slot 0, `profileLength` bytes of the frames' profile
    /// follow the two slots.
    static func opening(first pixels: PixelBuffer, plays: Int, delay: Duration, profileLength: Int) -> tessera_decode_reply {
        var reply = frame(width: pixels.width, height: pixels.height, plays: plays, delay: delay)
        reply.source_width = -1
        reply.source_height = -1
        reply.known_opaque = -1
        reply.profile_length = UInt32(profileLength)
        if let points = pixels.colourCodePoints {
            reply.has_code_points = 1
            reply.primaries = points.primaries
            reply.transfer = points.transfer
            reply.matrix = points.matrix
            reply.full_range = points.fullRange ? 1 : 0
        }
        return reply
    }

    /// No frame: after the last one, or (to an opening for animations only) the file is a still.
    static var noFrame: tessera_decode_reply { DecodeHelperWire.reply(status: 0, text: "") }

    /// Done: a rewind or the end.
    static var done: tessera_decode_reply { DecodeHelperWire.reply(status: 0, text: "") }

    /// A probe's answer.
    static func probed(isAnimated: Bool) -> tessera_decode_reply {
        var reply = DecodeHelperWire.reply(status: 0, text: "")
        reply.numbers = (isAnimated ? 1 : 0, 0, 0)
        return reply
    }

    /// Whether a reply carries a frame: a frame's reply has its size.
    static func hasFrame(_ reply: tessera_decode_reply) -> Bool { reply.width > 0 && reply.height > 0 }

    static func plays(of reply: tessera_decode_reply) -> Int { Int(clamping: max(0, reply.numbers.0)) }

    /// The delay, exact (a duration's seconds and attoseconds, as the reader gave it).
    static func delay(of reply: tessera_decode_reply) -> Duration {
        Duration(secondsComponent: max(0, reply.numbers.1),
                 attosecondsComponent: min(max(0, reply.numbers.2), 999_999_999_999_999_999))
    }
}
