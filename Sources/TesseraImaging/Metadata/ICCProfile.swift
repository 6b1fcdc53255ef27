import CLCMS2
import Foundation
import CZlib

/// An image's embedded ICC colour profile: found where each format keeps it, and described by Little
/// CMS (the profile's `desc` tag, v2 or v4).
///
/// - JPEG: APP2 segments "ICC_PROFILE\0", sequence number, count, then a part of the profile (a segment
///   holds at most 64 KB, so big profiles are split and put together in sequence order).
/// - PNG: the `iCCP` chunk: a name, a compression byte (0, deflate) and the deflated profile.
/// - WebP: the `ICCP` chunk, the profile as it is.
/// - TIFF (tag 34675), GIF and BMP are not read.
extension ICCProfile {
    /// The largest profile put together; real ones are a few kilobytes to a few megabytes.
    static let maximumBytes = 16 << 20

    /// The embedded profile, or nil when there is none or its parts do not make a whole.
    static func data(in b: UnsafeRawBufferPointer, format: ImageFormat) -> [UInt8]? {
        switch format {
        case .jpeg: return jpegProfile(b)
        case .png: return ImageChunks.png("iCCP", in: b).flatMap(inflatePNGProfile)
        case .webp: return ImageChunks.webp("ICCP", in: b).map { Array($0) }
        case .tiff, .gif, .bmp, .unknown: return nil
        }
    }

    /// The profile's description, in English where it has several; nil when Little CMS cannot read the
    /// profile or it has no description.
    static func description(of profile: [UInt8]) -> String? {
        guard !profile.isEmpty, profile.count <= maximumBytes else { return nil }
        guard let handle = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else { return nil }
        defer { cmsCloseProfile(handle) }
        let needed = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", nil, 0)
        guard needed > 1 else { return nil }
        var text = [CChar](repeating: 0, count: Int(needed))
        cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &text, needed)
        let description = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return description.isEmpty ? nil : description
    }

    // MARK: - JPEG

    private static let jpegMarker = Array("ICC_PROFILE".utf8) + [0]

    private static func jpegProfile(_ b: UnsafeRawBufferPointer) -> [UInt8]? {
        var parts: [Int: Range<Int>] = [:]
        var expected: Int?
        var consistent = true
        JPEGSegments.walk(b) { segment in
            let payload = segment.payload
            guard segment.marker == 0xE2, payload.count > jpegMarker.count + 2,
                  b[payload.lowerBound..<(payload.lowerBound + jpegMarker.count)].elementsEqual(jpegMarker) else { return true }
            let sequence = Int(b[payload.lowerBound + jpegMarker.count])
            let count = Int(b[payload.lowerBound + jpegMarker.count + 1])
            if expected == nil { expected = count }
            if count != expected || sequence < 1 || sequence > count || parts[sequence] != nil { consistent = false }
            parts[sequence] = (payload.lowerBound + jpegMarker.count + 2)..<payload.upperBound
            return true
        }
        guard consistent, let expected, parts.count == expected else { return nil }
        var profile: [UInt8] = []
        for sequence in 1...expected {
            guard let part = parts[sequence] else { return nil }
            profile.append(contentsOf: b[part])
        }
        return profile
    }

    // MARK: - PNG

    /// The profile inside an iCCP payload: a 1 to 79 byte name, NUL, compression method 0, zlib data.
    private static func inflatePNGProfile(_ chunk: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let nul = chunk.prefix(80).firstIndex(of: 0), nul >= 1, nul + 2 <= chunk.count, chunk[nul + 1] == 0 else { return nil }
        return inflate(UnsafeRawBufferPointer(rebasing: chunk[(nul + 2)...]))
    }

    /// zlib-inflates `compressed`, refusing output beyond `maximumBytes` or a stream that does not end.
    static func inflate(_ compressed: UnsafeRawBufferPointer) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(4096, compressed.count * 4))
        var produced = 0
        stream.next_in = UnsafeMutablePointer(mutating: compressed.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(compressed.count)
        while true {
            if produced == output.count {
                guard output.count < maximumBytes else { return nil }
                output.append(contentsOf: [UInt8](repeating: 0, count: min(output.count, maximumBytes - output.count)))
            }
            let status = output.withUnsafeMutableBytes { buffer -> Int32 in
                stream.next_out = buffer.bindMemory(to: Bytef.self).baseAddress! + produced
                stream.avail_out = uInt(buffer.count - produced)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                produced = buffer.count - Int(stream.avail_out)
                return status
            }
            if status == Z_STREAM_END { return Array(output[..<produced]) }
            // Out of input before the end, or corrupt: no profile rather than part of one.
            guard status == Z_OK, stream.avail_in > 0 || stream.avail_out == 0 else { return nil }
        }
    }
}
