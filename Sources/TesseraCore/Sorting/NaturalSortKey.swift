import Foundation

/// `NaturalOrder` as bytes: a name's key compares byte by byte (as `memcmp` does, a shorter key that is a
/// prefix of a longer one first) exactly as the name compares naturally. A folder is then sorted by keys
/// made once per name, with no walk over both names and no allocation at each comparison.
///
/// A key is a sequence of elements, one per character or per run of ASCII digits, encoded so that bytes
/// compare as the elements do and no element's bytes begin another's:
/// - a digit run: `0x30`, the count of its significant digits (one byte below `0xF0`, else `0xF0` and four
///   bytes), then those digits. A longer number sorts later, equal lengths digit by digit, and a number
///   sorts among other characters where the character "0" does.
/// - any other character: its lower case in NFC (Swift compares strings in NFC), as UTF-8 when that is one
///   scalar; when it is more than one (a letter with a combining mark that has no precomposed form, a
///   keycap, "\r\n"), its first scalar, `0xF8` (a byte UTF-8 never uses), the other scalars and `0x00`.
///   A character that merely begins with a digit ("1" and a combining mark) counts as a character.
///
/// The *primary* key is those elements. Names whose primary keys are equal differ only in case, in
/// leading zeros, or in how their characters are composed; the *full* key orders those too: the primary
/// key, `0x00`, each digit run's count of leading zeros, `0x00`, each other character in its own case
/// (NFC, encoded as above), `0x00`, and the name's own UTF-8 bytes.
package enum NaturalSortKey {
    /// Appends the primary key of `name` (UTF-8) to `key`.
    package static func appendPrimary(of name: UnsafeBufferPointer<UInt8>, to key: inout [UInt8]) {
        if isASCII(name) {
            appendASCIIPrimary(of: name, to: &key)
        } else {
            appendPrimary(ofCharacters: String(decoding: name, as: UTF8.self), to: &key)
        }
    }

    /// The primary key made character by character, as for any name that is not ASCII.
    static func appendPrimary(ofCharacters name: String, to key: inout [UInt8]) {
        for element in elements(of: name) {
            switch element {
            case .digits(let significant, _): appendDigitRun(significant, to: &key)
            case .character(_, let folded): appendCharacter(folded, to: &key)
            }
        }
    }

    /// The full key of `name` (UTF-8): a total order, equal only for equal bytes.
    package static func full(of name: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(name.count * 3 + 4)
        appendPrimary(of: name, to: &key)
        key.append(0)
        let parts = elements(of: String(decoding: name, as: UTF8.self))
        for case .digits(_, let leadingZeros) in parts { appendCount(leadingZeros, to: &key) }
        key.append(0)
        for case .character(let own, _) in parts { appendCharacter(own, to: &key) }
        key.append(0)
        key.append(contentsOf: name)
        return key
    }

    /// The full key of `name`.
    package static func full(_ name: String) -> [UInt8] {
        var name = name
        return name.withUTF8 { full(of: $0) }
    }

    // MARK: Elements

    private enum Element {
        /// A run of ASCII digits: its digits without leading zeros, and how many zeros led.
        case digits(significant: [UInt8], leadingZeros: Int)
        /// Any other character: itself and its lower case, both as NFC scalars.
        case character(own: [Unicode.Scalar], folded: [Unicode.Scalar])
    }

    /// The elements of `name`, character by character as Swift splits it (grapheme clusters).
    private static func elements(of name: String) -> [Element] {
        var result: [Element] = []
        var run: [UInt8] = []
        func endRun() {
            guard !run.isEmpty else { return }
            let zeros = run.prefix { $0 == UInt8(ascii: "0") }.count
            result.append(.digits(significant: Array(run[zeros...]), leadingZeros: zeros))
            run.removeAll()
        }
        for character in name {
            if let ascii = character.asciiValue, ascii >= UInt8(ascii: "0"), ascii <= UInt8(ascii: "9") {
                run.append(ascii)
                continue
            }
            endRun()
            result.append(.character(own: nfc(String(character)), folded: nfc(character.lowercased())))
        }
        endRun()
        return result
    }

    /// The scalars of `text` in NFC. Text whose scalars are all below U+0300 (no combining mark among
    /// them) is NFC already, so the usual case skips Foundation.
    private static func nfc(_ text: String) -> [Unicode.Scalar] {
        let scalars = Array(text.unicodeScalars)
        if scalars.allSatisfy({ $0.value < 0x300 }) { return scalars }
        return Array(text.precomposedStringWithCanonicalMapping.unicodeScalars)
    }

    // MARK: Encoding

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    /// The primary key of an ASCII name, byte by byte: ASCII's only character of two scalars is "\r\n".
    private static func appendASCIIPrimary(of name: UnsafeBufferPointer<UInt8>, to key: inout [UInt8]) {
        var i = 0
        let count = name.count
        while i < count {
            let byte = name[i]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                var start = i
                var end = i
                while end < count, name[end] >= UInt8(ascii: "0"), name[end] <= UInt8(ascii: "9") { end += 1 }
                while start < end, name[start] == UInt8(ascii: "0") { start += 1 }
                key.append(UInt8(ascii: "0"))
                appendCount(end - start, to: &key)
                key.append(contentsOf: UnsafeBufferPointer(rebasing: name[start..<end]))
                i = end
            } else if byte == 0x0D, i + 1 < count, name[i + 1] == 0x0A {
                key.append(contentsOf: [0x0D, 0xF8, 0x0A, 0x00])
                i += 2
            } else {
                key.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
                i += 1
            }
        }
    }

    private static func appendDigitRun(_ significant: [UInt8], to key: inout [UInt8]) {
        key.append(UInt8(ascii: "0"))
        appendCount(significant.count, to: &key)
        key.append(contentsOf: significant)
    }

    /// A count in increasing byte order: one byte below 0xF0, else 0xF0 and four bytes, big-endian.
    private static func appendCount(_ count: Int, to key: inout [UInt8]) {
        if count < 0xF0 {
            key.append(UInt8(count))
        } else {
            let value = UInt32(clamping: count)
            key.append(contentsOf: [0xF0, UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
                                    UInt8(value & 0xFF)])
        }
    }

    private static func appendCharacter(_ scalars: [Unicode.Scalar], to key: inout [UInt8]) {
        guard let first = scalars.first else { return }
        appendUTF8(first, to: &key)
        guard scalars.count > 1 else { return }
        key.append(0xF8)
        for scalar in scalars.dropFirst() { appendUTF8(scalar, to: &key) }
        key.append(0x00)
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to key: inout [UInt8]) {
        UTF8.encode(scalar) { key.append($0) }
    }
}
