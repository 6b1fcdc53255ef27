import TesseraCore

/// Tessera's manual page: the command tree and key table, then the configuration file, where its files are
/// and what in the environment it reads.
package enum TesseraManual {
    package static func page(tool: ToolInfo, version: String, date: String = "",
                            keys: KeyBindings = .defaults) -> ManualPage {
        var page = ManualPage(tool: tool, version: version)
        page.date = date
        page.description = """
            Tessera shows images in a strip (or a grid) that scrolls sideways, decoding and scaling them on \
            background threads so that scrolling never waits, and one at a time in a single view. Folders are \
            watched for changes, http(s) URLs download in the background, and thumbnails are shared with other \
            programs through the freedesktop thumbnail cache. tessera view shows one image of any size, cut \
            into tiles and zoomable. Every key is listed under KEYS; a configuration file (CONFIGURATION) sets \
            the options' defaults and the keys.
            """
        page.defaultCommand = "browse"
        page.keys = keys.helpSections.map { section in
            ManualPage.Section(title: section.title,
                               entries: section.lines.map { ManualPage.Entry(term: $0.keys, text: $0.summary) })
        }
        page.keysHelpText = keys.helpText
        page.trailing = [configuration, files, environment]
        return page
    }

    /// What the configuration file holds, every setting listed from the table the file is checked against.
    static var configuration: ManualPage.Section {
        ManualPage.Section(
            title: "Configuration",
            intro: """
            Settings are read from $XDG_CONFIG_HOME/tessera/config.toml (~/.config/tessera/config.toml), or from \
            the file --config names; --no-config reads none. Each is the default of the command-line option of \
            the same name, and the option, when given, wins. A setting at the top applies to every command that \
            has the option, one in a [browse] or [view] section to that command alone. A flag is true or false \
            (watch = false is --no-watch). A file with an unknown setting, a value of the wrong kind or out of \
            range, or broken TOML is refused with the line of each problem, and the viewer does not start.
            """,
            entries: TesseraSettings.all.map { setting in
                let commands = setting.commands.sorted().map(\.rawValue).joined(separator: ", ")
                let expectation = setting.expectation.prefix(1).uppercased() + setting.expectation.dropFirst()
                return ManualPage.Entry(term: setting.name, text: "\(expectation) (\(commands)).")
            } + [ManualPage.Entry(
                term: "[keys], [keys.strip], [keys.single]",
                text: "\"KEY\" = \"ACTION\" binds a key (written as in KEYS) in both views or in one; "
                    + "\"\(TesseraSettings.keys.unbound)\" unbinds it. The actions: "
                    + TesseraSettings.keys.actions.joined(separator: ", ") + ".")],
            example: ["# ~/.config/tessera/config.toml", "rows = 2", "cell = \"320x240\"", "watch = true", "",
                      "[view]", "fade = 0", "", "[keys]", "\"ctrl+d\" = \"trash\"", "\"Delete\" = \"none\""])
    }

    static let files = ManualPage.Section(title: "Files", entries: [
        .init(term: "$XDG_CONFIG_HOME/tessera/config.toml",
              text: "The configuration file (~/.config/tessera/config.toml); see CONFIGURATION."),
        .init(term: "$XDG_CONFIG_HOME/tessera/key-handler",
              text: "Run by ctrl+x and then a key, as nsxiv's key-handler: the key as its argument, the marked "
                  + "(or selected) images on standard input, one path a line."),
        .init(term: "$XDG_CACHE_HOME/thumbnails",
              text: "The freedesktop thumbnail cache (~/.cache/thumbnails), shared with GNOME and KDE."),
        .init(term: "$XDG_CACHE_HOME/tessera/remote",
              text: "Copies of downloaded images, revalidated on the next run."),
        .init(term: "$XDG_CACHE_HOME/tessera/tiles",
              text: "Tile pyramids cut from images too large to show whole, reused by the next view."),
        .init(term: "PREFIX/share/tessera",
              text: "The viewer's own images (placeholder, error icon) and the samples shown when no path is given."),
    ])

    static let environment = ManualPage.Section(title: "Environment", entries: [
        .init(term: "XDG_CONFIG_HOME", text: "Where the configuration file and the key-handler are (default ~/.config)."),
        .init(term: "XDG_CACHE_HOME", text: "Where the caches go (default ~/.cache)."),
        .init(term: "XDG_DATA_HOME", text: "Its Trash folder takes what Delete moves away (default ~/.local/share)."),
        .init(term: "TESSERA_RESOURCES", text: "A folder to use instead of PREFIX/share/tessera."),
        .init(term: "TESSERA_LOG", text: "The log level on standard error: trace, debug, info, notice, warning (the default), error, critical."),
        .init(term: "WAYLAND_DISPLAY", text: "When set, the window is a Wayland one (X11 if Wayland cannot start); otherwise X11."),
        .init(term: "SDL_VIDEODRIVER",
              text: "SDL's video driver, over the choice above and --headless's: wayland, x11, or dummy to draw without a display."),
    ])
}
