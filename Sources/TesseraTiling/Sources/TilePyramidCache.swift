import Foundation
import TesseraCore
import TesseraFiles

/// Where pyramids cut from plain images are kept between runs: `$XDG_CACHE_HOME/tessera/tiles/KEY/`
/// (`~/.cache` when the variable is unset), one folder per image, keyed by the image's absolute path,
/// byte size and modification time, so an edited or replaced image is cut again and an unchanged one is
/// reused. Inside: `pyramid.dzi` and `pyramid_files/`, which the tile cutter writes atomically, so a
/// descriptor that exists belongs to a finished cut.
package struct TilePyramidCache: Sendable, Equatable {
    package let root: String
    package static let pyramidName = "pyramid"

    package init(root: String) {
        self.root = root
    }

    /// `$XDG_CACHE_HOME/tessera/tiles`, or `~/.cache/tessera/tiles`.
    package static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        }
        return base + "/tessera/tiles"
    }

    /// The folder for one version of one image. Pyramids are cut in sRGB; one cut with colour management
    /// off (`colourManaged` false) holds other pixels for a tagged image, and is kept apart.
    package func folder(forImageAt path: String, byteSize: Int, modified: Date, colourManaged: Bool = true) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let mtime = Int64((modified.timeIntervalSince1970 * 1000).rounded())
        let key = "\(absolute)\u{0}\(byteSize)\u{0}\(mtime)" + (colourManaged ? "" : "\u{0}as-decoded")
        return root + "/" + CacheFileName.md5Hex(key)
    }

    /// Names the source a pyramid is cut from apart from its version (size and time): the next cut of an
    /// edited image has the same source key, so it replaces the old pyramid (`DiskCacheJanitor`).
    package func sourceKey(forImageAt path: String, colourManaged: Bool = true) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return CacheFileName.md5Hex(absolute + (colourManaged ? "" : "\u{0}as-decoded"))
    }

    package func descriptorPath(inFolder folder: String) -> String {
        folder + "/" + Self.pyramidName + ".dzi"
    }

    /// The finished pyramid's descriptor for this image version, if one was cut before.
    package func existingDescriptor(forImageAt path: String, byteSize: Int, modified: Date,
                                   colourManaged: Bool = true) -> String? {
        let descriptor = descriptorPath(inFolder: folder(forImageAt: path, byteSize: byteSize, modified: modified,
                                                         colourManaged: colourManaged))
        return FileManager.default.fileExists(atPath: descriptor) ? descriptor : nil
    }
}
