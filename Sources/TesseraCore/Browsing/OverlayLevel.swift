/// How much the overlay shows; `i` steps through the levels as nsxiv's info bar does, with one more.
package enum OverlayLevel: String, CaseIterable, Sendable {
    case off
    /// The file name, its position in the strip (and, in the single view, the zoom).
    case name
    /// The name bar and the image's information (size, format, colour profile, camera, exposure, place).
    case information

    /// What `i` shows next: name, information, off, name again.
    package var next: OverlayLevel {
        switch self {
        case .off: .name
        case .name: .information
        case .information: .off
        }
    }
}
