#if canImport(Glibc)
import Glibc
#endif
import Foundation
internal import TOMLKit

/// A configuration file (`$XDG_CONFIG_HOME/tessera/config.toml`), read whole and checked whole: a file with
/// any problem is refused with every problem's line, so the viewer never starts on half a configuration.
///
/// ```toml
/// rows = 2              # a setting of every command that has the option
/// [view]
/// fade = 0              # one command's
/// [keys]
/// "ctrl+d" = "trash"
/// ```
package struct ConfigurationFile: Sendable {
    /// A setting from the file and the arguments that give it.
    struct Entry: Sendable {
        var setting: Setting
        /// nil: the top level.
        var section: SettingCommand?
        var arguments: [String]
        var line: Int
    }

    package let path: String
    private(set) var entries: [Entry] = []
    /// In the order they apply: bindings for every view first, then each view's, each in line order.
    package private(set) var keyBindings: [KeyBindingSetting] = []

    // MARK: - Finding and reading

    /// `$XDG_CONFIG_HOME/tessera/config.toml`, or `~/.config/tessera/config.toml` when XDG_CONFIG_HOME is
    /// unset, empty or relative (as the XDG spec says); nil without either.
    package static func defaultPath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/tessera/config.toml" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/tessera/config.toml" }
        return nil
    }

    /// The file the command line asks for: none with `--no-config`, `explicit` (`--config PATH`, which must
    /// exist), else the default one if it exists.
    package static func load(explicit: String?, disabled: Bool, environment: [String: String],
                            schema: ConfigurationSchema) throws(ConfigurationError) -> ConfigurationFile? {
        if disabled { return nil }
        if let explicit { return try read(path: explicit, schema: schema) }
        guard let path = defaultPath(environment: environment), FileManager.default.fileExists(atPath: path) else {
            return nil
        }
        return try read(path: path, schema: schema)
    }

    package static func read(path: String, schema: ConfigurationSchema) throws(ConfigurationError) -> ConfigurationFile {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : "cannot be read: " + String(cString: strerror(errno)).lowercased()
            throw ConfigurationError(path: path, reason)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else {
            throw ConfigurationError(path: path, "a folder, not a configuration file")
        }
        let data: Data
        do { data = try handle.readToEnd() ?? Data() } catch {
            throw ConfigurationError(path: path, "cannot be read: \(error.localizedDescription)")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigurationError(path: path, "not UTF-8 text")
        }
        return try ConfigurationFile(text: text, path: path, schema: schema)
    }

    // MARK: - Checking

    package init(text: String, path: String, schema: ConfigurationSchema) throws(ConfigurationError) {
        self.path = path
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let reason = error.description.prefix(1).lowercased() + error.description.dropFirst()
            throw ConfigurationError(path: path, line: error.source.begin.line,
                                     "not valid TOML (column \(error.source.begin.column)): \(reason)")
        } catch {
            throw ConfigurationError(path: path, "not valid TOML: \(error)")
        }
        var reader = Reader(schema: schema, lines: TOMLKeyLines(text))
        reader.read(table)
        guard reader.problems.isEmpty else { throw ConfigurationError(path: path, problems: reader.problems) }
        entries = reader.entries
        keyBindings = reader.bindings.sorted { ($0.view != nil ? 1 : 0, $0.line) < ($1.view != nil ? 1 : 0, $1.line) }
    }

    /// The arguments that give `command` this file's settings: the top level's, then its section's (which
    /// win, coming later).
    package func arguments(for command: SettingCommand) -> [String] {
        let applying = entries.filter { $0.setting.commands.contains(command) && ($0.section == nil || $0.section == command) }
        return applying.sorted { ($0.section == nil ? 0 : 1, $0.line) < ($1.section == nil ? 0 : 1, $1.line) }
            .flatMap(\.arguments)
    }

    /// Walks the parsed table, collecting settings, bindings and problems.
    private struct Reader {
        let schema: ConfigurationSchema
        let lines: TOMLKeyLines
        var entries: [Entry] = []
        var bindings: [KeyBindingSetting] = []
        var problems: [ConfigurationError.Problem] = []

        mutating func read(_ table: TOMLTable) {
            for (key, value) in table {
                if let command = SettingCommand(rawValue: key) {
                    guard let section = value.table else {
                        problem(at: [key], "[\(key)] must be a table of settings, not \(ConfigurationValue(value))")
                        continue
                    }
                    for (name, sectionValue) in section { setting(name, sectionValue, in: command) }
                } else if key == "keys", let rules = schema.keys {
                    readKeys(value, rules: rules)
                } else {
                    setting(key, value, in: nil)
                }
            }
        }

        mutating func setting(_ name: String, _ value: any TOMLValueConvertible, in section: SettingCommand?) {
            let path = (section.map { [$0.rawValue] } ?? []) + [name]
            let found = ConfigurationValue(value)
            guard let setting = schema.setting(named: name) else {
                if section == nil, found == .table {
                    let sections = SettingCommand.allCases.map(\.rawValue) + (schema.keys == nil ? [] : ["keys"])
                    problem(at: path, "unknown section [\(name)]"
                            + hint(NearestName.suggestion(for: name, among: sections).map { "[\($0)]" }))
                    return
                }
                let known = section.map { command in schema.settings.filter { $0.commands.contains(command) }.map(\.name) }
                    ?? schema.topLevelNames
                let place = section.map { " in [\($0.rawValue)]" } ?? ""
                problem(at: path, "unknown setting \"\(name)\"\(place)"
                        + hint(NearestName.suggestion(for: name, among: known).map { "\"\($0)\"" }))
                return
            }
            if let section, !setting.commands.contains(section) {
                let owners = setting.commands.sorted().map { "[\($0.rawValue)]" }.joined(separator: ", ")
                problem(at: path, "\(name) is not a setting of \(section.rawValue); it belongs in \(owners) or at the top")
                return
            }
            guard let arguments = setting.arguments(for: found) else {
                problem(at: path, "\(name) must be \(setting.expectation), not \(found)")
                return
            }
            entries.append(Entry(setting: setting, section: section, arguments: arguments, line: lines.line(of: path) ?? 0))
        }

        mutating func readKeys(_ value: any TOMLValueConvertible, rules: KeyBindingRules) {
            guard let table = value.table else {
                problem(at: ["keys"], "[keys] must be a table of \"KEY\" = \"ACTION\", not \(ConfigurationValue(value))")
                return
            }
            for (key, binding) in table {
                if rules.views.contains(key), let viewTable = binding.table {
                    for (viewKey, viewBinding) in viewTable {
                        bind(viewKey, viewBinding, view: key, path: ["keys", key, viewKey], rules: rules)
                    }
                } else {
                    bind(key, binding, view: nil, path: ["keys", key], rules: rules)
                }
            }
        }

        mutating func bind(_ key: String, _ value: any TOMLValueConvertible, view: String?, path: [String],
                           rules: KeyBindingRules) {
            if let reason = rules.checkKey(key) {
                problem(at: path, reason)
                return
            }
            guard case .string(let action) = ConfigurationValue(value) else {
                problem(at: path, "\"\(key)\" must name an action (or \"\(rules.unbound)\"), not \(ConfigurationValue(value))")
                return
            }
            let line = lines.line(of: path) ?? 0
            if action == rules.unbound {
                bindings.append(KeyBindingSetting(key: key, action: nil, view: view, line: line))
            } else if rules.actions.contains(action) {
                bindings.append(KeyBindingSetting(key: key, action: action, view: view, line: line))
            } else {
                problem(at: path, "\"\(key)\" = \"\(action)\": no such action"
                        + hint(NearestName.suggestion(for: action, among: rules.actions).map { "\"\($0)\"" }))
            }
        }

        private func hint(_ suggestion: String?) -> String {
            suggestion.map { "; did you mean \($0)?" } ?? ""
        }

        private mutating func problem(at path: [String], _ message: String) {
            problems.append(.init(line: lines.line(of: path), message: message))
        }
    }
}
