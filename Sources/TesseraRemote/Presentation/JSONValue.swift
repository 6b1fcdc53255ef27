import Foundation

/// A JSON document as Foundation's `JSONSerialization` reads it, for documents whose fields change type
/// from one publisher to the next (an IIIF `service` is an object or a list, a `label` a string, a list or
/// a language map): read once, then walked with the accessors below, which answer nil for what is absent
/// or of another type. `JSONSerialization` rather than `JSONDecoder`: a `Decodable` value of unknown type
/// can only try each type in turn, a thrown error for each refusal, which made a hostile manifest of a
/// few million numbers take half a minute to refuse.
enum JSONValue: Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    /// The JSON document in `data` when it is an object, as every document read here is; anything else
    /// (a hostile list of millions of numbers, most often) is `.null`, left unread. Throws when it is not
    /// JSON.
    static func object(parsing data: Data) throws -> JSONValue {
        let value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        return value is [String: Any] ? JSONValue(value) : .null
    }

    /// What `JSONSerialization` gives: its booleans are numbers of a class of their own, told from the
    /// numbers 0 and 1 by that class.
    private init(_ value: Any) {
        switch value {
        case let text as String: self = .string(text)
        case let number as NSNumber:
            self = type(of: number) == Self.booleanClass ? .bool(number.boolValue) : .number(number.doubleValue)
        case let values as [Any]: self = .array(values.map(JSONValue.init))
        case let fields as [String: Any]: self = .object(fields.mapValues(JSONValue.init))
        default: self = .null
        }
    }

    private static let booleanClass = type(of: NSNumber(value: true))

    subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { fields[key] } else { nil }
    }

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var int: Int? { if case .number(let number) = self, number.isFinite, abs(number) < 1e15 { Int(number) } else { nil } }
    var object: [String: JSONValue]? { if case .object(let fields) = self { fields } else { nil } }

    /// A list as a list, and anything else as a list of one (IIIF writes a single value either way).
    var list: [JSONValue] {
        switch self {
        case .array(let values): values
        case .null: []
        default: [self]
        }
    }
}
