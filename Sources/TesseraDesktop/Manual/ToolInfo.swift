/// The command tree as swift-argument-parser describes it (`tessera --experimental-dump-help`): the
/// fields of its `ToolInfoV0` that a manual page shows. The same declarations print `--help`, so the page
/// and the help cannot disagree. (ArgumentParser's own `ArgumentParserToolInfo` is not a product other
/// packages can import.)
public struct ToolInfo: Decodable, Sendable {
    public var command: Command

    public struct Command: Decodable, Sendable {
        public var commandName: String
        public var abstract: String?
        public var discussion: String?
        public var shouldDisplay: Bool?
        public var subcommands: [Command]?
        public var arguments: [Argument]?

        public var isDisplayed: Bool { shouldDisplay ?? true }
    }

    public struct Argument: Decodable, Sendable {
        public enum Kind: String, Decodable, Sendable {
            case positional, option, flag
        }

        public struct Name: Decodable, Sendable {
            public enum Kind: String, Decodable, Sendable {
                case long, short, longWithSingleDash
            }

            public var kind: Kind
            public var name: String

            /// As typed: `--rows`, `-r`.
            public var spelling: String {
                switch kind {
                case .long: "--" + name
                case .short, .longWithSingleDash: "-" + name
                }
            }
        }

        public var kind: Kind
        public var names: [Name]?
        public var valueName: String?
        public var defaultValue: String?
        public var abstract: String?
        public var discussion: String?
        public var shouldDisplay: Bool?
        public var isOptional: Bool?
        public var isRepeating: Bool?

        public var isDisplayed: Bool { shouldDisplay ?? true }
    }
}
