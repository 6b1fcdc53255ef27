/// The line each key and table of a TOML document is defined on. TOMLKit hands back values without
/// toml++'s source positions, and an error in a setting must name its line.
///
/// It reads a document TOMLKit has already accepted, so it follows TOML's structure (table headers, dotted
/// and quoted keys, strings and arrays that span lines, comments) without checking it. Keys inside an
/// inline table are not indexed; `line(of:)` gives the line of the key that holds the table.
struct TOMLKeyLines {
    private var lines: [[String]: Int] = [:]
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        scan()
    }

    /// The line of `path` (tables, then the key), or of the nearest enclosing key or table found.
    func line(of path: [String]) -> Int? {
        var path = path
        while !path.isEmpty {
            if let line = lines[path] { return line }
            path.removeLast()
        }
        return nil
    }

    // MARK: - Scanning

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func scan() {
        var table: [String] = []
        while let scalar = current {
            switch scalar {
            case "\n":
                line += 1
                index += 1
            case " ", "\t", "\r":
                index += 1
            case "#":
                skipComment()
            case "[":
                let isArrayOfTables = peek(1) == "["
                index += isArrayOfTables ? 2 : 1
                table = readKeyPath()
                record(table)
                skipToLineEnd()
            default:
                let path = table + readKeyPath()
                record(path)
                if current == "=" { index += 1 }
                skipValue()
            }
        }
    }

    private mutating func record(_ path: [String]) {
        if lines[path] == nil { lines[path] = line }
    }

    /// Dotted key parts, bare or quoted, up to `=` or `]` (not taken).
    private mutating func readKeyPath() -> [String] {
        var parts: [String] = []
        while let scalar = current, scalar != "=", scalar != "]", scalar != "\n" {
            switch scalar {
            case " ", "\t", ".":
                index += 1
            case "\"":
                parts.append(readBasicString())
            case "'":
                parts.append(readLiteralString())
            default:
                var bare = ""
                while let next = current, next != " ", next != "\t", next != ".", next != "=", next != "]", next != "\n" {
                    bare.unicodeScalars.append(next)
                    index += 1
                }
                parts.append(bare)
            }
        }
        return parts
    }

    /// A value, which may run over several lines inside brackets or a multi-line string; stops at the end
    /// of its line (the newline is left for `scan` to count).
    private mutating func skipValue() {
        var depth = 0
        while let scalar = current {
            switch scalar {
            case "\"":
                if peek(1) == "\"" && peek(2) == "\"" { skipMultiLine(quote: "\"") } else { _ = readBasicString() }
                continue
            case "'":
                if peek(1) == "'" && peek(2) == "'" { skipMultiLine(quote: "'") } else { _ = readLiteralString() }
                continue
            case "[", "{":
                depth += 1
            case "]", "}":
                depth -= 1
            case "#":
                skipComment()
                continue
            case "\n":
                if depth <= 0 { return }
                line += 1
            default:
                break
            }
            index += 1
        }
    }

    private mutating func skipToLineEnd() {
        while let scalar = current, scalar != "\n" { index += 1 }
    }

    private mutating func skipComment() { skipToLineEnd() }

    /// `"..."` from its opening quote, escapes undone; the index ends past the closing quote.
    private mutating func readBasicString() -> String {
        index += 1
        var text = ""
        while let scalar = current, scalar != "\"", scalar != "\n" {
            index += 1
            guard scalar == "\\", let escaped = current else {
                text.unicodeScalars.append(scalar)
                continue
            }
            index += 1
            switch escaped {
            case "n": text += "\n"
            case "t": text += "\t"
            case "r": text += "\r"
            case "b": text += "\u{08}"
            case "f": text += "\u{0C}"
            case "u", "U":
                let digits = escaped == "u" ? 4 : 8
                let hex = String(String.UnicodeScalarView(scalars[index..<min(index + digits, scalars.count)]))
                if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) { text.unicodeScalars.append(decoded) }
                index = min(index + digits, scalars.count)
            default: text.unicodeScalars.append(escaped)
            }
        }
        if current == "\"" { index += 1 }
        return text
    }

    /// `'...'` from its opening quote; the index ends past the closing quote.
    private mutating func readLiteralString() -> String {
        index += 1
        var text = ""
        while let scalar = current, scalar != "'", scalar != "\n" {
            text.unicodeScalars.append(scalar)
            index += 1
        }
        if current == "'" { index += 1 }
        return text
    }

    /// `"""..."""` or `'''...'''` from the opening quotes, counting the lines inside.
    private mutating func skipMultiLine(quote: Unicode.Scalar) {
        index += 3
        while let scalar = current {
            if scalar == "\n" { line += 1 }
            if quote == "\"" && scalar == "\\" {
                index += 1
                if current == "\n" { line += 1 }
                index += 1
                continue
            }
            if scalar == quote && peek(1) == quote && peek(2) == quote {
                index += 3
                // Up to two more quotes belong to the string's content.
                while current == quote { index += 1 }
                return
            }
            index += 1
        }
    }
}
