/// A Linux path is a string of bytes, any bytes but NUL; Tessera carries paths as Swift `String`s, which
/// hold Unicode only. `PathText` maps one to the other without loss, so that two files are never one path
/// inside the viewer and every action reaches the exact file the user picked:
///
/// - Valid UTF-8 is its own text: a path that is proper UTF-8 (nearly every path) is the ordinary string.
/// - Each byte of a sequence that is not valid UTF-8 becomes one private-use character, U+EF00 plus the
///   byte (U+EF80 to U+EFFF), as MirBSD's OPTU-8 does.
/// - A real character in U+EF80...U+EFFF (three bytes, EE BE/BF xx) is escaped byte by byte too, so the
///   text of those bytes and the text of an invalid byte never coincide, and `bytes(of:)` is the exact
///   inverse of `text(of:)`.
///
/// The text is what the viewer keys, compares and passes around; the bytes are what reaches the system
/// (`withCString`, standard output, a key-handler's input, a `.trashinfo` record) and the display name is
/// what is drawn (`displayName`: escaped bytes shown as U+FFFD).
///
/// Swift compares strings by canonical equivalence, so two paths that differ only in Unicode
/// normalisation (a name in NFC beside the same name in NFD, which Linux keeps apart) are `==` as
/// strings: where a path is an identity, compare with `same(_:_:)` or key by `Key`.
package enum PathText {
    /// The first scalar of the escape range: an escaped byte `b` is `escapeBase + b`.
    static let escapeBase: UInt32 = 0xEF00
    private static let firstEscape = Unicode.Scalar(0xEF80 as UInt32)!
    private static let lastEscape = Unicode.Scalar(0xEFFF as UInt32)!

    /// The text of `bytes` (no NUL expected; one would be kept as the character U+0000).
    package static func text<Bytes: Collection<UInt8>>(of bytes: Bytes) -> String {
        if let plain = plainText(bytes) { return plain }
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let (scalar, length) = decodeScalar(bytes, at: index)
            if let scalar, !(firstEscape...lastEscape).contains(scalar) {
                scalars.append(scalar)
                index = bytes.index(index, offsetBy: length)
            } else {
                // Invalid here, or a real character of the escape range: each of its bytes escaped.
                for _ in 0..<length {
                    scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[index]))!)
                    index = bytes.index(after: index)
                }
            }
        }
        return String(scalars)
    }

    /// The text of a C string.
    package static func text(ofCString pointer: UnsafePointer<CChar>) -> String {
        var length = 0
        while pointer[length] != 0 { length += 1 }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            text(of: UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The bytes `text` stands for: the exact inverse of `text(of:)`.
    package static func bytes(of text: String) -> [UInt8] {
        guard hasEscapes(text) else { return Array(text.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if (firstEscape...lastEscape).contains(scalar) {
                bytes.append(UInt8(scalar.value - escapeBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Runs `body` with the bytes `text` stands for, without copying them when the text has no escapes
    /// (nearly every path): for lookups and appends done once per item of a long list.
    package static func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if hasEscapes(text) { return try bytes(of: text).withUnsafeBufferPointer(body) }
        var text = text
        return try text.withUTF8(body)
    }

    /// Runs `body` with the NUL-terminated bytes of `text`: how a path reaches a system call.
    package static func withCString<Result, Failure: Error>(
        _ text: String, _ body: (UnsafePointer<CChar>) throws(Failure) -> Result) throws(Failure) -> Result {
        if !hasEscapes(text) {
            // Swift's own C string of the text is its UTF-8, which here are the path's bytes.
            let result: Swift.Result<Result, Failure> = text.withCString { pointer in
                do throws(Failure) { return .success(try body(pointer)) } catch { return .failure(error) }
            }
            return try result.get()
        }
        var bytes = bytes(of: text).map { CChar(bitPattern: $0) }
        bytes.append(0)
        let result: Swift.Result<Result, Failure> = bytes.withUnsafeBufferPointer { buffer in
            do throws(Failure) { return .success(try body(buffer.baseAddress!)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// What to draw or print for a path or a name: its bytes read as UTF-8, each invalid byte shown as
    /// U+FFFD. Never an identity: two paths can share one display name.
    package static func displayName(_ text: String) -> String {
        hasEscapes(text) ? String(decoding: bytes(of: text), as: UTF8.self) : text
    }

    /// Whether `text` holds escaped bytes (its path is not valid UTF-8, or holds a character of the
    /// escape range).
    package static func hasEscapes(_ text: String) -> Bool {
        // An escape scalar is EE BE xx or EE BF xx in UTF-8.
        var previousWasEE = false
        for byte in text.utf8 {
            if previousWasEE, byte == 0xBE || byte == 0xBF { return true }
            previousWasEE = byte == 0xEE
        }
        return false
    }

    /// Whether `a` and `b` are one path: the same bytes, not merely canonically equivalent strings.
    package static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// A path as a dictionary key or set member that tells apart paths Swift's string equality does not
    /// (the same name in NFC and in NFD).
    package struct Key: Hashable, Sendable, CustomStringConvertible {
        package let text: String

        package init(_ text: String) { self.text = text }

        package static func == (a: Key, b: Key) -> Bool { PathText.same(a.text, b.text) }

        package func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        package var description: String { PathText.displayName(text) }
    }

    // MARK: - Decoding

    /// `bytes` as a string when they are valid UTF-8 and hold no character of the escape range.
    private static func plainText<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        var previousWasEE = false
        for byte in bytes {
            if previousWasEE, byte == 0xBE || byte == 0xBF { return nil }
            previousWasEE = byte == 0xEE
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The scalar starting at `index` and its length in bytes; nil and 1 where the byte there starts no
    /// valid sequence (an overlong form, a surrogate, a truncated or over-long sequence).
    private static func decodeScalar<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: Bytes.Index) -> (Unicode.Scalar?, Int) {
        let lead = bytes[index]
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; value = UInt32(lead & 0x07)
        default: return (nil, 1)
        }
        var position = index
        for _ in 1..<length {
            position = bytes.index(after: position)
            guard position != bytes.endIndex, bytes[position] & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(bytes[position] & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (nil, 1) }
        return (scalar, length)
    }
}
