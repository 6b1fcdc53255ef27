import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// Decoding in the sandboxed helpers of `pool`: every C library that reads a file runs there, and this
/// process parses a file's bytes with memory-safe Swift alone. Each answer comes back as in process (the
/// same values, the same refusals); a helper that crashes, is killed by its seccomp filter, or runs out of
/// memory or time fails that one request (`.helperFailed`) and is replaced.
///
/// A decode, a fact and a region are one request each on whichever helper is idle; the tile cutter's rows
/// and an animation's frames hold one helper for the exchange's length; a slide gets a helper of its own,
/// since OpenSlide opens it by path.
package struct SandboxedDecoding: DecodingService {
    package let pool: DecodeHelperPool

    package init(pool: DecodeHelperPool) {
        self.pool = pool
    }

    package var isolatesLibraries: Bool { true }

    package func load(_ file: ImageFile, with loader: ImageLoader, fitting box: PixelSize?, convertingColour: Bool,
                     cancellation: DecodeCancellation?) throws(ImageLoadError.Reason) -> PixelBuffer {
        // A request under way is not stopped: a cancelled decode is one not sent.
        do { try cancellation.check() } catch { throw .cancelled }
        return try pool.load(file, loader: loader, fitting: box, convertingColour: convertingColour)
    }

    package func load(data: Data, name: String, with loader: ImageLoader,
                     fitting box: PixelSize?) throws(ImageLoadError.Reason) -> PixelBuffer {
        try pool.load(data: data, name: name, loader: loader, fitting: box)
    }

    package func facts(_ kind: ImageFacts.Kind, of file: ImageFile) throws(ImageLoadError.Reason) -> ImageFacts {
        try pool.facts(kind, of: file)
    }

    package func rows(of file: ImageFile, fallbackDecoders: [any ImageDecoding], pixelLimitForWholeDecode: Int,
                     priority: WorkerPriority,
                     isCancelled: (@Sendable () -> Bool)?) throws(TileCutError.Reason) -> any ScanlineSource {
        try HelperScanlineSource.open(file, pool: pool, pixelLimitForWholeDecode: pixelLimitForWholeDecode,
                                      priority: priority, isCancelled: isCancelled)
    }

    package func animationPlays(path: String, options: AnimationFeed.Options) -> AnimationPlays {
        let pool = pool
        return AnimationPlays(first: { () throws(ImageLoadError.Reason) -> (any AnimationReading)? in
            try HelperAnimationReader.open(path: path, options: options, pool: pool)
        }, again: { (reader: any AnimationReading) throws(ImageLoadError.Reason) -> any AnimationReading in
            guard let helperReader = reader as? HelperAnimationReader else { throw .decodeFailed("no frames exchange") }
            return try helperReader.rewound()
        })
    }

    package func isAnimated(fileAt path: String, byteLimit: Int) -> Bool {
        HelperAnimationReader.isAnimated(fileAt: path, byteLimit: byteLimit, pool: pool)
    }

    package func tiledTIFF(_ file: ImageFile) throws(ImageLoadError.Reason) -> any TiledTIFFReading {
        guard case .tiledTIFF(let facts) = try pool.facts(.tiledTIFF, of: file), facts.isPlausible else {
            throw .helperFailed(.unavailable("a wrong answer"))
        }
        return HelperTiledTIFF(facts: facts, pool: pool, file: SharedDescriptor(file))
    }

    package func svgDrawing(_ file: ImageFile) throws(ImageLoadError.Reason) -> any SVGTileDrawing {
        guard case .drawingSize(let size) = try pool.facts(.drawingSize, of: file), size.width > 0, size.height > 0 else {
            throw .helperFailed(.unavailable("a wrong answer"))
        }
        return HelperSVGDrawing(size: size, pool: pool, file: SharedDescriptor(file))
    }

    package func jpegRegions(_ file: ImageFile) -> any JPEGRegionDecoding {
        HelperJPEGRegions(pool: pool, file: SharedDescriptor(file))
    }

    package func slide(at path: String, acceptGenericTIFF: Bool) throws(ImageLoadError.Reason) -> (any SlideReading)? {
        let helper = SlideHelper(path: path, pool: pool, acceptGenericTIFF: acceptGenericTIFF)
        guard let facts = try helper.open() else { return nil }
        return HelperSlide(facts: facts, helper: helper)
    }

    package func shutdown() { pool.shutdown() }

    package func stepBack(to priority: WorkerPriority) {
        pool.lowerPriority(to: priority)
        pool.wakeDormantHelpers()
    }
}

/// A tiled TIFF's regions read by the pool's helpers, the file (kept open here) attached to each request.
struct HelperTiledTIFF: TiledTIFFReading {
    let facts: TiledTIFFFacts
    let pool: DecodeHelperPool
    let file: SharedDescriptor

    func read(_ region: PixelRegion, of place: TIFFReader.Directory.Place,
              reducedTo size: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer {
        try pool.tiffRegion(region, of: place, reducedTo: size, in: file)
    }
}

/// An SVG's tiles drawn by the pool's helpers, the file (kept open here) attached to each request; a helper
/// keeps the parsed document for the tiles after it.
struct HelperSVGDrawing: SVGTileDrawing {
    let size: PixelSize
    let pool: DecodeHelperPool
    let file: SharedDescriptor

    func draw(_ region: PixelRegion, ofDrawing drawing: (width: Double, height: Double)) throws(ImageLoadError.Reason) -> PixelBuffer {
        try pool.svgTile(region, ofDrawing: drawing, in: file)
    }
}

/// A JPEG's regions decoded by the pool's helpers, the file (kept open here) attached to each request.
struct HelperJPEGRegions: JPEGRegionDecoding {
    let pool: DecodeHelperPool
    let file: SharedDescriptor

    func read(_ region: PixelRegion, denominator: Int) throws(ImageLoadError.Reason) -> PixelBuffer {
        try pool.jpegRegion(region, denominator: denominator, in: file)
    }
}

/// A slide read by its own helper.
struct HelperSlide: SlideReading {
    let facts: SlideFacts
    let helper: SlideHelper

    func read(x: Int, y: Int, level: Int, width: Int, height: Int,
              reducedTo size: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer {
        try helper.region(x: x, y: y, level: level, width: width, height: height, reducedTo: size)
    }
}

extension SandboxedDecoding {
    /// Decoding in `pool`'s helpers, or in this process when there is no pool (`--decode-in-process`).
    package static func service(in pool: DecodeHelperPool?) -> any DecodingService {
        guard let pool else { return InProcessDecoding() }
        return SandboxedDecoding(pool: pool)
    }
}
