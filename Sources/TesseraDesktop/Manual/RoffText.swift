/// man(7) source, built line by line: requests and escaped text, never a blank line (groff warns about
/// those) and never a text line that starts with a control character.
struct RoffText {
    private(set) var lines: [String] = []

    /// A request such as `.SH NAME` or `.TP`; each argument is escaped and quoted when it holds a space.
    mutating func request(_ name: String, _ arguments: String...) {
        let quoted = arguments.map { argument -> String in
            let escaped = Self.escape(argument)
            return escaped.contains(" ") || escaped.isEmpty ? "\"" + escaped + "\"" : escaped
        }
        lines.append(([".\(name)"] + quoted).joined(separator: " "))
    }

    /// A line of source as it is, for font changes the caller has already escaped.
    mutating func raw(_ line: String) {
        lines.append(line)
    }

    /// Running text, filled by the formatter.
    mutating func text(_ text: String) {
        for line in text.split(separator: "\n") {
            let trimmed = String(line).trimmed
            if !trimmed.isEmpty { lines.append(Self.guardControl(Self.escape(trimmed))) }
        }
    }

    /// Lines kept as they are (indentation and line breaks), as in a table typed with spaces.
    mutating func literal(_ block: [String]) {
        request("nf")
        for line in block {
            lines.append(line.allSatisfy { $0 == " " } ? "\\&" : Self.guardControl(Self.escape(line)))
        }
        request("fi")
    }

    var source: String { lines.joined(separator: "\n") + "\n" }

    /// Text made safe for roff: backslashes printed as such, every `-` the ASCII hyphen-minus a reader can
    /// copy into a shell (as help2man writes them), anything beyond ASCII as a named Unicode character, so
    /// every output device and locale reads the file alike.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\"": out += "\\(dq"
            case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
            default: out += "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
            }
        }
        return out
    }

    /// `\fB...\fR` around escaped text.
    static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }

    /// `\fI...\fR` around escaped text.
    static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

    /// A text line starting with `.` or `'` would be read as a request; `\&` (a zero-width character) keeps it text.
    private static func guardControl(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    /// Without spaces and tabs at either end.
    var trimmed: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
