import Foundation
import Synchronization
import TesseraFiles

/// An IIIF manifest or collection read on a thread of its own, so that the window opens while its
/// documents and thumbnails' `info.json`s are fetched (for up to `PresentationStrip.readingTimeLimit`);
/// the strip waits for it once the window shows.
package final class PresentationReading: Sendable {
    private let outcome = Mutex<Result<PresentationStrip?, PresentationStrip.Failure>?>(nil)
    private let done = Latch()

    /// Starts `read`: the strip, or nil when what was named is no Presentation document after all and is
    /// shown as what it is.
    package init(_ read: @escaping @Sendable () throws(PresentationStrip.Failure) -> PresentationStrip?) {
        let thread = Thread { [self] in
            let result: Result<PresentationStrip?, PresentationStrip.Failure>
            do throws(PresentationStrip.Failure) { result = .success(try read()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.open()
        }
        thread.name = "tessera.manifest"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Whether the reading has ended, waiting at most `limit` for it.
    package func hasEnded(within limit: Duration) -> Bool {
        done.wait(timeout: limit)
    }

    /// Waits for the reading.
    package func wait() throws(PresentationStrip.Failure) -> PresentationStrip? {
        _ = done.wait(timeout: nil)
        return try outcome.withLock { $0! }.get()
    }
}
