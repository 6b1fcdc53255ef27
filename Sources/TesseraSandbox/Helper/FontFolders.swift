import TesseraCore
import TesseraFiles
import TesseraImaging
/// The folders fontconfig reads: its configuration, the system's and the user's fonts, and its caches.
/// A locked-down decode helper may open files below these read-only and nowhere else: librsvg finds and
/// opens the font an SVG's text names when it draws it, which no warm-up can foresee for every font.
enum FontFolders {
    static func readable(environment: [String: String]) -> [String] {
        var folders = ["/etc/fonts", "/usr/share/fonts", "/usr/local/share/fonts", "/var/cache/fontconfig",
                       "/usr/share/fontconfig"]
        let home = environment["HOME"]
        if let home { folders.append(home + "/.fonts") }
        if let data = environment["XDG_DATA_HOME"] ?? home.map({ $0 + "/.local/share" }) { folders.append(data + "/fonts") }
        if let cache = environment["XDG_CACHE_HOME"] ?? home.map({ $0 + "/.cache" }) { folders.append(cache + "/fontconfig") }
        if let config = environment["XDG_CONFIG_HOME"] ?? home.map({ $0 + "/.config" }) { folders.append(config + "/fontconfig") }
        return folders
    }
}
