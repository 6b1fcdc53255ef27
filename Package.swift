// swift-tools-version:6.0
import PackageDescription

// TOMLKit makes Array, Dictionary, String and the number types conform to its TOMLValueConvertible, whose
// extension adds subscripts and properties (`[index]`, `.int`, `.table`) to all of them. Every module that
// loads TOMLKit, even through another's internal import, would see those members in its own expressions
// (an `[[Double]]` subscript compared with a literal picks TOMLKit's); in these targets a file sees only
// the members of the modules it imports itself.
let onlyImportedMembers: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "Tessera",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tessera", targets: ["tessera"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // TOML for the configuration file (toml++ underneath).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // C libraries, nothing else in these.
        // No pkgConfig for SDL2: its cflags carry -D_REENTRANT, which SwiftPM warns about; the shim's
        // <SDL2/...> includes find everything under /usr/include without it.
        .systemLibrary(name: "CSDL2", path: "Sources/C/CSDL2",
                       providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev"])]),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/C/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev", "libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/C/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/C/CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CExif", path: "Sources/C/CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // OpenSSL's libcrypto: MD5 for cache file names (a system library, so a fresh clone compiles no crypto).
        .systemLibrary(name: "CCrypto", path: "Sources/C/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Little CMS: colour management (embedded ICC profiles, CMYK, the display's profile) and the
        // descriptions of profiles for the image information.
        .systemLibrary(name: "CLCMS2", path: "Sources/C/CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // Cairo's pixel compositor (SIMD): a fading picture mixed over its placeholder on the CPU.
        .systemLibrary(name: "CPixman", path: "Sources/C/CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        // Xlib: the display's colour profile (a property of the root window).
        .systemLibrary(name: "CX11", path: "Sources/C/CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev"])]),
        // Xlib in C, where its names cannot collide with Tessera's: the display read before SDL starts, the
        // clipboard, and an SDL window's X background.
        .target(name: "CTesseraX11", dependencies: ["CX11", "CSDL2"], path: "Sources/C/CTesseraX11"),
        // zlib: a gzipped SVG is told from other gzip by its text; the tests deflate PNG chunks they write
        // by hand (libpng links its own for PNG itself).
        .systemLibrary(name: "CZlib", path: "Sources/C/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The decoders of the formats beyond JPEG, PNG and WebP, one library each (docs/FORMATS.md says why).
        .systemLibrary(name: "CHeif", path: "Sources/C/CHeif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJXL", path: "Sources/C/CJXL", providers: [.apt(["libjxl-dev"])]),
        // GLib's object system and cairo, for the C wrapper over librsvg and gdk-pixbuf below.
        .systemLibrary(name: "CGObject", path: "Sources/C/CGObject", pkgConfig: "gobject-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/C/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CGIF", path: "Sources/C/CGIF", providers: [.apt(["libgif-dev"])]),
        // libavif: animated AVIF (image sequences), which libheif 1.15 cannot read; stills stay with libheif.
        // No pkgConfig: its cflags carry -DAVIF_DLL, which SwiftPM refuses (it only marks exports on Windows).
        .systemLibrary(name: "CAVIF", path: "Sources/C/CAVIF", providers: [.apt(["libavif-dev"])]),
        // libraw_r, the thread-safe build. No pkgConfig: its link flags carry -fopenmp, which SwiftPM refuses.
        .systemLibrary(name: "CRaw", path: "Sources/C/CRaw", providers: [.apt(["libraw-dev"])]),
        // OpenSlide: whole-slide images (SVS, NDPI, MRXS, SCN, ...), read region by region in the tiled view.
        .systemLibrary(name: "COpenSlide", path: "Sources/C/COpenSlide", providers: [.apt(["libopenslide-dev"])]),
        // libjpeg and libpng (the tile cutter's row readers, the one PNG reader and writer): their error
        // handlers must longjmp, which Swift cannot.
        .target(name: "CTesseraJPEG", dependencies: ["CPNG"], path: "Sources/C/CTesseraJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // libtiff: its tag getter is variadic, which Swift cannot call, and its error handler is set per file.
        .target(name: "CTesseraTIFF", path: "Sources/C/CTesseraTIFF"),
        // librsvg (SVG) and gdk-pixbuf (BMP) behind plain C functions, so no GLib type or include path reaches
        // Swift. Their pkg-config files bring -pthread (through GIO), which SwiftPM refuses; GLib's own
        // include paths come from CGObject's and CCairo's pkg-config files, and these two fixed folders
        // are all that is left.
        .target(name: "CTesseraGLib", dependencies: ["CGObject", "CCairo"], path: "Sources/C/CTesseraGLib",
                cSettings: [.unsafeFlags(["-I/usr/include/librsvg-2.0", "-I/usr/include/gdk-pixbuf-2.0"])]),
        // The codec libraries only decode helpers need (libheif, libavif, libjxl, librsvg, gdk-pixbuf, libtiff,
        // libraw, OpenSlide) are loaded on their first call, not at start: their modules above link nothing,
        // and these stubs, written by tools/lazy-libraries.py, stand for the functions Tessera calls.
        .target(name: "CTesseraLazyLibraries", path: "Sources/C/CTesseraLazyLibraries",
                exclude: ["symbols", "generated/library-names.inc"]),
        // Linux file calls glibc declares only under _GNU_SOURCE (renameat2, pipe2), which Swift cannot see.
        // Exempi's error messages kept off the terminal (tessera_xmp_quiet.h says why).
        .target(name: "CTesseraXMPQuiet", path: "Sources/C/CTesseraXMPQuiet"),
        .target(name: "CTesseraFiles", path: "Sources/C/CTesseraFiles"),
        // libseccomp, descriptors passed over a socket (CMSG macros) and memfd_create: the decode helpers'
        // sandbox and their channel to the viewer.
        .systemLibrary(name: "CSeccomp", path: "Sources/C/CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
        .target(name: "CTesseraSandbox", dependencies: ["CSeccomp"], path: "Sources/C/CTesseraSandbox"),
        // Exempi (Adobe's XMP toolkit): star ratings read from and merged into XMP sidecars.
        .systemLibrary(name: "CExempi", path: "Sources/C/CExempi", pkgConfig: "exempi-2.0", providers: [.apt(["libexempi-dev"])]),

        // No C, no SDL: geometry, scrolling physics, layout, reuse, caches, scheduling, timing.
        .target(name: "TesseraCore"),
        // The user's files and nothing that decodes them: byte-exact file calls, listing, the folder
        // watcher, the trash, the key-handler, replacing a file in place, the disk caches' limit, the
        // ratings in XMP sidecars.
        .target(name: "TesseraFiles",
                dependencies: ["TesseraCore", "CTesseraFiles", "CCrypto", "CExempi", "CTesseraXMPQuiet",
                               .product(name: "Logging", package: "swift-log")]),
        // Decoders (one per format, over its own library), scaling, format sniffing. No SDL.
        .target(name: "TesseraImaging",
                dependencies: ["TesseraCore", "TesseraFiles", "CTurboJPEG", "CWebP", "CExif", "CTesseraJPEG",
                               "CTesseraFiles", "CLCMS2", "CZlib",
                               "CHeif", "CJXL", "CGIF", "CAVIF", "CRaw", "CTesseraTIFF", "CTesseraGLib", "COpenSlide",
                               "CTesseraLazyLibraries", .product(name: "Logging", package: "swift-log")]),
        // Everything tiled in one place: the pyramid's arithmetic and the view's tile planning (which tiles
        // to ask for, which to draw, their fades and store), the tile sources, and the streaming cutter.
        .target(name: "TesseraTiling",
                dependencies: ["TesseraCore", "TesseraFiles", "TesseraImaging",
                               .product(name: "Logging", package: "swift-log")]),
        // The decode helpers: the viewer's pool and `SandboxedDecoding` over it, the helper's side (its
        // lock-down, its servers), and the wire between them. The rest of the program sees only
        // `DecodingService`.
        .target(name: "TesseraSandbox",
                dependencies: ["TesseraCore", "TesseraFiles", "TesseraImaging", "TesseraTiling", "CTesseraSandbox",
                               .product(name: "Logging", package: "swift-log")]),
        // The only module that imports CSDL2: Swift classes owning SDL's windows, renderers, textures and
        // fonts, its events as a Swift enum. No other C type or pointer leaves it.
        .target(name: "TesseraSDL",
                dependencies: ["TesseraCore", "CSDL2", "CTesseraX11", .product(name: "Logging", package: "swift-log")]),
        // Windows, views and the frame loop, drawing through TesseraSDL.
        .target(name: "TesseraUI",
                dependencies: ["TesseraCore", "TesseraFiles", "TesseraImaging", "TesseraTiling", "TesseraSandbox", "TesseraRemote",
                               "TesseraSDL", "CPixman",
                               .product(name: "Logging", package: "swift-log")]),
        // Remote images: the download table over URLSession (FoundationNetworking), with a disk cache.
        // TesseraTiling: the remote pyramids' sources fetch through its `TileFetching`, which `HTTPFetcher` is.
        .target(name: "TesseraRemote",
                dependencies: ["TesseraCore", "TesseraFiles", "TesseraImaging", "TesseraTiling", .product(name: "Logging", package: "swift-log")]),
        // What makes Tessera an installed desktop application: the configuration file, the manual page, the
        // desktop entry.
        .target(name: "TesseraDesktop",
                dependencies: ["TesseraCore", "TesseraFiles", "TesseraImaging", "TesseraExperiment",
                               .product(name: "TOMLKit", package: "TOMLKit")],
                swiftSettings: onlyImportedMembers),
        // The experiment beside the product (docs/EXPERIMENT.md): the book's loading strategies, their
        // main-thread decodes and upload pacing, and every strategy by name for `--strategy`.
        .target(name: "TesseraExperiment", dependencies: ["TesseraCore"]),
        // The benchmarks beside the product: `tessera bench`'s runners, their statistics and tables.
        .target(name: "TesseraBench", dependencies: ["TesseraCore", "TesseraImaging"]),
        .executableTarget(name: "tessera",
                          dependencies: ["TesseraUI", "TesseraSDL", "TesseraImaging", "TesseraFiles", "TesseraTiling", "TesseraSandbox",
                                         "TesseraCore", "TesseraBench",
                                         "TesseraDesktop", "TesseraRemote", "TesseraExperiment",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "Logging", package: "swift-log")],
                          swiftSettings: onlyImportedMembers),

        // The fuzz target over sniffing, headers and every decoder: a replayer of inputs when built plainly,
        // libFuzzer's target under `make fuzz` (Tests/Fuzz/README.md).
        .executableTarget(name: "TesseraFuzz",
                          dependencies: ["TesseraImaging", "TesseraCore", .product(name: "Logging", package: "swift-log")],
                          path: "Tests/Fuzz/Harness"),

        .testTarget(name: "TesseraCoreTests", dependencies: ["TesseraCore"]),
        .testTarget(name: "TesseraTilingTests", dependencies: ["TesseraTiling", "TesseraCore"]),
        .testTarget(name: "TesseraExperimentTests", dependencies: ["TesseraExperiment", "TesseraCore"]),
        // CPNG, CLCMS2 and CZlib: fixtures written with libpng and zlib, and colour references and test
        // profiles made with lcms2, apart from the code under test. TesseraBench: its seeded random
        // generator, for noise that is the same on every run. CGIF: GIF fixtures written with giflib's own
        // encoder.
        // The user's files without the codecs: CTesseraFiles for the raw calls tests make themselves, CExempi
        // to look into the sidecars the ratings write, apart from the code under test.
        .testTarget(name: "TesseraFilesTests",
                    dependencies: ["TesseraFiles", "TesseraCore", "TesseraTestBasics", "CTesseraFiles", "CExempi"]),
        .testTarget(name: "TesseraImagingTests",
                    dependencies: ["TesseraTiling", "TesseraSandbox", "TesseraImaging", "TesseraFiles", "TesseraCore", "TesseraBench", "TesseraTestSupport", "TesseraTestBasics", "CPNG", "CLCMS2", "CJXLEncoder",
                                   "CZlib", "CGIF", "CTesseraFiles"]),
        // CX11: a pasting program written out request by request, for what xclip does not do (MULTIPLE, a
        // paster that stops halfway).
        .testTarget(name: "TesseraSDLTests", dependencies: ["TesseraSDL", "TesseraCore", "TesseraTestSupport", "CX11"]),
        // CX11: a test sets the root window's colour profile on Xvfb as colord would. CZlib: PNG chunks'
        // checksums in hand-made fixtures.
        .testTarget(name: "TesseraUITests",
                    dependencies: ["TesseraTiling", "TesseraSandbox", "TesseraUI", "TesseraSDL", "TesseraImaging", "TesseraFiles", "TesseraCore", "TesseraTestSupport", "TesseraRemote", "CPNG",
                                   "CX11", "CZlib"]),
        .testTarget(name: "TesseraDesktopTests", dependencies: ["TesseraDesktop", "TesseraCore", "TesseraFiles", "TesseraImaging"],
                    swiftSettings: onlyImportedMembers),
        .testTarget(name: "TesseraRemoteTests",
                    dependencies: ["TesseraRemote", "TesseraTiling", "TesseraCore", "TesseraFiles", "TesseraImaging", "TesseraTestSupport",
                                   "TesseraTestBasics"]),
        // TesseraUI: the viewer's script parser, which the scroll bench's inputs must pass.
        .testTarget(name: "TesseraBenchTests",
                    dependencies: ["TesseraBench", "TesseraCore", "TesseraImaging", "TesseraUI", "TesseraTestSupport"]),
        // Runs the built binary; depending on it makes `swift test` build it first.
        // TesseraDesktop: the settings a configuration file takes, to try each on the binary.
        // TesseraImaging, TesseraFiles and TesseraCore: the decode helper pool, run against the built binary's
        // helpers; the disk caches' janitor.
        .testTarget(name: "TesseraCLITests", dependencies: ["TesseraTiling", "TesseraSandbox", "tessera", "TesseraFuzz", "TesseraTestSupport", "TesseraDesktop",
                                                           "TesseraImaging", "TesseraFiles", "TesseraCore"],
                    swiftSettings: onlyImportedMembers),
        // What several test targets share: the loopback HTTP server, the sample images, Deep Zoom fixtures,
        // a headless SDL canvas, an Xvfb server, GIFs written with giflib, tiled TIFF files (and
        // TesseraTestBasics').
        // CTesseraTIFFWriter: tiled and pyramidal TIFF fixtures written with libtiff.
        .target(name: "TesseraTestSupport",
                dependencies: ["TesseraCore", "TesseraImaging", "TesseraTiling", "TesseraSDL", "TesseraTestBasics", "CGIF", "CTesseraTIFFWriter",
                               .product(name: "Logging", package: "swift-log")],
                path: "Tests/TesseraTestSupport"),
        // What needs neither codecs nor SDL: running a child process, a log that collects messages.
        .target(name: "TesseraTestBasics", dependencies: [.product(name: "Logging", package: "swift-log")],
                path: "Tests/TesseraTestBasics"),
        // libtiff's writer for those fixtures: its tag setter is variadic, which Swift cannot call.
        .target(name: "CTesseraTIFFWriter", path: "Tests/CTesseraTIFFWriter", linkerSettings: [.linkedLibrary("tiff")]),
        // libjxl's encoder, for JPEG XL fixtures cjxl cannot write; the viewer itself never encodes JPEG XL.
        .systemLibrary(name: "CJXLEncoder", path: "Tests/CJXLEncoder"),
    ],
    swiftLanguageModes: [.v6]
)
