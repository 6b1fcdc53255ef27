/// Why a benchmark could not run or finish, in one line for the user.
public struct BenchError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
