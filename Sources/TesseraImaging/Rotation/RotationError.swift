/// Why a picture's orientation could not be written, with its path. The file is as it was.
package struct RotationError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    package enum Reason: Error, Sendable, Equatable {
        /// No file at the path.
        case missing
        /// A folder, FIFO or device.
        case notARegularFile
        /// Neither the file's mode nor the user allows writing it (or its file system is read-only).
        case readOnly
        /// Reading it failed (strerror's text).
        case unreadable(String)
        /// Zero bytes.
        case empty
        /// Not a whole JPEG: truncated, or its structure is broken (what was found).
        case damaged(String)
        /// The EXIF block could not be read or written (why).
        case exifUnwritable(String)
        /// Making, writing or renaming the new file failed (why).
        case writeFailed(String)

        /// One line for the overlay and the log.
        package var text: String {
            switch self {
            case .missing: "no such file"
            case .notARegularFile: "not a regular file"
            case .readOnly: "the file is read-only"
            case .unreadable(let why): "cannot read: \(why)"
            case .empty: "empty file"
            case .damaged(let why): "not a whole JPEG, left untouched: \(why)"
            case .exifUnwritable(let why): "cannot write the orientation: \(why)"
            case .writeFailed(let why): "cannot save: \(why)"
            }
        }
    }

    package var description: String { "\(path): \(reason.text)" }
}
