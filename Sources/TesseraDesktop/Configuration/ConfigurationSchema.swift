/// What a configuration file may hold: settings (the defaults of command-line options) at the top level or
/// in a command's section, and, when `keys` is given, key bindings in a `[keys]` table.
package struct ConfigurationSchema: Sendable {
    package var settings: [Setting]
    package var keys: KeyBindingRules?

    package init(settings: [Setting], keys: KeyBindingRules? = nil) {
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
package struct KeyBindingRules: Sendable {
    /// The actions' names, as bindings give them.
    package var actions: [String]
    /// The views that have a table of their own (`strip`, `single`).
    package var views: [String]
    package var unbound: String
    /// Nil when the text names a key as bindings spell them (`ctrl+d`, `Delete`, `<`), else the message
    /// saying why not.
    package var checkKey: @Sendable (String) -> String?

    package init(actions: [String], views: [String], unbound: String = "none",
                checkKey: @escaping @Sendable (String) -> String?) {
        self.actions = actions
        self.views = views
        self.unbound = unbound
        self.checkKey = checkKey
    }
}

/// One binding from the file.
package struct KeyBindingSetting: Sendable, Equatable {
    package var key: String
    /// Nil unbinds the key.
    package var action: String?
    /// The view it applies to; nil for every view.
    package var view: String?
    package var line: Int

    package init(key: String, action: String?, view: String?, line: Int) {
        self.key = key
        self.action = action
        self.view = view
        self.line = line
    }
}
