/// A setting a configuration file may give: the default of a command-line option. Its name is the long
/// option's (`rows` for `--rows`); a flag's `true` or `false` is `--NAME` or `--no-NAME`, so the command
/// line can always say the opposite of the file.
package struct Setting: Sendable {
    /// The values a setting takes, as a person would say them in an error message.
    package enum Kind: Sendable {
        case wholeNumber(ClosedRange<Int>)
        /// A number (a TOML integer or float), in `unit` ("seconds") when it has one.
        case number(ClosedRange<Double>, unit: String?)
        /// Width and height as one string, `"400x300"`, each side in the range.
        case size(ClosedRange<Int>)
        case flag
        case choice([String])
    }

    package let name: String
    package let kind: Kind
    /// The commands that have this option.
    package let commands: Set<SettingCommand>

    package init(_ name: String, _ kind: Kind, in commands: Set<SettingCommand>) {
        self.name = name
        self.kind = kind
        self.commands = commands
    }

    /// What the setting takes: "a whole number from 1 to 32", "true or false".
    package var expectation: String {
        switch kind {
        case .wholeNumber(let range):
            return "a whole number " + Self.describe(range)
        case .number(let range, let unit):
            return "a number" + (unit.map { " of \($0)" } ?? "") + " " + Self.describe(range)
        case .size(let range):
            return "a size such as \"400x300\" (width x height, each \(Self.describe(range)))"
        case .flag:
            return "true or false"
        case .choice(let names):
            return "one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }

    /// The command-line arguments that give `value`; nil when `value` is not one this setting takes.
    func arguments(for value: ConfigurationValue) -> [String]? {
        switch (kind, value) {
        case (.wholeNumber(let range), .integer(let number)) where range.contains(number):
            return ["--\(name)", String(number)]
        case (.number(let range, _), .integer(let number)) where range.contains(Double(number)):
            return ["--\(name)", String(number)]
        case (.number(let range, _), .float(let number)) where range.contains(number):
            return ["--\(name)", String(number)]
        case (.size(let range), .string(let text)):
            let sides = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard sides.count == 2, let width = sides[0], let height = sides[1],
                  range.contains(width), range.contains(height) else { return nil }
            return ["--\(name)", "\(width)x\(height)"]
        case (.flag, .boolean(let on)):
            return [on ? "--\(name)" : "--no-\(name)"]
        case (.choice(let names), .string(let text)) where names.contains(text):
            return ["--\(name)", text]
        default:
            return nil
        }
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == .max ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
    }

    private static func describe(_ range: ClosedRange<Double>) -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        return "from \(number(range.lowerBound)) to \(number(range.upperBound))"
    }
}

/// The commands whose options a configuration file sets; each has a section (`[browse]`, `[view]`) for
/// settings meant for it alone.
package enum SettingCommand: String, CaseIterable, Sendable, Comparable {
    case browse, view

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
