/// The command tree as swift-argument-parser describes it (`tessera --experimental-dump-help`): the
/// fields of its `ToolInfoV0` that a manual page shows. The same declarations print `--help`, so the page
/// and the help cannot disagree. (ArgumentParser's own `ArgumentParserToolInfo` is not a product other
/// packages can import.)
package struct ToolInfo: Decodable, Sendable {
    package var command: Command

    package struct Command: Decodable, Sendable {
        package var commandName: String
        package var abstract: String?
        package var discussion: String?
        package var shouldDisplay: Bool?
        package var subcommands: [Command]?
        package var arguments: [Argument]?

        package var isDisplayed: Bool { shouldDisplay ?? true }
    }

    package struct Argument: Decodable, Sendable {
        package enum Kind: String, Decodable, Sendable {
            case positional, option, flag
        }

        package struct Name: Decodable, Sendable {
            package enum Kind: String, Decodable, Sendable {
                case long, short, longWithSingleDash
            }

            package var kind: Kind
            package var name: String

            /// As typed: `--rows`, `-r`.
            package var spelling: String {
                switch kind {
                case .long: "--" + name
                case .short, .longWithSingleDash: "-" + name
                }
            }
        }

        package var kind: Kind
        package var names: [Name]?
        package var valueName: String?
        package var defaultValue: String?
        package var abstract: String?
        package var discussion: String?
        package var shouldDisplay: Bool?
        package var isOptional: Bool?
        package var isRepeating: Bool?

        package var isDisplayed: Bool { shouldDisplay ?? true }
    }
}
