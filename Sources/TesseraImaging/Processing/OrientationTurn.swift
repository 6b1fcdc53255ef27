/// A quarter turn or a flip of the picture as the user sees it: what nsxiv's `<`, `>`, `|` and `_` ask for.
package enum OrientationTurn: String, Sendable, CaseIterable, CustomStringConvertible {
    /// 90° counter-clockwise (`<`).
    case rotateLeft
    /// 90° clockwise (`>`).
    case rotateRight
    /// Left and right trade places (`|`).
    case flipHorizontal
    /// Top and bottom trade places (`_`).
    case flipVertical

    /// The turn as an orientation: what it does to an upright picture.
    package var orientation: ImageOrientation {
        switch self {
        case .rotateLeft: .rotated270
        case .rotateRight: .rotated90
        case .flipHorizontal: .mirrored
        case .flipVertical: .mirroredVertically
        }
    }

    /// The turn that takes this one back.
    package var inverse: OrientationTurn {
        switch self {
        case .rotateLeft: .rotateRight
        case .rotateRight: .rotateLeft
        case .flipHorizontal, .flipVertical: self
        }
    }

    package var description: String { rawValue }
}

/// The eight orientations are the symmetries of a rectangle's corners (the dihedral group of order 8), so
/// a turn of what is shown is a new orientation of what is stored, and every orientation has an inverse.
extension ImageOrientation {
    /// The orientation that shows the picture this one shows, then turned by `turn`.
    package func turned(_ turn: OrientationTurn) -> ImageOrientation {
        followed(by: turn.orientation)
    }

    /// The orientation that does this one, then `next`:
    /// `a.followed(by: b).apply(to: x)` equals `b.apply(to: a.apply(to: x))`.
    package func followed(by next: ImageOrientation) -> ImageOrientation {
        // With R a quarter turn clockwise and M a left-right mirror, each orientation is R^k M^m, and
        // M R = R^-1 M: so R^b M^q · R^a M^p = R^(b ± a) M^(q xor p), minus when q mirrors.
        let (a, p) = symmetry, (b, q) = next.symmetry
        return ImageOrientation(quarterTurns: b + (q ? -a : a), mirrored: p != q)
    }

    /// The orientation that undoes this one: `o.followed(by: o.inverse) == .up`.
    package var inverse: ImageOrientation {
        let (k, m) = symmetry
        // A mirrored symmetry is its own inverse; a plain turn is undone by the opposite turn.
        return m ? self : ImageOrientation(quarterTurns: -k, mirrored: false)
    }

    /// This orientation as R^k M^m: mirror left-right first when `mirrored`, then `quarterTurns` 90° clockwise
    /// turns. The one table of the group; the rest is arithmetic on it.
    var symmetry: (quarterTurns: Int, mirrored: Bool) {
        switch self {
        case .up: (0, false)
        case .rotated90: (1, false)
        case .rotated180: (2, false)
        case .rotated270: (3, false)
        case .mirrored: (0, true)
        case .transversed: (1, true)
        case .mirroredVertically: (2, true)
        case .transposed: (3, true)
        }
    }

    init(quarterTurns: Int, mirrored: Bool) {
        let k = ((quarterTurns % 4) + 4) % 4
        self = Self.allCases.first { $0.symmetry == (k, mirrored) }!
    }
}
