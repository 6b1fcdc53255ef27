import CTesseraSandbox
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// The messages of a rows exchange (the tile cutter's rows read in a decode helper): its requests, the
/// opening's reply, and the cutter's reasons as numbers and text. The messages are `DecodeHelperWire`'s
/// fixed structs; `kind` tells a rows request from a decode.
enum DecodeHelperRowsWire {
    /// Rows in each half of the rows memfd, for an image `width` pixels wide, the same on both sides: a
    /// half is a few MiB, so that a request's round trip is small beside decoding its rows and the two
    /// halves stay small beside the cutter's own bands; never fewer than the cutter asks for at once.
    static func rowsPerHalf(width: Int) -> Int {
        let rowBytes = max(1, width) * 4
        return max(16, min(256, (4 << 20) / rowBytes))
    }

    /// The bytes of one half, nil when they overflow.
    static func halfBytes(width: Int) -> Int? {
        let (rowBytes, overflow) = width.multipliedReportingOverflow(by: 4)
        let (bytes, overflow2) = rowBytes.multipliedReportingOverflow(by: rowsPerHalf(width: width))
        return overflow || overflow2 || width <= 0 ? nil : bytes
    }

    // MARK: - Requests

    /// Opens the image attached for its rows; `pixelLimit` bounds what is decoded whole.
    static func opening(pixelLimit: Int, name: String) -> (tessera_decode_request, tail: [UInt8]) {
        var request = request(kind: TESSERA_REQUEST_ROWS_OPEN)
        request.pixel_limit = Int64(pixelLimit)
        let nameBytes = Array(name.utf8)
        request.name_length = UInt32(nameBytes.count)
        return (request, nameBytes)
    }

    /// The next `count` rows into half `half` of the rows memfd.
    static func rows(count: Int, half: Int) -> tessera_decode_request {
        var request = request(kind: TESSERA_REQUEST_ROWS_NEXT)
        request.row_count = Int32(count)
        request.buffer_half = Int32(half)
        return request
    }

    static var end: tessera_decode_request { request(kind: TESSERA_REQUEST_ROWS_END) }

    private static func request(kind: Int32) -> tessera_decode_request {
        var request = tessera_decode_request()
        request.magic = DecodeHelperWire.requestMagic
        request.kind = UInt8(kind)
        return request
    }

    // MARK: - Replies

    /// The opening's reply for `source`; `profileLength` bytes of its ICC profile follow the two halves in
    /// the attached memfd.
    static func reply(opening source: any ScanlineSource, profileLength: Int) -> tessera_decode_reply {
        var reply = DecodeHelperWire.reply(status: 0, text: "")
        reply.width = Int32(source.width)
        reply.height = Int32(source.height)
        reply.source_width = -1
        reply.source_height = -1
        reply.known_opaque = -1
        reply.grayscale = source.isGrayscale ? 1 : 0
        reply.alpha = source.hasAlpha ? 1 : 0
        reply.profile_length = UInt32(profileLength)
        if case .codePoints(let points) = source.colourSpace { DecodeHelperWire.describe(points, in: &reply) }
        return reply
    }

    /// The ICC profile the rows' colour space carries, sent after the two halves.
    static func profile(of colourSpace: ColourSpace) -> [UInt8] {
        if case .icc(let profile) = colourSpace { return profile.bytes }
        return []
    }

    /// The colour space an opening's reply declares, its profile read from `profile`.
    static func colourSpace(of reply: tessera_decode_reply, profile: [UInt8]) -> ColourSpace {
        if !profile.isEmpty { return .icc(ICCProfile(profile)) }
        if reply.has_code_points != 0 {
            return .codePoints(ColourCodePoints(primaries: reply.primaries, transfer: reply.transfer,
                                                matrix: reply.matrix, fullRange: reply.full_range != 0))
        }
        return .sRGB
    }

    /// "Done": the rows are in their half, or the exchange ended cleanly.
    static var done: tessera_decode_reply { DecodeHelperWire.reply(status: 0, text: "") }

    /// The reply for the cutter's refusal.
    static func reply(refusing reason: TileCutError.Reason) -> tessera_decode_reply {
        var text = ""
        var code: Int32
        var numbers: (Int64, Int64, Int64) = (0, 0, 0)
        switch reason {
        case .missing: code = 1
        case .unreadable(let why): code = 2; text = why
        case .empty: code = 3
        case .notAnImage: code = 4
        case .truncated: code = 5
        case .corrupt(let why): code = 6; text = why
        case .unsupportedFormat(let name): code = 7; text = name
        case .tooLargeForWholeDecode(let format, let width, let height, let limit):
            code = 8; text = format
            numbers = (Int64(width), Int64(height), Int64(limit))
        case .outputExists: code = 9
        case .outputFailed(let why): code = 10; text = why
        case .invalidOptions(let why): code = 11; text = why
        case .cancelled: code = 12
        case .decoderFailed(let failure): code = 13; text = failure.shortText
        }
        var reply = DecodeHelperWire.reply(status: 1, text: text)
        reply.reason = code
        reply.numbers = numbers
        return reply
    }

    /// The cutter's refusal a reply carries.
    static func reason(from reply: tessera_decode_reply) -> TileCutError.Reason {
        let text = DecodeHelperWire.text(of: reply)
        let numbers = reply.numbers
        switch reply.reason {
        case 1: return .missing
        case 2: return .unreadable(text)
        case 3: return .empty
        case 4: return .notAnImage
        case 5: return .truncated
        case 6: return .corrupt(text)
        case 7: return .unsupportedFormat(text)
        case 8: return .tooLargeForWholeDecode(format: text, width: Int(numbers.0), height: Int(numbers.1), limit: Int(numbers.2))
        case 9: return .outputExists
        case 10: return .outputFailed(text)
        case 11: return .invalidOptions(text)
        case 12: return .cancelled
        case 13: return .decoderFailed(.unavailable(text))
        default: return .decoderFailed(.unavailable("unknown reply \(reply.reason)"))
        }
    }
}
