import Foundation
import TesseraCore

/// How each play of an animation starts: `first` opens the file (nil: a still where only animations are
/// wanted), `again` gives the reader of the next play from the reader of the last.
package struct AnimationPlays {
    package var first: () throws(ImageLoadError.Reason) -> (any AnimationReading)?
    package var again: (any AnimationReading) throws(ImageLoadError.Reason) -> any AnimationReading

    package init(first: @escaping () throws(ImageLoadError.Reason) -> (any AnimationReading)?,
                again: @escaping (any AnimationReading) throws(ImageLoadError.Reason) -> any AnimationReading) {
        self.first = first
        self.again = again
    }
}

extension AnimationPlays {
    /// A still where only animations are wanted, thrown by a `readData` that tells so from the first bytes.
    struct NotAnimated: Error {}

    /// The file's bytes, read once in the feed's first step, for every play's reader.
    private final class HeldBytes { var data = Data() }

    /// Plays over readers `makeReader` opens on `readData`'s bytes (read once), one per play.
    static func overBytes(readData: @escaping () throws -> Data,
                          makeReader: @escaping (Data) throws(ImageLoadError.Reason) -> any AnimationReading,
                          onlyAnimations: Bool) -> AnimationPlays {
        let bytes = HeldBytes()
        return AnimationPlays(first: { () throws(ImageLoadError.Reason) -> (any AnimationReading)? in
            let data: Data
            do { data = try readData() } catch is NotAnimated { return nil } catch {
                throw error as? ImageLoadError.Reason ?? .decodeFailed(String(describing: error))
            }
            if onlyAnimations && !AnimatedImage.isAnimated(data) { return nil }
            bytes.data = data
            return try makeReader(data)
        }, again: { (_: any AnimationReading) throws(ImageLoadError.Reason) -> any AnimationReading in
            try makeReader(bytes.data)
        })
    }
}
