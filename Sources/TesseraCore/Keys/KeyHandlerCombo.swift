/// The key combo passed to the key-handler as `$1`, spelt as nsxiv spells it: `[C-][M-][S-]KEY`, KEY an
/// X keysym name (`a`, `A`, `less`, `Return`, `Delete`, `F5`), so handlers written for nsxiv work as they
/// are.
///
/// nsxiv drops `S-` when Shift already made the key a different symbol (`A`, not `S-a`; `less`, not
/// `S-comma`) and keeps it otherwise (`S-Return`, `S-space`, `C-S-Delete`). A printable character is
/// always typed with Shift already applied, so `S-` goes only with named keys and the space bar.
public struct KeyHandlerCombo: Hashable, Sendable, CustomStringConvertible {
    /// The X keysym name.
    public let key: String
    public let control: Bool
    /// Alt (X's Mod1).
    public let alt: Bool
    public let shift: Bool

    /// A named key (an X keysym name such as `Return`, `Delete`, `Left`, `F5`, `space`) with modifiers.
    public init(key: String, control: Bool = false, alt: Bool = false, shift: Bool = false) {
        self.key = key
        self.control = control
        self.alt = alt
        self.shift = shift
    }

    /// The key that typed `character`, Shift already applied (`A`, `<`); nil for a character with no
    /// keysym name here (outside printable ASCII).
    public init?(typed character: Character, control: Bool = false, alt: Bool = false, shift: Bool = false) {
        guard let name = Self.keysymName(of: character) else { return nil }
        self.init(key: name, control: control, alt: alt, shift: shift && character == " ")
    }

    /// The argument: `C-` `M-` `S-` in that order, then the key.
    public var argument: String {
        (control ? "C-" : "") + (alt ? "M-" : "") + (shift ? "S-" : "") + key
    }

    public var description: String { argument }

    /// X's name for a printable ASCII character: letters and digits are their own names, the rest are
    /// spelt out (`space`, `comma`, `less`, `bar`, ...), as `XKeysymToString` returns them.
    public static func keysymName(of character: Character) -> String? {
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
