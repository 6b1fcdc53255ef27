import TesseraCore

/// Why a rating was not written or undone, with the sidecar it concerns. The sidecar is as it was.
package struct RatingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The image whose rating was to change.
    package var imagePath: String
    /// Its sidecar, `NAME.EXT.xmp`.
    package var sidecarPath: String
    package var reason: Reason

    package init(imagePath: String, sidecarPath: String, reason: Reason) {
        self.imagePath = imagePath
        self.sidecarPath = sidecarPath
        self.reason = reason
    }

    package enum Reason: Error, Sendable, Equatable {
        /// The sidecar is there but is not XMP (damaged, cut short, or some other file): it is not touched.
        case notXMP
        /// The sidecar cannot be read (why).
        case unreadable(String)
        /// The new sidecar cannot be written (why): a read-only folder, a full disk.
        case unwritable(String)
        /// The image is gone: no sidecar is made for a photo that is not there.
        case noImage
        /// Another program changed the sidecar each time it was about to be replaced.
        case keepsChanging
        /// Exempi could not be initialised, or refused to serialise the packet.
        case toolkitFailed
    }

    /// One line for the overlay and the log, naming the sidecar by its file name.
    package var description: String {
        let name = PathText.displayName(FileReplacement.split(sidecarPath).name)
        return switch reason {
        case .notXMP: "\(name) cannot be read as XMP; its rating is left as it is"
        case .unreadable(let why): "\(name) cannot be read (\(why)); its rating is left as it is"
        case .unwritable(let why): "\(name) cannot be written (\(why)); its rating is left as it is"
        case .noImage: "\(name) is not written: its photo is no longer there"
        case .keepsChanging: "\(name) keeps being changed by another program; its rating is left as it is"
        case .toolkitFailed: "\(name) cannot be written: the XMP toolkit failed; its rating is left as it is"
        }
    }
}
