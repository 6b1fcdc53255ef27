import CTesseraLazyLibraries

/// The codec libraries Tessera loads on their first call rather than at start (libheif, libavif, libjxl,
/// librsvg, gdk-pixbuf, libtiff, libraw, OpenSlide; `tools/lazy-libraries.py` writes their stubs). Loading
/// them, with their constructors and dependencies, costs more than the rest of a start, and the viewer's own
/// process rarely calls them: decode helpers decode. A helper loads the ones it may call before it locks
/// itself down, since after that a library cannot be opened.
package enum CodecLibraries {
    /// Every one, by soname.
    package static let all: [String] = {
        var names: [String] = []
        while let name = tessera_lazy_library_name(Int32(names.count)) { names.append(String(cString: name)) }
        return names
    }()

    /// The libraries that reading `format` may call, by soname prefix. OpenSlide belongs to no format the
    /// loader sniffs: slides are opened by the slide helper, which loads everything.
    private static func prefixes(of format: ImageFormat) -> [String] {
        switch format {
        case .heif: ["libheif"]
        case .avif: ["libheif", "libavif"]
        case .jxl: ["libjxl"]
        case .svg: ["librsvg"]
        case .bmp: ["libgdk_pixbuf"]
        case .tiff: ["libtiff"]
        case .raw: ["libraw"]
        case .jpeg, .png, .gif, .webp, .unknown: []
        }
    }

    /// The sonames of the libraries that reading `format` may call.
    package static func libraries(of format: ImageFormat) -> [String] {
        named(prefixes(of: format))
    }

    /// OpenSlide's soname.
    package static var openSlide: [String] { named(["libopenslide"]) }

    /// The sonames that begin with one of `prefixes`, in the order of `all`.
    private static func named(_ prefixes: [String]) -> [String] {
        all.filter { name in prefixes.contains { name.hasPrefix($0) } }
    }

    /// The sonames of those loaded in this process now.
    package static func loaded() -> Set<String> {
        Set(all.filter(isLoaded))
    }

    /// Loads now the libraries that reading `formats` may call, or every one with nil; the sonames of those
    /// that could not be loaded (each has said why on stderr).
    @discardableResult
    package static func load(for formats: Set<ImageFormat>?) -> [String] {
        let wanted = formats.map { named($0.flatMap(prefixes(of:))) } ?? all
        return wanted.filter { tessera_lazy_library_load($0) != 0 }
    }

    /// Whether `soname` is loaded in this process.
    package static func isLoaded(_ soname: String) -> Bool {
        tessera_lazy_library_is_loaded(soname) != 0
    }
}
