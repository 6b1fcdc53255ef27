/// Puts a configuration file's settings in front of the command line's own arguments, as ripgrep does with
/// its configuration file: ArgumentParser keeps the last value of an option and the last spelling of a
/// flag, so anything the command line says wins over the file, and the file needs no path of its own
/// through the options' checks.
package struct CommandLineDefaults: Sendable {
    package var schema: ConfigurationSchema
    /// The command that runs when the arguments name none.
    package var defaultCommand: SettingCommand
    /// Subcommands without settings (`tile`, `bench`, `help`): their arguments pass untouched.
    package var otherCommands: Set<String>
    package var environment: [String: String]

    package init(schema: ConfigurationSchema, defaultCommand: SettingCommand, otherCommands: Set<String>,
                environment: [String: String]) {
        self.schema = schema
        self.defaultCommand = defaultCommand
        self.otherCommands = otherCommands
        self.environment = environment
    }

    /// Arguments that ask only for help or the version, which no configuration file should stand in the
    /// way of.
    static let informational: Set<String> = ["-h", "--help", "--version", "--experimental-dump-help",
                                             "--generate-completion-script"]

    /// `arguments` (without the program's name) with the file's settings for their command in front of
    /// them; unchanged when they ask for help, name a command without settings, or no file is read.
    package func arguments(_ arguments: [String]) throws(ConfigurationError) -> [String] {
        let options = Array(arguments.prefix { $0 != "--" })
        guard !options.contains(where: Self.informational.contains) else { return arguments }
        var command = defaultCommand
        var rest = ArraySlice(arguments)
        if let first = arguments.first {
            if otherCommands.contains(first) { return arguments }
            if let named = SettingCommand(rawValue: first) {
                command = named
                rest = arguments.dropFirst()
            }
        }
        var explicit: String?
        var disabled = false
        for (index, argument) in options.enumerated() {
            if argument == "--no-config" { disabled = true }
            if argument.hasPrefix("--config=") { explicit = String(argument.dropFirst("--config=".count)) }
            if argument == "--config", index + 1 < options.count { explicit = options[index + 1] }
        }
        guard let file = try ConfigurationFile.load(explicit: explicit, disabled: disabled, environment: environment,
                                                    schema: schema) else { return arguments }
        return [command.rawValue] + file.arguments(for: command) + rest
    }
}
