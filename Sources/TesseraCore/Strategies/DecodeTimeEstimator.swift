import Synchronization

/// How long the strip's decodes take, learned per kind of file from the decodes finished so far, for
/// strategies that plan a fling's decodes (`FlingPlanner`). Fed by the strip's loader on the workers,
/// read on the main thread.
package final class DecodeTimeEstimator: Sendable {
    /// Running totals for one kind of file: seconds and bytes of the decodes whose file size was known,
    /// and seconds and count of all of them.
    private struct Rate {
        var seconds = 0.0
        var bytes = 0.0
        var allSeconds = 0.0
        var decodes = 0.0
    }

    private let rates = Mutex<[Kind: Rate]>([:])

    package init() {}

    /// Learns from one finished decode of `key`'s file.
    package func record(_ key: ImageKey, seconds: Double) {
        let kind = Kind(key)
        let size = key.version?.size ?? 0
        rates.withLock { rates in
            var rate = rates[kind, default: Rate()]
            rate.allSeconds += seconds
            rate.decodes += 1
            if size > 0 {
                rate.seconds += seconds
                rate.bytes += Double(size)
            }
            rates[kind] = rate
        }
    }

    /// How long decoding `key` is expected to take on one worker, from the decodes of its kind finished
    /// so far: scaled by file size when the size of both is known, else their average (a listed folder's
    /// files are not stat'ed before they load); nil before any has finished.
    package func estimatedSeconds(_ key: ImageKey) -> Double? {
        guard let rate = rates.withLock({ $0[Kind(key)] }), rate.decodes > 0 else { return nil }
        if let size = key.version?.size, size > 0, rate.bytes > 0 { return rate.seconds / rate.bytes * Double(size) }
        return rate.allSeconds / rate.decodes
    }

    /// What decode times are learned per: the file extension, in any case (cameras write ".JPG", other
    /// tools ".jpg"; one folder often has both), and the variant.
    private struct Kind: Hashable {
        var fileExtension: Substring
        var variant: ImageVariant

        /// `key`'s kind. Asked for every item on a fling's way every frame, so it only looks at the end
        /// of the path (no splitting, no copy).
        init(_ key: ImageKey) {
            let path = key.path
            variant = key.variant
            if let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")), !path.utf8[dot...].contains(UInt8(ascii: "/")) {
                fileExtension = path[path.utf8.index(after: dot)...]
            } else {
                fileExtension = ""
            }
        }

        static func == (a: Kind, b: Kind) -> Bool {
            a.variant == b.variant && a.fileExtension.utf8.elementsEqual(b.fileExtension.utf8) {
                asciiLowercase($0) == asciiLowercase($1)
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(variant)
            for byte in fileExtension.utf8 { hasher.combine(Self.asciiLowercase(byte)) }
        }

        /// Byte-wise, without building a lowercased copy.
        private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }
    }
}
