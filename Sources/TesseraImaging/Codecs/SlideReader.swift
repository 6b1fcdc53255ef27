import COpenSlide
import Foundation
import Synchronization
import TesseraCore

/// One whole-slide image open in OpenSlide: its vendor and levels, and any region of a level read as
/// B, G, R, A and reduced to the size asked. What `OpenSlideTileSource` reads tiles with, in process or in
/// a slide's own decode helper (`SlideHelperService`), so a tile is the same either way.
///
/// OpenSlide's objects are thread-safe, so readers share one; but an error (a corrupt tile) puts an object
/// in an error state for good, so the region that failed reports its error and the object is replaced by a
/// newly opened one for the regions after it (the old one closes when its last reader lets go).
package final class SlideReader: Sendable {
    let path: String
    /// What the slide is and which of its levels are used.
    package let facts: SlideFacts
    private let slide: Mutex<Slide>

    /// One open OpenSlide object, closed when the last region reading it is done.
    private final class Slide: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }

        deinit { openslide_close(pointer) }

        var error: String? { openslide_get_error(pointer).map { String(cString: $0) } }
    }

    /// Why a slide OpenSlide recognised cannot be read: OpenSlide's own words.
    package struct Failure: Error, Equatable {
        package var text: String
    }

    /// Opens `path` when OpenSlide recognises it as a format of its own (or as a generic tiled TIFF when
    /// `acceptGenericTIFF`); nil otherwise.
    package static func open(path: String, acceptGenericTIFF: Bool) throws(Failure) -> SlideReader? {
        guard let vendor = PathText.withCString(path, { openslide_detect_vendor($0) }).map({ String(cString: $0) }),
              acceptGenericTIFF || vendor != "generic-tiff" else { return nil }
        let slide = try openSlide(path)
        var levels: [SlideFacts.Level] = []
        for level in 0..<max(0, Int(openslide_get_level_count(slide.pointer))) {
            var width: Int64 = 0, height: Int64 = 0
            openslide_get_level_dimensions(slide.pointer, Int32(level), &width, &height)
            guard width > 0, height > 0, width <= Int32.max, height <= Int32.max else { continue }
            // OpenSlide 3.4 reads a level less than one tile high or wide as transparent: such a level is
            // left out, and the view reduces the level above it instead.
            if level > 0, let tile = tileSize(slide, level: level), width < tile.width || height < tile.height { continue }
            levels.append(SlideFacts.Level(index: level, size: PixelSize(width: Int(width), height: Int(height)),
                                           downsample: openslide_get_level_downsample(slide.pointer, Int32(level))))
        }
        guard !levels.isEmpty else { throw Failure(text: slide.error ?? "the slide has no levels") }
        return SlideReader(path: path, facts: SlideFacts(vendor: vendor, levels: levels), slide: slide)
    }

    private init(path: String, facts: SlideFacts, slide: Slide) {
        self.path = path
        self.facts = facts
        self.slide = Mutex(slide)
    }

    /// A level's tile size, from the properties OpenSlide sets for formats stored in tiles.
    private static func tileSize(_ slide: Slide, level: Int) -> PixelSize? {
        func property(_ name: String) -> Int? {
            openslide_get_property_value(slide.pointer, "openslide.level[\(level)].\(name)").flatMap { Int(String(cString: $0)) }
        }
        guard let width = property("tile-width"), let height = property("tile-height") else { return nil }
        return PixelSize(width: width, height: height)
    }

    private static func openSlide(_ path: String) throws(Failure) -> Slide {
        guard let pointer = PathText.withCString(path, { openslide_open($0) }) else { throw Failure(text: "OpenSlide cannot open the slide") }
        let slide = Slide(pointer)
        if let error = slide.error { throw Failure(text: error) }
        return slide
    }

    /// The region `width` x `height` of OpenSlide's level `level` whose top left corner is at (`x`, `y`)
    /// in the full image's pixels, reduced to `size`.
    package func read(x: Int, y: Int, level: Int, width: Int, height: Int, reducedTo size: PixelSize) throws(Failure) -> PixelBuffer {
        let current = slide.withLock { $0 }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBytes { raw in
            openslide_read_region(current.pointer, raw.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                  Int64(x), Int64(y), Int32(level), Int64(width), Int64(height))
        }
        if let error = current.error {
            replace(current)
            throw Failure(text: error)
        }
        // OpenSlide's ARGB words are B, G, R, A bytes in memory here, colour premultiplied by alpha.
        bytes.withUnsafeMutableBufferPointer { PixelConversion.unpremultiply($0) }
        return PixelScaler.scaled(PixelBuffer(width: width, height: height, bytes: bytes), to: size)
    }

    /// A slide object in its error state is swapped for a newly opened one (once, whichever region saw it
    /// first).
    private func replace(_ failed: Slide) {
        guard let fresh = try? Self.openSlide(path) else { return }
        slide.withLock { if $0 === failed { $0 = fresh } }
    }
}

/// What the tiled view opens a whole-slide image by: OpenSlide's name for its format and the levels used.
package struct SlideFacts: Sendable, Equatable, Codable {
    /// OpenSlide's level index, the level's size, and how many full-image pixels one of its pixels spans.
    package struct Level: Sendable, Equatable, Codable {
        package var index: Int
        package var size: PixelSize
        package var downsample: Double
    }

    /// What OpenSlide calls the format ("aperio", "hamamatsu", "mirax", "generic-tiff", ...).
    package var vendor: String
    /// The full image first.
    package var levels: [Level]

    /// Whether the facts can be what OpenSlide read (a helper's answer is checked before it is used).
    package var isPlausible: Bool {
        !levels.isEmpty && levels.allSatisfy { level in
            level.index >= 0 && level.size.width > 0 && level.size.height > 0 && level.size.width <= Int(Int32.max)
                && level.size.height <= Int(Int32.max) && level.downsample.isFinite && level.downsample >= 1
        }
    }
}
