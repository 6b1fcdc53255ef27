import Foundation
import TesseraCore
import TesseraFiles

extension ImageInformation {
    /// Reads what `i` shows about the file at `path`, through `decoding`, since the header, EXIF and ICC
    /// readers are C libraries. Throws only when the file cannot be read or the reader fails; a file that is not an image, or is truncated, still has a size and a format
    /// ("unknown"), and an image without EXIF has its EXIF fields nil.
    package static func read(path: String, decoding: any DecodingService = .inProcess) throws(ImageInformationError) -> ImageInformation {
        let file: ImageFile
        do {
            file = try ImageFile(path: path)
        } catch {
            // An empty file is still a file: its information says so.
            if error == .empty { return ImageInformation(path: path, bytes: Data()) }
            throw ImageInformationError(path: path, reason: .file(error))
        }
        do {
            var information = try decoding.information(of: file)
            information.path = path
            return information
        } catch .unreadable(let why) {
            throw ImageInformationError(path: path, reason: .file(.unreadable(why)))
        } catch {
            throw ImageInformationError(path: path, reason: .reader(error))
        }
    }

    /// The information of a file's contents, `bytes`.
    package init(path: String, bytes: Data) {
        let format = ImageFormat.sniff(bytes)
        self.path = path
        fileSize = Int64(bytes.count)
        self.format = format
        storedSize = ImageHeader.read(bytes)?.size
        (orientation, colourProfile, hasColourProfile) = (.up, nil, false)
        bytes.withUnsafeBytes { raw in
            if let profile = ICCProfile.embedded(in: raw, format: format) {
                hasColourProfile = true
                colourProfile = profile.profileDescription
            }
            if let block = ExifReader.exifBlock(in: raw, format: format), let tags = ExifTags(block: block) {
                readExif(tags)
            }
            dynamicRange = DynamicRange.of(raw, format: format)
            pages = ImagePages.of(raw, format: format)
        }
    }

    private mutating func readExif(_ tags: ExifTags) {
        orientation = tags.short(0x0112, in: .image).flatMap(ImageOrientation.init(exifValue:)) ?? .up
        cameraMake = tags.text(0x010F, in: .image)
        cameraModel = tags.text(0x0110, in: .image)
        lens = tags.text(0xA434, in: .exif)
        if let date = Self.date(tags.text(0x9003, in: .exif)) {           // DateTimeOriginal
            dateTaken = tags.text(0x9011, in: .exif).map { "\(date) \($0)" } ?? date  // OffsetTimeOriginal
        } else if let date = Self.date(tags.text(0x9004, in: .exif)) {    // DateTimeDigitized
            dateTaken = tags.text(0x9012, in: .exif).map { "\(date) \($0)" } ?? date
        }
        exposureTime = tags.rationals(0x829A, in: .exif)?.first
        fNumber = tags.rationals(0x829D, in: .exif)?.first
        iso = tags.integer(0x8827, in: .exif)                              // ISOSpeedRatings
        focalLength = tags.rationals(0x920A, in: .exif)?.first
        position = Self.position(tags)
    }

    /// EXIF's "YYYY:MM:DD hh:mm:ss" as "YYYY-MM-DD hh:mm:ss"; nil for the blank or zero dates cameras
    /// write when their clock was not set.
    static func date(_ text: String?) -> String? {
        guard let text, text.count >= 19 else { return nil }
        let digits = text.filter(\.isNumber)
        guard digits.count >= 14, digits.contains(where: { $0 != "0" }) else { return nil }
        let parts = Array(text.prefix(19))
        guard parts[4] == ":", parts[7] == ":", parts[10] == " " else { return nil }
        return String(parts[0..<4]) + "-" + String(parts[5..<7]) + "-" + String(parts[8..<10]) + String(parts[10..<19])
    }

    /// GPSLatitude and GPSLongitude (degrees, minutes, seconds) signed by their references (S and W
    /// negative).
    static func position(_ tags: ExifTags) -> GeoPosition? {
        guard let latitude = tags.rationals(0x0002, in: .gps, count: 3),
              let longitude = tags.rationals(0x0004, in: .gps, count: 3) else { return nil }
        func degrees(_ dms: [Double]) -> Double { dms[0] + dms[1] / 60 + dms[2] / 3600 }
        let south = tags.text(0x0001, in: .gps)?.uppercased() == "S"
        let west = tags.text(0x0003, in: .gps)?.uppercased() == "W"
        let position = GeoPosition(latitude: degrees(latitude) * (south ? -1 : 1), longitude: degrees(longitude) * (west ? -1 : 1))
        guard abs(position.latitude) <= 90, abs(position.longitude) <= 180 else { return nil }
        return position
    }
}

/// Why a file's information could not be read.
package struct ImageInformationError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        /// The file could not be opened or read.
        case file(ImageFile.Failure)
        /// The helper reading it refused or failed (`.helperFailed`: it crashed, ran out of memory or time).
        case reader(ImageLoadError.Reason)
    }

    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    package var description: String {
        switch reason {
        case .file(.unreadable(let why)): "\(path): cannot read: \(why)"
        case .file(let failure): "\(path): \(failure)"
        case .reader(let reason): "\(path): \(reason.shortText)"
        }
    }
}
