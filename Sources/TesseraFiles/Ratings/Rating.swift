import Foundation

/// A photo's place in a cull: one to five stars, no rating, or rejected. Stored as `xmp:Rating` the way
/// darktable, digiKam and Lightroom write it: -1 for rejected, 0 for no rating, 1 to 5 for the stars.
package enum Rating: Hashable, Sendable, CustomStringConvertible {
    /// No rating: never rated, or cleared.
    case unrated
    /// 1 to 5 stars (a count outside is written as the nearest of them).
    case stars(Int)
    case rejected

    /// `stars` for 1 to 5, `unrated` for 0, `rejected` for -1; nil for any other number.
    package init?(xmpValue: Int) {
        switch xmpValue {
        case -1: self = .rejected
        case 0: self = .unrated
        case 1...5: self = .stars(xmpValue)
        default: return nil
        }
    }

    /// The rating an `xmp:Rating` text stands for. The XMP specification makes it a real number: any
    /// negative one is a reject (Lightroom's only is -1), a fraction rounds to the nearest star and more
    /// than five is five. Text that is no number is nil, as is an empty value.
    package init?(xmpText: String) {
        guard let value = Double(xmpText.trimmingCharacters(in: .whitespaces)), value.isFinite else { return nil }
        if value < 0 {
            self = .rejected
        } else {
            self.init(xmpValue: Int(min(value, 5).rounded()))!
        }
    }

    /// What `xmp:Rating` holds for this rating.
    package var xmpValue: Int {
        switch self {
        case .unrated: 0
        case .stars(let count): min(max(count, 1), 5)
        case .rejected: -1
        }
    }

    package var description: String {
        switch self {
        case .unrated: "no rating"
        case .stars(let count): count == 1 ? "1 star" : "\(count) stars"
        case .rejected: "rejected"
        }
    }
}
