/// A key with its modifiers: what a key binding names, and what the key-handler gets as `$1`, spelt as
/// nsxiv spells it: `[C-][M-][S-]KEY`, KEY an X keysym name (`a`, `A`, `less`, `Return`, `Delete`, `F5`),
/// so handlers written for nsxiv work as they are.
///
/// nsxiv drops `S-` when Shift already made the key a different symbol (`A`, not `S-a`; `less`, not
/// `S-comma`) and keeps it otherwise (`S-Return`, `S-space`, `C-S-Delete`). A printable character is
/// always typed with Shift already applied, so `S-` goes only with named keys and the space bar.
package struct KeyCombo: Hashable, Sendable, CustomStringConvertible {
    /// The X keysym name.
    package let key: String
    package let control: Bool
    /// Alt (X's Mod1).
    package let alt: Bool
    package let shift: Bool

    /// A named key (an X keysym name such as `Return`, `Delete`, `Left`, `F5`, `space`) with modifiers.
    package init(key: String, control: Bool = false, alt: Bool = false, shift: Bool = false) {
        self.key = key
        self.control = control
        self.alt = alt
        self.shift = shift
    }

    /// The key that typed `character`, Shift already applied (`A`, `<`); nil for a character with no
    /// keysym name here (outside printable ASCII).
    package init?(typed character: Character, control: Bool = false, alt: Bool = false, shift: Bool = false) {
        guard let name = Self.keysymName(of: character) else { return nil }
        self.init(key: name, control: control, alt: alt, shift: shift && character == " ")
    }

    /// The argument: `C-` `M-` `S-` in that order, then the key.
    package var argument: String {
        (control ? "C-" : "") + (alt ? "M-" : "") + (shift ? "S-" : "") + key
    }

    package var description: String { argument }

    /// X's name for a printable ASCII character: letters and digits are their own names, the rest are
    /// spelt out (`space`, `comma`, `less`, `bar`, ...), as `XKeysymToString` returns them.
    package static func keysymName(of character: Character) -> String? {
        guard let ascii = character.asciiValue, (0x20...0x7E).contains(ascii) else { return nil }
        if character.isLetter || character.isNumber { return String(character) }
        return punctuationNames[Int(ascii) - 0x20]
    }

    /// 0x20 to 0x7E, letters and digits left empty.
    private static let punctuationNames: [String?] = {
        var names = [String?](repeating: nil, count: 0x7F - 0x20)
        let table: [(Character, String)] = [
            (" ", "space"), ("!", "exclam"), ("\"", "quotedbl"), ("#", "numbersign"), ("$", "dollar"),
            ("%", "percent"), ("&", "ampersand"), ("'", "apostrophe"), ("(", "parenleft"), (")", "parenright"),
            ("*", "asterisk"), ("+", "plus"), (",", "comma"), ("-", "minus"), (".", "period"), ("/", "slash"),
            (":", "colon"), (";", "semicolon"), ("<", "less"), ("=", "equal"), (">", "greater"), ("?", "question"),
            ("@", "at"), ("[", "bracketleft"), ("\\", "backslash"), ("]", "bracketright"), ("^", "asciicircum"),
            ("_", "underscore"), ("`", "grave"), ("{", "braceleft"), ("|", "bar"), ("}", "braceright"),
            ("~", "asciitilde"),
        ]
        for (character, name) in table { names[Int(character.asciiValue!) - 0x20] = name }
        return names
    }()
}

// MARK: - Spelling in bindings

extension KeyCombo {
    /// Reads a key as a person writes it in a binding: modifiers `ctrl+`, `alt+`, `shift+` (any case; nsxiv's
    /// `C-`, `M-`, `S-` too), then one character as typed (`m`, `M`, `<`, `|`) or a key's name, any case
    /// (`Delete`, `Enter`, `Esc`, `BackSpace`, `Tab`, `Space`, `Left`, `PageUp`, `Home`, `F5`, or a
    /// character's X name such as `less` or `bar`). `shift+m` is `M`, as typing it gives.
    package init(parsing text: String) throws(KeyComboError) {
        var rest = Substring(text.trimmingSpaces)
        var control = false, alt = false, shift = false
        while true {
            let lower = rest.lowercased()
            if let modifier = Self.modifierPrefixes.first(where: { lower.hasPrefix($0.prefix) && rest.count > $0.prefix.count }) {
                switch modifier.flag {
                case .control: control = true
                case .alt: alt = true
                case .shift: shift = true
                }
                rest = rest.dropFirst(modifier.prefix.count)
            } else if rest.count > 2, rest.dropFirst().first == "-", let flag = rest.first,
                      ["C", "M", "S"].contains(flag) {
                switch flag {
                case "C": control = true
                case "M": alt = true
                default: shift = true
                }
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        guard !rest.isEmpty else { throw KeyComboError(text: text, reason: "names no key") }
        if rest.count == 1, let character = rest.first {
            let typed = shift && character.isLetter ? Character(character.uppercased()) : character
            guard let combo = KeyCombo(typed: typed, control: control, alt: alt, shift: shift) else {
                throw KeyComboError(text: text, reason: "is not a key on the keyboard (printable ASCII or a key's name)")
            }
            self = combo
            return
        }
        guard let name = Self.keyName(String(rest)) else {
            throw KeyComboError(text: text, reason: "names no key (a character, or a name such as Delete, Enter, Left, PageUp, F5)")
        }
        if let character = Self.character(named: name), character != " " {
            self.init(typed: character, control: control, alt: alt, shift: shift)!
        } else {
            self.init(key: name, control: control, alt: alt, shift: shift)
        }
    }

    /// The combo as `--help` and the README print it and a binding may spell it: `ctrl+x`, `<`, `M`,
    /// `Delete`, `PageUp`, `shift+Enter`.
    package var spelling: String {
        var shown = Self.spelledNames[key] ?? key
        if let character = Self.character(named: key), character != " " { shown = String(character) }
        return (control ? "ctrl+" : "") + (alt ? "alt+" : "") + (shift ? "shift+" : "") + shown
    }

    private enum Modifier { case control, alt, shift }

    private static let modifierPrefixes: [(prefix: String, flag: Modifier)] = [
        ("ctrl+", .control), ("control+", .control), ("alt+", .alt), ("shift+", .shift),
    ]

    /// Keys that type no character, by their X keysym names.
    static let namedKeys = ["Return", "Escape", "BackSpace", "Tab", "Delete", "Insert", "Home", "End", "Prior",
                            "Next", "Left", "Right", "Up", "Down", "space"] + (1...12).map { "F\($0)" }

    /// Other names people use for them.
    private static let aliases = ["enter": "Return", "esc": "Escape", "pageup": "Prior", "page_up": "Prior",
                                  "pagedown": "Next", "page_down": "Next", "del": "Delete", "ins": "Insert"]

    /// How `spelling` names keys whose X names are not what people call them.
    private static let spelledNames = ["Return": "Enter", "Escape": "Esc", "BackSpace": "Backspace", "Prior": "PageUp",
                                       "Next": "PageDown", "space": "Space"]

    /// The X keysym name `name` means, any case: a named key, an alias, or a character's X name.
    private static func keyName(_ name: String) -> String? {
        let lower = name.lowercased()
        if let alias = aliases[lower] { return alias }
        if let named = namedKeys.first(where: { $0.lowercased() == lower }) { return named }
        return characterNames.first { $0.key.lowercased() == lower }?.key
    }

    /// The character an X name stands for (`less` is `<`), for names of printable punctuation.
    private static func character(named name: String) -> Character? { characterNames[name] }

    private static let characterNames: [String: Character] = {
        var names: [String: Character] = [:]
        for ascii in 0x20...0x7E {
            let character = Character(Unicode.Scalar(UInt8(ascii)))
            guard !character.isLetter, !character.isNumber, let name = keysymName(of: character) else { continue }
            names[name] = character
        }
        return names
    }()
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
