/// The bytes of an ICC profile, hashed once when made: the colour manager's cache looks profiles up for
/// every image, and a CMYK profile can be a megabyte.
package struct ICCProfile: Hashable, Sendable {
    package let bytes: [UInt8]
    private let digest: Int

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        digest = hasher.finalize()
    }

    package static func == (lhs: ICCProfile, rhs: ICCProfile) -> Bool {
        lhs.digest == rhs.digest && lhs.bytes == rhs.bytes
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    /// The profile's description ("Display P3"), as `LCMSProfile.description` reads it; nil when lcms2
    /// cannot read the profile or it has no description.
    var profileDescription: String? {
        guard case .success(let opened) = LCMSProfile.open(.icc(self)) else { return nil }
        return opened.description
    }
}
