internal import TOMLKit

/// A value from the file, as much of TOML's types as settings take, the rest only named (for the message
/// that says what was found instead).
enum ConfigurationValue: Equatable, CustomStringConvertible {
    case integer(Int)
    case float(Double)
    case string(String)
    case boolean(Bool)
    case table
    case array
    case date

    init(_ value: any TOMLValueConvertible) {
        switch value.type {
        case .int: self = .integer(value.int ?? 0)
        case .double: self = .float(value.double ?? 0)
        case .string: self = .string(value.string ?? "")
        case .bool: self = .boolean(value.bool ?? false)
        case .table: self = .table
        case .array: self = .array
        case .date, .time, .dateTime: self = .date
        }
    }

    /// As a person would have typed it: `"two"`, `33`, `2.0`, `true`; a table or an array by name.
    var description: String {
        switch self {
        case .integer(let number): String(number)
        case .float(let number): String(number)
        case .string(let text): "\"" + text + "\""
        case .boolean(let on): on ? "true" : "false"
        case .table: "a table"
        case .array: "an array"
        case .date: "a date"
        }
    }
}
