import Foundation

/// A JSON document as Foundation's `JSONDecoder` reads it, for documents whose fields change type from
/// one publisher to the next (an IIIF `service` is an object or a list, a `label` a string, a list or a
/// language map): read once, then walked with the accessors below, which answer nil for what is absent
/// or of another type.
enum JSONValue: Decodable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each kind tried and refused costs an error thrown and caught: the kinds are tried from the most
        // common in a manifest (objects, then strings) to the least, which halves a large one's reading.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }

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
