import Foundation

/// The EXIF dates a photo was taken, as text: DateTimeOriginal and DateTimeDigitized ("YYYY:MM:DD
/// hh:mm:ss") and their UTC offsets ("+02:00"), each nil when absent.
package struct ExifDates: Sendable, Equatable, Codable {
    package var original: String?
    package var originalOffset: String?
    package var digitized: String?
    package var digitizedOffset: String?

    package init(original: String? = nil, originalOffset: String? = nil, digitized: String? = nil, digitizedOffset: String? = nil) {
        self.original = original
        self.originalOffset = originalOffset
        self.digitized = digitized
        self.digitizedOffset = digitizedOffset
    }

    /// The dates in the EXIF block of `head` (a file's first bytes); all nil without one.
    package init(_ head: Data) {
        let format = ImageFormat.sniff(head)
        self = head.withUnsafeBytes { raw -> ExifDates in
            guard let block = ExifReader.exifBlock(in: raw, format: format), let tags = ExifTags(block: block) else { return ExifDates() }
            return ExifDates(original: tags.text(0x9003, in: .exif), originalOffset: tags.text(0x9011, in: .exif),
                             digitized: tags.text(0x9004, in: .exif), digitizedOffset: tags.text(0x9012, in: .exif))
        }
    }
}
