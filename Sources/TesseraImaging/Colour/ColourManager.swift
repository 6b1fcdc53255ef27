import CLCMS2
import Synchronization
import TesseraCore

/// Colour management over lcms2: finds (making it the first time) the transform from an image's colour
/// space to another, usually the display's.
///
/// Transforms are cached per source (profile bytes or code points), pixel layout and destination, so a
/// folder of phone photos sharing one Display P3 profile builds one transform, however many workers ask
/// at once: making one happens under the cache's lock, and the workers then share it (`ColourTransform`
/// says why that is safe). A source that converts to its destination within one level of 255 at every
/// colour tried (an sRGB profile shown on an sRGB display, whatever its bytes) is remembered as needing
/// no conversion at all. A profile lcms2 cannot use is remembered too, so it is reported once.
///
/// One manager (`shared`) serves the whole app, so the strip, the single view and the tile cutter share
/// transforms; tests make their own to count what is built.
package final class ColourManager: Sendable {
    package static let shared = ColourManager()

    /// What converting from one colour space to another takes.
    enum Lookup {
        /// Nothing: the two are the same to within a level.
        case none
        case transform(ColourTransform)
        /// The source cannot be converted (`isNew` the first time this manager saw it).
        case unusable(ColourProfileProblem, isNew: Bool)
    }

    private struct Key: Hashable {
        var source: ColourSpace
        var input: PixelInput
        var destination: ColourSpace
    }

    /// How the caller's pixels are laid out; grey and RGB profiles both take BGRA pixels.
    enum PixelInput: Hashable {
        case bgra
        case cmyk(inverted: Bool)
    }

    private enum Entry {
        case none
        case transform(ColourTransform)
        case unusable(ColourProfileProblem)
    }

    private struct Cache {
        var entries: [Key: (entry: Entry, lastUse: Int)] = [:]
        var uses = 0
        var made = 0
    }

    /// Most transforms kept; the least recently used goes first. Far above the profiles one folder holds.
    let capacity: Int
    private let cache = Mutex(Cache())

    package init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// How many lcms2 transforms this manager has made (identity checks included), for tests and reports.
    package var transformsMade: Int { cache.withLock { $0.made } }

    /// The conversion from `source` (pixels laid out as `input`) to `destination`, an RGB space.
    func lookup(from source: ColourSpace, input: PixelInput, to destination: ColourSpace) -> Lookup {
        if input == .bgra && source == destination { return .none }
        let key = Key(source: source, input: input, destination: destination)
        return cache.withLock { cache -> Lookup in
            cache.uses += 1
            if let found = cache.entries[key] {
                cache.entries[key] = (found.entry, cache.uses)
                switch found.entry {
                case .none: return .none
                case .transform(let transform): return .transform(transform)
                case .unusable(let problem): return .unusable(problem, isNew: false)
                }
            }
            let entry = Self.make(key, made: &cache.made)
            if cache.entries.count >= capacity,
               let oldest = cache.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                cache.entries[oldest] = nil
            }
            cache.entries[key] = (entry, cache.uses)
            switch entry {
            case .none: return .none
            case .transform(let transform): return .transform(transform)
            case .unusable(let problem): return .unusable(problem, isNew: true)
            }
        }
    }

    /// Whether `destination` is sRGB to within a level, or why it cannot be converted to (not an RGB
    /// profile lcms2 reads).
    func check(destination: ColourSpace) -> Result<Bool, ColourProfileProblem> {
        switch lookup(from: .sRGB, input: .bgra, to: destination) {
        case .none: .success(true)
        case .transform: .success(false)
        case .unusable(let problem, _): .failure(problem)
        }
    }

    // MARK: - Making

    private static func make(_ key: Key, made: inout Int) -> Entry {
        let source: LCMSProfile, destination: LCMSProfile
        switch (LCMSProfile.open(key.source), LCMSProfile.open(key.destination)) {
        case (.failure(let problem), _), (_, .failure(let problem)):
            return .unusable(problem)
        case (.success(let s), .success(let d)):
            source = s
            destination = d
        }
        guard destination.isRGB else { return .unusable(.wrongColourSpace(expected: "the display's RGB")) }
        let input: ColourTransform.Input
        switch key.input {
        case .bgra:
            if source.isRGB {
                input = .bgra
            } else if source.isGrey {
                input = .greyInBGRA
            } else {
                return .unusable(.wrongColourSpace(expected: "RGB or grey"))
            }
        case .cmyk(let inverted):
            guard source.isCMYK else { return .unusable(.wrongColourSpace(expected: "CMYK")) }
            input = .cmyk(inverted: inverted)
        }
        let embedded = if case .icc = key.source { true } else { false }
        guard let transform = ColourTransform(from: source, input: input, to: destination, asksForIntent: embedded) else {
            return .unusable(.noTransform)
        }
        made += 1
        if case .cmyk = input { return .transform(transform) }
        return isIdentity(transform) ? .none : .transform(transform)
    }

    /// Whether `transform` leaves every colour of a 16-step grid (every grey level, for grey input)
    /// within one level of where it was: then converting costs time and changes nothing.
    private static func isIdentity(_ transform: ColourTransform) -> Bool {
        var pixels: [UInt8] = []
        let steps = stride(from: 0, through: 255, by: 17).map(UInt8.init)
        if transform.input == .greyInBGRA {
            for level in 0...255 { pixels += [UInt8(level), UInt8(level), UInt8(level), 255] }
        } else {
            for r in steps { for g in steps { for b in steps { pixels += [b, g, r, 255] } } }
        }
        let original = pixels
        pixels.withUnsafeMutableBytes { transform.apply($0.baseAddress!, count: $0.count / 4) }
        for (before, after) in zip(original, pixels) where abs(Int(before) - Int(after)) > 1 { return false }
        return true
    }
}
