import Synchronization
import TesseraCore
import TesseraFiles

/// A tiled TIFF's regions read by libtiff here. libtiff's per-file state is not thread-safe and tiles load
/// on several workers at once, so each worker takes a reader of its own from a pool (readers share the one
/// descriptor, reading with pread); a reader that failed is not put back (libtiff's state after a decoding
/// error is not worth trusting).
final class InProcessTiledTIFF: TiledTIFFReading {
    let facts: TiledTIFFFacts
    private let file: TIFFReader.TIFFFile
    private let idle = Mutex<[TIFFRegionReader]>([])

    /// Reads `image`'s levels, taking over its descriptor.
    init(_ image: ImageFile) throws(ImageLoadError.Reason) {
        file = TIFFReader.TIFFFile(image)
        let reader = try TIFFReader(file)
        facts = try TiledTIFFFacts(reading: reader)
        idle.withLock { $0.append(TIFFRegionReader(reader, profile: facts.profile)) }
    }

    func read(_ region: PixelRegion, of place: TIFFReader.Directory.Place,
              reducedTo size: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer {
        let reader: TIFFRegionReader
        if let waiting = idle.withLock({ $0.popLast() }) {
            reader = waiting
        } else {
            reader = TIFFRegionReader(try TIFFReader(file), profile: facts.profile)
        }
        let pixels = try reader.read(region, of: place, reducedTo: size)
        idle.withLock { $0.append(reader) }
        return pixels
    }
}
