/// Tessera's manual page: the command tree and key table, then where its files are and what in the
/// environment it reads.
public enum TesseraManual {
    public static func page(tool: ToolInfo, version: String, date: String = "",
                            keys: [ManualPage.Section] = []) -> ManualPage {
        var page = ManualPage(tool: tool, version: version)
        page.date = date
        page.defaultCommand = "browse"
        page.keys = keys
        page.trailing = [files, environment]
        return page
    }

    static let files = ManualPage.Section(title: "Files", entries: [
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
        .init(term: "XDG_CACHE_HOME", text: "Where the caches go (default ~/.cache)."),
        .init(term: "TESSERA_RESOURCES", text: "A folder to use instead of PREFIX/share/tessera."),
        .init(term: "TESSERA_LOG", text: "The log level on standard error: trace, debug, info, notice, warning (the default), error, critical."),
        .init(term: "SDL_VIDEODRIVER", text: "SDL's video driver; dummy draws without a display, as --headless does."),
    ])
}
