/// Which images the strip shows by their rating (`--min-rating`, and a key that steps through them):
/// all, all but the rejected, or those with at least some stars. The strip keeps its order; a filter
/// only leaves images out.
package enum RatingFilter: Equatable, Sendable {
    case all
    case hidingRejected
    /// At least this many stars (1 to 5).
    case atLeast(Int)

    /// The filter `--min-rating N` asks for: 0 hides the rejected, 1 to 5 ask for that many stars.
    package init?(minimumRating: Int) {
        switch minimumRating {
        case 0: self = .hidingRejected
        case 1...5: self = .atLeast(minimumRating)
        default: return nil
        }
    }

    /// Whether an image rated `rating` (-1 rejected, 0 none, 1 to 5; nil while not read) is shown. An
    /// image not read yet is shown where an unrated one would be.
    package func admits(_ rating: Int?) -> Bool {
        switch self {
        case .all: true
        case .hidingRejected: (rating ?? 0) >= 0
        case .atLeast(let stars): (rating ?? 0) >= stars
        }
    }

    /// The filter the key steps to from this one: all, rejected hidden, 1+ ... 5+, all.
    package var next: RatingFilter {
        switch self {
        case .all: .hidingRejected
        case .hidingRejected: .atLeast(1)
        case .atLeast(let stars): stars >= 5 ? .all : .atLeast(stars + 1)
        }
    }

    /// How the overlay names it.
    package var label: String {
        switch self {
        case .all: "all images"
        case .hidingRejected: "rejected hidden"
        case .atLeast(let stars): "\(stars)+ " + (stars == 1 ? "star" : "stars")
        }
    }
}
