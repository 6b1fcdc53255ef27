import CTesseraSandbox
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// The two fixed messages between the viewer and a decode helper (`tessera_decode_request` and
/// `tessera_decode_reply`, laid out in C so both ends agree byte for byte), the loader's refusals as
/// numbers and text, and the answers to questions about a file (`ImageFacts`) as JSON: small values
/// whose decoding in the viewer is Swift's, bounded and checked, like every other byte a helper sends.
enum DecodeHelperWire {
    static let requestMagic: UInt32 = 0x5453_5251  // "TSRQ"
    static let replyMagic: UInt32 = 0x5453_5250    // "TSRP"
    /// The reply of a helper that did not warm up the request's format (`DecodeHelperService.run`).
    static let formatNotLoadedStatus: Int32 = 5

    /// The request for `loader`'s settings; the display profile (if any) and the name follow it.
    static func request(loader: ImageLoader, fitting box: PixelSize?, convertingColour: Bool,
                        name: String) -> (tessera_decode_request, tail: [UInt8]) {
        var request = tessera_decode_request()
        request.magic = requestMagic
        request.box_width = Int32(clamping: box?.width ?? 0)
        request.box_height = Int32(clamping: box?.height ?? 0)
        request.pixel_limit = Int64(loader.pixelLimit)
        request.byte_limit = Int64(loader.byteLimit)
        request.apply_orientation = loader.applyOrientation ? 1 : 0
        request.convert_colour = convertingColour ? 1 : 0
        request.page = UInt32(clamping: loader.page)
        var profile: [UInt8] = []
        switch loader.colour?.destination {
        case nil: request.colour_mode = 0
        case .sRGB?: request.colour_mode = 1
        case .icc(let destination)?:
            request.colour_mode = 2
            profile = destination.bytes
        case .codePoints?:
            request.colour_mode = 1  // no display declares code points; sRGB is what they would fall back to
        }
        let nameBytes = Array(name.utf8)
        request.display_profile_length = UInt32(profile.count)
        request.name_length = UInt32(nameBytes.count)
        return (request, profile + nameBytes)
    }

    /// The colour conversion a request's `colour_mode` names.
    static func colour(mode: UInt8, displayProfile: [UInt8]) -> ColourConversion? {
        switch mode {
        case 0: nil
        case 2: ColourConversion(displayProfile: displayProfile)
        default: .sRGB
        }
    }

    static func box(of request: tessera_decode_request) -> PixelSize? {
        request.box_width > 0 && request.box_height > 0
            ? PixelSize(width: Int(request.box_width), height: Int(request.box_height)) : nil
    }

    /// A question of `kind` about the file named `name` (the name for log lines and the answer).
    static func request(asking kind: ImageFacts.Kind, name: String) -> (tessera_decode_request, tail: [UInt8]) {
        var request = tessera_decode_request()
        request.magic = requestMagic
        request.kind = kind.rawValue
        let nameBytes = Array(name.utf8)
        request.name_length = UInt32(nameBytes.count)
        return (request, nameBytes)
    }

    /// The next request of a rows or frames exchange on `socket`. Those requests carry no descriptor, so
    /// one that arrives anyway is closed. Nil when the socket failed or the bytes are no request, which
    /// ends the exchange.
    static func receiveExchangeRequest(on socket: Int32) -> tessera_decode_request? {
        var next = tessera_decode_request()
        var stray: Int32 = -1
        let received = tessera_receive_with_fd(socket, &next, MemoryLayout<tessera_decode_request>.size, &stray)
        if stray >= 0 { close(stray) }
        guard received > 0, next.magic == requestMagic else { return nil }
        return next
    }

    // MARK: - Replies

    /// The status of a reply that answers a question: the answer's JSON is in the attached memfd.
    static let factsStatus: Int32 = 4
    /// The most bytes an answer may take: far more than any image's facts (EXIF's longest text fields
    /// are tens of kilobytes), far less than would strain the viewer.
    static let factsByteLimit = 4 << 20

    static func encode(_ facts: ImageFacts) -> [UInt8]? {
        try? Array(JSONEncoder().encode(facts))
    }

    /// The facts in an answer's bytes; nil when they are not a well-formed answer.
    static func facts(from bytes: [UInt8]) -> ImageFacts? {
        try? JSONDecoder().decode(ImageFacts.self, from: Data(bytes))
    }

    /// The reply describing `pixels`, whose bytes (and profile) travel in the attached memfd.
    static func reply(describing pixels: PixelBuffer) -> tessera_decode_reply {
        var reply = tessera_decode_reply()
        reply.magic = replyMagic
        reply.status = 0
        reply.width = Int32(pixels.width)
        reply.height = Int32(pixels.height)
        reply.source_width = Int32(pixels.sourceSize?.width ?? -1)
        reply.source_height = Int32(pixels.sourceSize?.height ?? -1)
        reply.profile_length = UInt32(pixels.colourProfile?.count ?? 0)
        reply.known_opaque = pixels.knownOpaque.map { $0 ? 1 : 0 } ?? -1
        if let points = pixels.colourCodePoints { describe(points, in: &reply) }
        if let damage = pixels.damage {
            reply.reason = damagedReason
            setText(damage, of: &reply)
        }
        reply.numbers.0 = pixels.holdsSeveralImages ? 1 : 0
        reply.numbers.1 = pixels.isSequence ? 1 : 0
        return reply
    }

    /// A pixel reply's `reason` when the pixels are only part of the image; `text` says why.
    static let damagedReason: Int32 = 1

    /// Puts colour code points (a CICP declaration) into `reply`.
    static func describe(_ points: ColourCodePoints, in reply: inout tessera_decode_reply) {
        reply.has_code_points = 1
        reply.primaries = points.primaries
        reply.transfer = points.transfer
        reply.matrix = points.matrix
        reply.full_range = points.fullRange ? 1 : 0
    }

    /// The pixels a reply describes, their bytes and profile read from `memory` (the mapped memfd).
    static func pixels(from reply: tessera_decode_reply, memory: UnsafeRawBufferPointer) -> PixelBuffer {
        let count = Int(reply.width) * Int(reply.height) * 4
        var pixels = PixelBuffer(width: Int(reply.width), height: Int(reply.height),
                                 bytes: Array(UnsafeRawBufferPointer(rebasing: memory[0..<count])))
        if reply.source_width >= 0 {
            pixels.sourceSize = PixelSize(width: Int(reply.source_width), height: Int(reply.source_height))
        }
        if reply.profile_length > 0 {
            pixels.colourProfile = Array(UnsafeRawBufferPointer(rebasing: memory[count..<count + Int(reply.profile_length)]))
        }
        if reply.has_code_points != 0 {
            pixels.colourCodePoints = ColourCodePoints(primaries: reply.primaries, transfer: reply.transfer,
                                                       matrix: reply.matrix, fullRange: reply.full_range != 0)
        }
        pixels.knownOpaque = reply.known_opaque < 0 ? nil : reply.known_opaque == 1
        if reply.reason == damagedReason { pixels.damage = text(of: reply) }
        pixels.holdsSeveralImages = reply.numbers.0 == 1
        pixels.isSequence = reply.numbers.1 == 1
        return pixels
    }

    /// Whether a pixel reply's sizes are ones the viewer can map without trusting the helper further.
    static func isPlausible(_ reply: tessera_decode_reply, mappedBytes: Int) -> Bool {
        guard reply.width > 0, reply.height > 0 else { return false }
        let (count, overflow) = (Int(reply.width) * 4).multipliedReportingOverflow(by: Int(reply.height))
        return !overflow && count + Int(reply.profile_length) <= mappedBytes
    }

    /// A reply of `status` with nothing but `text`: the helper's first message (ready, or why not).
    static func reply(status: Int32, text: String) -> tessera_decode_reply {
        var reply = tessera_decode_reply()
        reply.magic = replyMagic
        reply.status = status
        setText(text, of: &reply)
        return reply
    }

    static func text(of reply: tessera_decode_reply) -> String {
        var copy = reply
        return withUnsafeBytes(of: &copy.text) { buffer in
            String(decoding: buffer.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }

    private static func setText(_ text: String, of reply: inout tessera_decode_reply) {
        withUnsafeMutableBytes(of: &reply.text) { buffer in
            // Whole characters only, so a long text is not cut inside one.
            var bytes: [UInt8] = []
            for character in text.unicodeScalars {
                let encoded = Array(String(character).utf8)
                guard bytes.count + encoded.count <= buffer.count - 1 else { break }
                bytes += encoded
            }
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
    }

    /// The reply for a refusal.
    static func reply(refusing reason: ImageLoadError.Reason) -> tessera_decode_reply {
        var reply = tessera_decode_reply()
        reply.magic = replyMagic
        reply.status = 1
        var text = ""
        switch reason {
        case .missing: reply.reason = 1
        case .unreadable(let why): reply.reason = 2; text = why
        case .empty: reply.reason = 3
        case .notAnImage: reply.reason = 4
        case .unsupportedFormat(let name): reply.reason = 5; text = name
        case .truncated: reply.reason = 6
        case .tooLarge(let width, let height, let limit):
            reply.reason = 7
            reply.numbers = (Int64(width), Int64(height), Int64(limit))
        case .fileTooLarge(let bytes, let limit):
            reply.reason = 8
            reply.numbers = (Int64(bytes), Int64(limit), 0)
        case .decodeFailed(let why): reply.reason = 9; text = why
        case .cancelled: reply.reason = 10
        case .helperFailed(let failure): reply.reason = 11; text = failure.shortText
        }
        setText(text, of: &reply)
        return reply
    }

    /// The refusal a reply carries.
    static func reason(from reply: tessera_decode_reply) -> ImageLoadError.Reason {
        let text = text(of: reply)
        let numbers = reply.numbers
        switch reply.reason {
        case 1: return .missing
        case 2: return .unreadable(text)
        case 3: return .empty
        case 4: return .notAnImage
        case 5: return .unsupportedFormat(text)
        case 6: return .truncated
        case 7: return .tooLarge(width: Int(numbers.0), height: Int(numbers.1), limit: Int(numbers.2))
        case 8: return .fileTooLarge(bytes: Int(numbers.0), limit: Int(numbers.1))
        case 9: return .decodeFailed(text)
        case 10: return .cancelled
        default: return .helperFailed(.unavailable("unknown reply \(reply.reason)"))
        }
    }
}
