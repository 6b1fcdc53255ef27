import Foundation
import TesseraFiles

/// Why a tile cut failed, with the path it concerns (the input, or the output for output problems).
///
/// `description` is the one line the command line prints after "tessera: ".
package struct TileCutError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    package enum Reason: Error, Sendable, Equatable {
        /// No file at the input path.
        case missing
        /// The input exists but cannot be read (strerror's text), or is not a regular file.
        case unreadable(String)
        /// The input has zero bytes.
        case empty
        /// The input's first bytes are no image format Tessera knows.
        case notAnImage
        /// The data ends before the image does.
        case truncated
        /// The decoder rejected the data (its message).
        case corrupt(String)
        /// A format that is not cut streaming and no fallback decoder handles (its name).
        case unsupportedFormat(String)
        /// An input that must be decoded whole (not JPEG/PNG, a progressive JPEG, an interlaced PNG) and is
        /// bigger than `TileCutterOptions.pixelLimitForWholeDecode`.
        case tooLargeForWholeDecode(format: String, width: Int, height: Int, limit: Int)
        /// The destination already holds a pyramid (or flat tiles) of this name and replacing was not asked.
        case outputExists
        /// Creating, writing or renaming output failed (strerror's text or the encoder's message).
        case outputFailed(String)
        /// The options make no sense (the message says which).
        case invalidOptions(String)
        /// `isCancelled` said so; nothing was left at the destination.
        case cancelled
        /// The decode helper reading the image crashed, ran out of its memory or time limit, or broke
        /// off (see `DecodingService`).
        case decoderFailed(DecodeHelperFailure)

        package var text: String {
            switch self {
            case .missing: "no such file"
            case .unreadable(let why): "cannot read: \(why)"
            case .empty: "empty file"
            case .notAnImage: "not an image (unrecognised format)"
            case .truncated: "truncated image (the file ends before the image does)"
            case .corrupt(let why): "corrupt image: \(why)"
            case .unsupportedFormat(let name): "\(name) images cannot be cut (JPEG and PNG can)"
            case .tooLargeForWholeDecode(let format, let w, let h, let limit):
                "\(format) is decoded whole and this one is \(w)x\(h) (\(Self.megapixels(w * h)), limit "
                    + "\(Self.megapixels(limit))); a baseline JPEG or non-interlaced PNG is cut in bounded memory"
            case .outputExists: "already exists"
            case .outputFailed(let why): "cannot write: \(why)"
            case .invalidOptions(let why): why
            case .cancelled: "cancelled"
            case .decoderFailed(let failure): failure.shortText
            }
        }

        static func megapixels(_ pixels: Int) -> String {
            let mp = Double(pixels) / 1_000_000
            return mp >= 10 || mp == mp.rounded() ? "\(Int(mp.rounded())) MP" : String(format: "%.1f MP", mp)
        }
    }

    package var description: String { path.isEmpty ? reason.text : "\(path): \(reason.text)" }
}

extension TileCutError.Reason {
    /// An input that could not be opened or read, in the cutter's words.
    package init(_ failure: ImageFile.Failure) {
        switch failure {
        case .missing: self = .missing
        case .unreadable(let why): self = .unreadable(why)
        case .notARegularFile: self = .unreadable("not a regular file")
        case .empty: self = .empty
        }
    }
}
