/// Why a binding's key could not be read.
public struct KeyComboError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public let reason: String

    public var description: String { "\"\(text)\" \(reason)" }
}
