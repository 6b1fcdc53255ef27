/// Why a configuration file was refused: every problem found, each with the line it is on, so one edit
/// fixes them all. Nothing of a refused file is used.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public struct Problem: Equatable, Sendable {
        /// 1-based; nil for the file as a whole (it cannot be read).
        public var line: Int?
        public var message: String
    }

    public var path: String
    /// In line order.
    public var problems: [Problem]

    init(path: String, problems: [Problem]) {
        self.path = path
        self.problems = problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
    }

    init(path: String, line: Int? = nil, _ message: String) {
        self.init(path: path, problems: [Problem(line: line, message: message)])
    }

    /// One line per problem: `PATH:LINE: MESSAGE`.
    public var lines: [String] {
        problems.map { problem in path + (problem.line.map { ":\($0)" } ?? "") + ": " + problem.message }
    }

    public var description: String { lines.joined(separator: "\n") }
}
