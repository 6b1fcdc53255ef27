import Foundation
import TesseraCore

/// What the information overlay (`i`) shows about an image: the file, the picture, and how the photo was
/// taken, from its header, its EXIF block (libexif) and its ICC profile (Little CMS). Every EXIF field is
/// optional: most images have few of them, and a malformed tag reads as absent.
///
/// `read(path:)` reads the whole file: call it from a worker.
package struct ImageInformation: Sendable, Equatable, Codable {
    package var path: String
    package var fileSize: Int64
    package var format: ImageFormat
    /// The pixel size as stored; nil when the header cannot be read (truncated, not an image).
    package var storedSize: PixelSize?
    package var orientation: ImageOrientation
    /// The description of the embedded ICC profile; nil when none is embedded (or it cannot be read:
    /// `hasColourProfile` tells the two apart).
    package var colourProfile: String?
    package var hasColourProfile: Bool
    /// How the image holds light above SDR white; nil for SDR.
    package var dynamicRange: DynamicRange?
    /// The file's images beyond the one shown; nil when it holds one.
    package var pages: ImagePages?
    /// DateTimeOriginal (else DateTimeDigitized) as "YYYY-MM-DD hh:mm:ss", with its UTC offset when the
    /// camera recorded one ("+02:00").
    package var dateTaken: String?
    package var cameraMake: String?
    package var cameraModel: String?
    package var lens: String?
    /// Seconds.
    package var exposureTime: Double?
    package var fNumber: Double?
    package var iso: Int?
    /// Millimetres.
    package var focalLength: Double?
    package var position: GeoPosition?

    /// Decimal degrees, north and east positive.
    package struct GeoPosition: Sendable, Equatable, Codable {
        package var latitude: Double
        package var longitude: Double

        package init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// The size as shown, after the orientation.
    package var size: PixelSize? { storedSize.map(orientation.orientedSize) }

    /// The overlay's lines, label and value, in the order shown; fields the image lacks are left out.
    package var fields: [(label: String, value: String)] {
        var lines: [(String, String)] = [("File", (path as NSString).lastPathComponent)]
        if let size { lines.append(("Dimensions", "\(size.width) × \(size.height)")) }
        lines.append(("File size", Self.byteText(fileSize)))
        lines.append(("Format", format == .unknown ? "unknown" : format.displayName))
        lines.append(("Colour profile", colourProfile ?? (hasColourProfile ? "embedded, no description" : "none")))
        if let dynamicRange { lines.append(("Dynamic range", dynamicRange.rawValue)) }
        if let pages { lines.append(("Images", pages.description)) }
        if let dateTaken { lines.append(("Taken", dateTaken)) }
        if let camera { lines.append(("Camera", camera)) }
        if let lens { lines.append(("Lens", lens)) }
        let exposure = [exposureTime.map(Self.exposureText), fNumber.map { "f/\(Self.decimal($0))" }, iso.map { "ISO \($0)" }]
            .compactMap { $0 }
        if !exposure.isEmpty { lines.append(("Exposure", exposure.joined(separator: "  "))) }
        if let focalLength { lines.append(("Focal length", "\(Self.decimal(focalLength)) mm")) }
        if let position {
            lines.append(("Position", String(format: "%.6f, %.6f", position.latitude, position.longitude)))
        }
        return lines
    }

    /// Make and model, without the make twice when the model already starts with it ("Canon EOS R5").
    package var camera: String? {
        switch (cameraMake, cameraModel) {
        case let (make?, model?):
            // "NIKON CORPORATION" and "NIKON D750": the make's first word is enough to tell.
            model.lowercased().hasPrefix(make.lowercased().prefix { $0 != " " }) ? model : "\(make) \(model)"
        case let (make?, nil): make
        case let (nil, model?): model
        case (nil, nil): nil
        }
    }

    // MARK: - Formatting

    /// "1/250 s" below a second (as cameras show it), "2 s" or "2.5 s" above.
    static func exposureText(_ seconds: Double) -> String {
        guard seconds > 0 else { return "0 s" }
        if seconds < 1 { return "1/\(Int((1 / seconds).rounded())) s" }
        return "\(decimal(seconds)) s"
    }

    /// One decimal at most, none when it is zero: "2.8", "8", "50".
    static func decimal(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded))" : String(format: "%.1f", rounded)
    }

    /// Decimal units, as file managers show them: "812 bytes", "4.2 kB", "12.5 MB".
    static func byteText(_ bytes: Int64) -> String {
        if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }
}
