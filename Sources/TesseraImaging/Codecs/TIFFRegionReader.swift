import Foundation
import TesseraCore

/// A libtiff reader of a tiled TIFF and the directory it has ready: reads a region of a directory, CMYK
/// turned into sRGB through the main image's profile, reduced to the size asked. What the tiled view runs
/// for each tile, in process (`TiledTIFFSource`'s readers) or in a decode helper
/// (`DecodeHelperRegionServer`), so a tile is the same either way. Used by one thread at a time.
package final class TIFFRegionReader: @unchecked Sendable {
    private let reader: TIFFReader
    /// The main image's ICC profile: what a CMYK directory's inks are converted through.
    let profile: [UInt8]?
    private var level: TIFFReader.Directory.Place?
    private var cmyk: CMYKConversion?

    init(_ reader: TIFFReader, profile: [UInt8]?) {
        self.reader = reader
        self.profile = profile
    }

    /// A reader of its own on `file`, the main image's profile read from its first directory.
    package convenience init(file: TIFFReader.TIFFFile) throws(ImageLoadError.Reason) {
        let reader = try TIFFReader(file)
        try reader.select(.top(0))
        self.init(reader, profile: reader.iccProfile)
    }

    /// `region` of the directory at `place`, as B, G, R, A, reduced to `size`. After a failure the reader
    /// is not worth trusting (libtiff's state after a decoding error): its owner drops it.
    package func read(_ region: PixelRegion, of place: TIFFReader.Directory.Place,
              reducedTo size: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer {
        if level != place {
            level = nil
            try reader.select(place)
            let samples = try reader.beginPixels()
            cmyk = samples == .cmyk ? CMYKConversion(profile: profile, inverted: false, name: "a CMYK TIFF") : nil
            level = place
        }
        let count = region.width * region.height
        var failure: ImageLoadError.Reason?
        // Every byte is written by the reader, or the buffer is thrown away.
        let bytes = [UInt8](unsafeUninitializedCapacity: count * 4) { storage, initialised in
            do throws(ImageLoadError.Reason) {
                try reader.readRegion(region, into: storage.baseAddress!)
                cmyk?.apply(storage.baseAddress!, count: count)
                initialised = storage.count
            } catch {
                failure = error
                initialised = 0
            }
        }
        if let failure { throw failure }
        return PixelScaler.scaled(PixelBuffer(width: region.width, height: region.height, bytes: bytes), to: size)
    }
}
