import Foundation
import TesseraCore
import TesseraFiles

/// Decoding in this process: the decoders, readers and libraries are called here, on the caller's thread.
/// What a sandboxed helper runs on its side is this same code.
package struct InProcessDecoding: DecodingService {
    package init() {}

    package var isolatesLibraries: Bool { false }

    package func load(_ file: ImageFile, with loader: ImageLoader, fitting box: PixelSize?, convertingColour: Bool,
                     cancellation: DecodeCancellation?) throws(ImageLoadError.Reason) -> PixelBuffer {
        try loader.load(opened: file, fitting: box, cancellation: cancellation, convertingColour: convertingColour)
    }

    package func load(data: Data, name: String, with loader: ImageLoader,
                     fitting box: PixelSize?) throws(ImageLoadError.Reason) -> PixelBuffer {
        try loader.load(inMemory: data, name: name, fitting: box)
    }

    package func facts(_ kind: ImageFacts.Kind, of file: ImageFile) throws(ImageLoadError.Reason) -> ImageFacts {
        try ImageFacts.read(kind, of: file, name: file.path)
    }

    package func rows(of file: ImageFile, fallbackDecoders: [any ImageDecoding], pixelLimitForWholeDecode: Int,
                     priority: WorkerPriority,
                     isCancelled: (@Sendable () -> Bool)?) throws(TileCutError.Reason) -> any ScanlineSource {
        try ScanlineSources.open(file, fallbackDecoders: fallbackDecoders, pixelLimitForWholeDecode: pixelLimitForWholeDecode)
    }

    package func animationPlays(path: String, options: AnimationFeed.Options) -> AnimationPlays {
        AnimationPlays.overBytes(readData: { () throws -> Data in
            // A PNG's, WebP's or JPEG XL's first bytes say whether it is animated: a still is not read whole.
            if options.onlyAnimations, let head = ImageFile.head(ofFileAt: path, count: AnimatedImage.headLength),
               !AnimatedImage.needsWholeFile(ImageFormat.sniff(head)), !AnimatedImage.isAnimated(head) {
                throw AnimationPlays.NotAnimated()
            }
            return try Self.readFile(path, byteLimit: options.byteLimit)
        }, makeReader: { (data: Data) throws(ImageLoadError.Reason) -> any AnimationReading in
            try AnimatedImage.reader(for: data, pixelLimit: options.pixelLimit)
        }, onlyAnimations: options.onlyAnimations)
    }

    private static func readFile(_ path: String, byteLimit: Int) throws(ImageLoadError.Reason) -> Data {
        let file: ImageFile
        do throws(ImageFile.Failure) { file = try ImageFile(path: path) } catch { throw ImageLoadError.Reason(error) }
        guard file.size <= byteLimit else { throw .fileTooLarge(bytes: file.size, limit: byteLimit) }
        do throws(ImageFile.Failure) { return try file.readAll() } catch { throw ImageLoadError.Reason(error) }
    }

    package func isAnimated(fileAt path: String, byteLimit: Int) -> Bool {
        AnimatedImage.isAnimated(fileAt: path, byteLimit: byteLimit)
    }

    package func tiledTIFF(_ file: ImageFile) throws(ImageLoadError.Reason) -> any TiledTIFFReading {
        try InProcessTiledTIFF(file)
    }

    package func svgDrawing(_ file: ImageFile) throws(ImageLoadError.Reason) -> any SVGTileDrawing {
        try InProcessSVGDrawing(file)
    }

    package func jpegRegions(_ file: ImageFile) -> any JPEGRegionDecoding {
        InProcessJPEGRegions(file: SharedDescriptor(file))
    }

    package func slide(at path: String, acceptGenericTIFF: Bool) throws(ImageLoadError.Reason) -> (any SlideReading)? {
        do throws(SlideReader.Failure) {
            return try SlideReader.open(path: path, acceptGenericTIFF: acceptGenericTIFF).map(InProcessSlide.init)
        } catch {
            throw .decodeFailed(error.text)
        }
    }

    package func shutdown() {}

    package func stepBack(to priority: WorkerPriority) {}
}

/// A sequential JPEG's regions decoded here, by every worker at once on the one descriptor, read with pread.
struct InProcessJPEGRegions: JPEGRegionDecoding {
    let file: SharedDescriptor

    func read(_ region: PixelRegion, denominator: Int) throws(ImageLoadError.Reason) -> PixelBuffer {
        try JPEGRegionReader.read(fd: file.descriptor, name: file.path, denominator: denominator, region: region)
    }
}

/// A slide read by OpenSlide here; its refusal in the loader's words.
struct InProcessSlide: SlideReading {
    let reader: SlideReader

    var facts: SlideFacts { reader.facts }

    func read(x: Int, y: Int, level: Int, width: Int, height: Int,
              reducedTo size: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer {
        do throws(SlideReader.Failure) {
            return try reader.read(x: x, y: y, level: level, width: width, height: height, reducedTo: size)
        } catch {
            throw .decodeFailed(error.text)
        }
    }
}
