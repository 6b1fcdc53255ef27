import Logging
import TesseraCore

/// Where decoded pixels go, colour-wise: from the colour space their image declares (an embedded
/// profile, code points, or sRGB when it declares nothing) to `destination`, normally the display's.
/// What the loaders hold; nil in their place means colour management is off and pixels stay as decoded.
///
/// With an sRGB destination, images that declare nothing or an sRGB profile are left alone: no
/// transform, no copy.
package struct ColourConversion: Sendable, Equatable {
    package let destination: ColourSpace
    package let manager: ColourManager
    /// Where profiles that cannot be used are reported.
    let logger: Logger

    /// To sRGB: what thumbnails on disk and tiles are stored in, and the display without a profile.
    package static let sRGB = ColourConversion(destination: .sRGB)

    /// Where colour problems are logged unless a caller says otherwise.
    package static let defaultLogger = Logger(label: "tessera.colour")

    package init(destination: ColourSpace, manager: ColourManager = .shared, logger: Logger = defaultLogger) {
        self.destination = destination
        self.manager = manager
        self.logger = logger
    }

    /// To the display whose ICC profile the window system gives (nil: none set, so sRGB). A profile
    /// lcms2 cannot use, or one that is not for RGB, is logged and sRGB is used instead; a profile that
    /// is sRGB to within a level counts as sRGB, so untagged images cost nothing on it.
    package init(displayProfile: [UInt8]?, manager: ColourManager = .shared, logger: Logger = defaultLogger) {
        self.manager = manager
        self.logger = logger
        guard let displayProfile else {
            destination = .sRGB
            return
        }
        let candidate = ColourSpace(profile: displayProfile)
        switch manager.check(destination: candidate) {
        case .success(let isSRGB):
            destination = isSRGB ? .sRGB : candidate
        case .failure(let problem):
            logger.warning("display colour profile not used, showing sRGB",
                           metadata: ["reason": "\(problem)", "bytes": "\(displayProfile.count)"])
            destination = .sRGB
        }
    }

    /// The same conversion to sRGB (for what is written to disk).
    var toSRGB: ColourConversion { ColourConversion(destination: .sRGB, manager: manager, logger: logger) }

    package var isToSRGB: Bool { destination == .sRGB }

    /// Converts `pixels` (whose colour space is `source`) to the destination's colour space in place (a
    /// copy only if something else holds their bytes). The colour fields are cleared: the pixels are now
    /// what the destination shows. A source that cannot be converted is left as it is, as if it were
    /// sRGB (see `transform(from:name:)`).
    package func convert(_ pixels: inout PixelBuffer, from source: ColourSpace, name: String) {
        pixels.colourProfile = nil
        pixels.colourCodePoints = nil
        guard let transform = transform(from: source, name: name) else { return }
        pixels.bytes.withUnsafeMutableBytes { transform.apply($0.baseAddress!, count: $0.count / 4) }
    }

    /// Converts `pixels` from the colour space they declare; with an sRGB destination, pixels that
    /// declare nothing are not looked at.
    package func convert(_ pixels: inout PixelBuffer, name: String) {
        guard pixels.declaresColourSpace || !isToSRGB else { return }
        convert(&pixels, from: pixels.declaredColourSpace, name: name)
    }

    /// The transform from `source` to the destination for BGRA pixels; nil when there is nothing to do,
    /// or when the source cannot be converted, which is logged (at warning level the first time the
    /// manager sees the profile, naming `name`).
    package func transform(from source: ColourSpace, name: String) -> ColourTransform? {
        if case .codePoints(let points) = source, !CodePointProfiles.knowsTransfer(points) {
            logger.debug("transfer shown with the sRGB curve", metadata: ["path": "\(name)", "colour": "\(source)"])
        }
        switch manager.lookup(from: source, input: .bgra, to: destination) {
        case .none:
            return nil
        case .transform(let transform):
            return transform
        case .unusable(let problem, let isNew):
            logger.log(level: isNew ? .warning : .debug, "colour profile not used, shown as sRGB",
                            metadata: ["path": "\(name)", "colour": "\(source)", "reason": "\(problem)"])
            return nil
        }
    }

    package static func == (lhs: ColourConversion, rhs: ColourConversion) -> Bool {
        lhs.destination == rhs.destination && lhs.manager === rhs.manager
    }
}
