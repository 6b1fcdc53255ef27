/// What a configuration file may hold: settings (the defaults of command-line options) at the top level or
/// in a command's section, and, when `keys` is given, key bindings in a `[keys]` table.
public struct ConfigurationSchema: Sendable {
    public var settings: [Setting]
    public var keys: KeyBindingRules?

    public init(settings: [Setting], keys: KeyBindingRules? = nil) {
        self.settings = settings
        self.keys = keys
    }

    func setting(named name: String) -> Setting? { settings.first { $0.name == name } }

    /// The names a top-level key may have: settings and section names.
    var topLevelNames: [String] {
        settings.map(\.name) + SettingCommand.allCases.map(\.rawValue) + (keys == nil ? [] : ["keys"])
    }
}

/// How `[keys]` is read: `"KEY" = "ACTION"` binds a key in every view, the same inside `[keys.VIEW]` in one
/// view only; the `unbound` value removes a key's binding.
public struct KeyBindingRules: Sendable {
    /// The actions' names, as bindings give them.
    public var actions: [String]
    /// The views that have a table of their own (`strip`, `single`).
    public var views: [String]
    public var unbound: String
    /// Nil when the text names a key as bindings spell them (`ctrl+d`, `Delete`, `<`), else the message
    /// saying why not.
    public var checkKey: @Sendable (String) -> String?

    public init(actions: [String], views: [String], unbound: String = "none",
                checkKey: @escaping @Sendable (String) -> String?) {
        self.actions = actions
        self.views = views
        self.unbound = unbound
        self.checkKey = checkKey
    }
}

/// One binding from the file.
public struct KeyBindingSetting: Sendable, Equatable {
    public var key: String
    /// Nil unbinds the key.
    public var action: String?
    /// The view it applies to; nil for every view.
    public var view: String?
    public var line: Int

    public init(key: String, action: String?, view: String?, line: Int) {
        self.key = key
        self.action = action
        self.view = view
        self.line = line
    }
}
