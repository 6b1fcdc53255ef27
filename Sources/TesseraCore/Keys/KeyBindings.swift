/// Which key does what, in the strip and in the single view: the one table the viewer, `--help`, the
/// README and the man page read, and that a configuration file overrides. The defaults follow nsxiv
/// where it has a key.
package struct KeyBindings: Sendable, Equatable {
    /// Where a key is pressed.
    package enum View: String, CaseIterable, Sendable {
        case strip, single
    }

    /// Where a binding applies.
    package enum Scope: String, CaseIterable, Sendable {
        case both, strip, single

        var views: [View] {
            switch self {
            case .both: View.allCases
            case .strip: [.strip]
            case .single: [.single]
            }
        }
    }

    /// Each view's bindings, in the order they were made (the help lists keys in that order).
    private var strip: [Binding] = []
    private var single: [Binding] = []

    private struct Binding: Sendable, Equatable {
        var combo: KeyCombo
        var action: ViewerAction
    }

    /// No key bound.
    package init() {}

    package static let defaults: KeyBindings = {
        var bindings = KeyBindings()
        func bind(_ keys: [String], _ action: ViewerAction, _ scope: Scope = .both) {
            for key in keys { bindings.bind(try! KeyCombo(parsing: key), to: action, in: scope) }
        }
        bind(["n"], .next)
        bind(["Space"], .next, .strip)
        bind(["Space"], .pauseOrNext, .single)
        bind(["ctrl+Space"], .pause, .single)
        bind(["p", "Backspace"], .previous)
        bind(["g", "Home"], .first)
        bind(["G", "End"], .last)
        bind(["Left", "h"], .left)
        bind(["Right", "l"], .right)
        bind(["Up", "k"], .up)
        bind(["Down", "j"], .down)
        bind(["PageUp"], .pageBack, .strip)
        bind(["PageDown"], .pageForward, .strip)
        bind(["PageUp"], .previous, .single)
        bind(["PageDown"], .next, .single)
        bind(["Enter"], .open, .strip)
        bind(["Esc", "Enter"], .close, .single)
        bind(["q"], .quit)
        bind(["Esc"], .quit, .strip)
        bind(["f"], .fullscreen)
        bind(["i"], .info)
        bind(["m"], .mark)
        bind(["M"], .invertMarks)
        bind(["u"], .clearMarks)
        bind(["N"], .nextMark)
        bind(["P"], .previousMark)
        bind(["ctrl+x"], .keyHandler)
        bind(["Delete"], .trash)
        bind(["ctrl+z"], .undo)
        bind(["<"], .rotateLeft)
        bind([">"], .rotateRight)
        bind(["|"], .flipHorizontal)
        bind(["_"], .flipVertical)
        bind(["o"], .sort)
        bind(["s"], .slideshow)
        bind(["y"], .copyPath)
        bind(["Y"], .copyImage)
        bind(["ctrl+c"], .copyPicture)
        bind(["+", "="], .zoomIn, .single)
        bind(["-"], .zoomOut, .single)
        bind(["0"], .fit, .single)
        bind(["1"], .actualSize, .single)
        bind(["]"], .nextPage, .single)
        bind(["["], .previousPage, .single)
        bind(["c"], .compare)
        bind(["Tab"], .nextPane, .single)
        bind(["z"], .lockPanes, .single)
        bind(["e"], .clipping, .single)
        bind(["ctrl+1"], .rate1)
        bind(["ctrl+2"], .rate2)
        bind(["ctrl+3"], .rate3)
        bind(["ctrl+4"], .rate4)
        bind(["ctrl+5"], .rate5)
        bind(["ctrl+0"], .clearRating)
        bind(["ctrl+r"], .reject)
        bind(["F"], .ratingFilter)
        bind(["t"], .filmStrip, .single)
        bind(["r"], .retryTiles, .single)
        return bindings
    }()

    /// What `combo` does in `view`; nil when it is bound to nothing there.
    package func action(for combo: KeyCombo, in view: View) -> ViewerAction? {
        bindings(of: view).first { $0.combo == combo }?.action
    }

    /// The keys bound to `action` in `view`, in the order they were bound.
    package func keys(for action: ViewerAction, in view: View) -> [KeyCombo] {
        bindings(of: view).filter { $0.action == action }.map(\.combo)
    }

    /// Binds `combo` to `action` in `scope`, replacing what it did there; nil unbinds it.
    package mutating func bind(_ combo: KeyCombo, to action: ViewerAction?, in scope: Scope = .both) {
        for view in scope.views {
            var list = bindings(of: view)
            list.removeAll { $0.combo == combo }
            if let action { list.append(Binding(combo: combo, action: action)) }
            switch view {
            case .strip: strip = list
            case .single: single = list
            }
        }
    }

    private func bindings(of view: View) -> [Binding] {
        switch view {
        case .strip: strip
        case .single: single
        }
    }

    // MARK: - Help

    /// The keys for `--help`, the README and the man page, in `ViewerAction`'s order: keys that do the same
    /// in both views under "Both views", the rest under the view they belong to.
    package var helpSections: [(title: String, lines: [(keys: String, summary: String)])] {
        var both: [(String, String)] = [], stripOnly: [(String, String)] = [], singleOnly: [(String, String)] = []
        func add(_ keys: [KeyCombo], _ summary: String, to section: inout [(String, String)]) {
            if !keys.isEmpty { section.append((keys.map(\.spelling).joined(separator: ", "), summary)) }
        }
        for action in ViewerAction.allCases {
            var stripKeys = keys(for: action, in: .strip), singleKeys = keys(for: action, in: .single)
            let stripSummary = action.summary(in: .strip), singleSummary = action.summary(in: .single)
            if stripSummary == singleSummary {
                let shared = stripKeys.filter(singleKeys.contains)
                add(shared, stripSummary, to: &both)
                stripKeys.removeAll(where: shared.contains)
                singleKeys.removeAll(where: shared.contains)
            }
            add(stripKeys, stripSummary, to: &stripOnly)
            add(singleKeys, singleSummary, to: &singleOnly)
        }
        return [("Both views", both), ("Strip", stripOnly), ("Single view", singleOnly)]
            .filter { !$0.1.isEmpty }
            .map { (title: $0.0, lines: $0.1.map { (keys: $0.0, summary: $0.1) }) }
    }

    /// `helpSections` as `--help` prints them: a title line, then the keys in a column and what they do.
    package var helpText: String {
        let sections = helpSections
        let width = sections.flatMap(\.lines).map(\.keys.count).max() ?? 0
        return sections.map { section in
            ([section.title + ":"] + section.lines.map { line in
                "  " + line.keys + String(repeating: " ", count: width - line.keys.count + 2) + line.summary
            }).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
