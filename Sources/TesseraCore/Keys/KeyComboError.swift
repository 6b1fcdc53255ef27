/// Why a binding's key could not be read.
package struct KeyComboError: Error, Equatable, Sendable, CustomStringConvertible {
    package let text: String
    package let reason: String

    package var description: String { "\"\(text)\" \(reason)" }
}
