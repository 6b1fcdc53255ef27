import Foundation
import TesseraFiles

/// Why an image could not be shown, with the path it happened to.
///
/// A carousel of thousands of files will hit broken ones; each becomes an error cell rather than a crash
/// or a silent hole, so every reason has a short text meant to fit in that cell.
package struct ImageLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// `Reason` is itself an `Error` so decoders (which don't know the path) can throw it and the loader
    /// adds the path.
    package enum Reason: Error, Sendable, Equatable {
        /// No file at the path (or a path component is not a directory).
        case missing
        /// The file exists but reading it failed; the associated text is strerror's.
        case unreadable(String)
        /// Zero bytes.
        case empty
        /// Not a format we recognise by its magic bytes, or not a regular file (directory, FIFO, device).
        case notAnImage
        /// A recognised format that no installed decoder handles; the associated text is the format name.
        case unsupportedFormat(String)
        /// The data ends before the image does (including a header too short to read).
        case truncated
        /// The header's dimensions exceed the pixel limit; `limit` is in pixels.
        case tooLarge(width: Int, height: Int, limit: Int)
        /// The file itself is bigger than the loader's byte limit, so it was not read at all.
        case fileTooLarge(bytes: Int, limit: Int)
        /// The decoder rejected the data; the associated text is the decoder's message.
        case decodeFailed(String)
        /// The caller stopped the decode (its `DecodeCancellation` was set): not the file's fault.
        case cancelled
        /// The decode helper process running the decode died or was stopped (see `DecodingService`).
        case helperFailed(DecodeHelperFailure)

        /// A short, user-facing text for an error cell.
        package var shortText: String {
            switch self {
            case .missing: "File not found"
            case .unreadable(let why): "Unreadable: \(why)"
            case .empty: "Empty file"
            case .notAnImage: "Not an image"
            case .unsupportedFormat(let name): "Unsupported format: \(name)"
            case .truncated: "Truncated file"
            case .tooLarge(let w, let h, let limit): "Too large: \(w)×\(h) (limit \(Self.megapixels(limit)))"
            case .fileTooLarge(let bytes, let limit):
                "File too large: \(Self.megabytes(bytes)) (limit \(Self.megabytes(limit)))"
            case .decodeFailed(let why): "Decode failed: \(why)"
            case .cancelled: "Cancelled"
            case .helperFailed(let failure): failure.shortText
            }
        }

        /// "100 MP", "12.5 MP", "0.25 MP": whole numbers without a decimal point.
        static func megapixels(_ pixels: Int) -> String {
            let mp = Double(pixels) / 1_000_000
            if mp == mp.rounded() { return "\(Int(mp)) MP" }
            return mp >= 1 ? String(format: "%.1f MP", mp) : String(format: "%.2f MP", mp)
        }

        /// Binary megabytes, rounded: "512 MB".
        static func megabytes(_ bytes: Int) -> String {
            "\(Int((Double(bytes) / Double(1 << 20)).rounded())) MB"
        }
    }

    /// "path: short text", for logs.
    package var description: String { "\(path): \(reason.shortText)" }
}

extension ImageLoadError.Reason {
    /// An image file that could not be opened or read, in the loader's words: anything but a regular
    /// file is "not an image".
    package init(_ failure: ImageFile.Failure) {
        switch failure {
        case .missing: self = .missing
        case .unreadable(let why): self = .unreadable(why)
        case .notARegularFile: self = .notAnImage
        case .empty: self = .empty
        }
    }
}
