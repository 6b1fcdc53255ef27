import Foundation
import TesseraCore
import TesseraFiles

/// `ImageLoader` with the freedesktop thumbnail cache in front of it: the one loader the viewer uses.
///
/// For a request whose box fits a thumbnail size (longer side ≤ 1024):
/// 1. a valid thumbnail of that size or larger, made by us or by a file manager, is read (a small PNG)
///    and shrunk to the box: no photo is decoded;
/// 2. otherwise the original is decoded once, at the thumbnail size (shrinking on load where the decoder
///    can), that image is saved as the thumbnail, and the box is fitted from it.
///
/// Bigger requests (the full-window view) and `store == nil` go straight to the loader. Errors are the
/// loader's; an original that failed because of its content (truncated, undecodable) is recorded in the
/// cache's failure folder and not decoded again until it changes.
///
/// Thumbnails on disk are sRGB, as the standard's readers assume: a tagged image's thumbnail is converted
/// to sRGB before it is saved, and one read back is taken as sRGB and converted to the display's colour
/// space (nothing to do on an sRGB display). With colour management off (the loader's `colour` nil),
/// thumbnails are read as they are and a tagged image's is not written: its unconverted pixels would
/// be wrong for every other reader of the cache.
package struct ThumbnailingLoader: Sendable {
    package let loader: ImageLoader
    package let store: ThumbnailStore?

    package init(loader: ImageLoader, store: ThumbnailStore?) {
        self.loader = loader
        self.store = store
    }

    /// The image at `path`, fitted to `box` (aspect kept, never enlarged); nil = full size.
    package func load(path: String, fitting box: PixelSize?,
                     cancellation: DecodeCancellation? = nil) throws(ImageLoadError) -> PixelBuffer {
        // A thumbnail is of the image a file shows, its first.
        guard loader.page == 0, let store, let box, let size = ThumbnailSize.smallest(covering: box),
              let original = store.original(atPath: path) else {
            return try loader.load(path: path, fitting: box, cancellation: cancellation)
        }
        if let thumbnail = store.thumbnail(for: original, atLeast: size) {
            var shown = PixelScaler.fit(thumbnail, in: box)
            loader.colour?.convert(&shown, from: .sRGB, name: path)
            return shown
        }
        if let recorded = store.recordedFailure(for: original) {
            throw ImageLoadError(path: path, reason: Self.reason(fromRecord: recorded))
        }
        // To an sRGB display the loader converts (in its decode helper when it has one, so the image's
        // profile is parsed there); another display needs the image's own colour space back, below.
        let loaderConverts = loader.colour?.isToSRGB == true
        var thumbnail: PixelBuffer
        do {
            thumbnail = try loader.load(path: path, fitting: size.box, cancellation: cancellation,
                                        convertingColour: loaderConverts)
        } catch {
            if let record = Self.record(for: error.reason) { store.recordFailure(for: original, reason: record) }
            throw error
        }
        // A damaged file's picture is not kept: decoded again next time, its cell says again that it is
        // damaged, and a repaired file is seen whole.
        let keeps = thumbnail.damage == nil
        guard let colour = loader.colour else {
            if keeps && !thumbnail.declaresColourSpace { store.save(thumbnail, for: original, size: size) }
            return Self.fit(thumbnail, in: box)
        }
        if loaderConverts {
            if keeps { store.save(thumbnail, for: original, size: size) }
            return Self.fit(thumbnail, in: box)
        }
        let declared = thumbnail.declaredColourSpace
        // Another display: sRGB for the disk and the display's own from the same decode, each converted
        // once from the image's colour space, so the display keeps colours sRGB cannot hold.
        if keeps {
            var stored = thumbnail
            colour.toSRGB.convert(&stored, from: declared, name: path)
            store.save(stored, for: original, size: size)
        }
        var shown = Self.fit(thumbnail, in: box)
        colour.convert(&shown, from: declared, name: path)
        return shown
    }

    /// `pixels` fitted to `box`, still saying what they say of their file (damage, more images).
    private static func fit(_ pixels: PixelBuffer, in box: PixelSize) -> PixelBuffer {
        var fitted = PixelScaler.fit(pixels, in: box)
        fitted.keepFileFacts(of: pixels)
        return fitted
    }

    /// The working memory `load(path:fitting:)` is estimated to hold (see `DecodeMemory`): little when a
    /// thumbnail of the size is on disk (only its presence is looked at, so a stale one is estimated as
    /// found), otherwise the original's decode at the size it is decoded to.
    package func decodeMemoryEstimate(path: String, fitting box: PixelSize?) -> Int {
        guard let store, let box, let size = ThumbnailSize.smallest(covering: box),
              let original = store.original(atPath: path) else {
            return DecodeMemory.estimate(path: path, fitting: box, decoding: loader.decoding)
        }
        let onDisk = ThumbnailSize.allCases.contains { candidate in
            candidate >= size && POSIXFiles.access(store.path(for: original, size: candidate), R_OK) == 0
        }
        if onDisk { return DecodeMemory.estimate(header: nil, fileBytes: 0, fitting: size.box) }
        return DecodeMemory.estimate(path: path, fitting: size.box, decoding: loader.decoding)
    }

    /// Only failures that are the file's own fault are recorded; the rest (too many pixels for this
    /// run's limit, permissions, a missing decoder, a decode helper's death, which may be the machine's
    /// memory or load) may not happen next time.
    static func record(for reason: ImageLoadError.Reason) -> String? {
        switch reason {
        case .truncated: "truncated"
        case .decodeFailed(let message): "decode: " + message
        case .missing, .unreadable, .empty, .notAnImage, .unsupportedFormat, .tooLarge, .fileTooLarge, .cancelled,
             .helperFailed: nil
        }
    }

    static func reason(fromRecord record: String) -> ImageLoadError.Reason {
        if record == "truncated" { return .truncated }
        if record.hasPrefix("decode: ") { return .decodeFailed(String(record.dropFirst("decode: ".count))) }
        return .decodeFailed(record.isEmpty ? "could not be thumbnailed" : record)
    }
}
