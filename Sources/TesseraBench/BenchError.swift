/// Why a benchmark could not run or finish, in one line for the user.
package struct BenchError: Error, Sendable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
