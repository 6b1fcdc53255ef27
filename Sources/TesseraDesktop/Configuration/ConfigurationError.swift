/// Why a configuration file was refused: every problem found, each with the line it is on, so one edit
/// fixes them all. Nothing of a refused file is used.
package struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    package struct Problem: Equatable, Sendable {
        /// 1-based; nil for the file as a whole (it cannot be read).
        package var line: Int?
        package var message: String
    }

    package var path: String
    /// In line order.
    package var problems: [Problem]

    init(path: String, problems: [Problem]) {
        self.path = path
        self.problems = problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
    }

    init(path: String, line: Int? = nil, _ message: String) {
        self.init(path: path, problems: [Problem(line: line, message: message)])
    }

    /// One line per problem: `PATH:LINE: MESSAGE`.
    package var lines: [String] {
        problems.map { problem in path + (problem.line.map { ":\($0)" } ?? "") + ": " + problem.message }
    }

    package var description: String { lines.joined(separator: "\n") }
}
