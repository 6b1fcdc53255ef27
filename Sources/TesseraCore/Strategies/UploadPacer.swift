/// Turns a strategy's `UploadPacing` into this frame's upload budget in bytes, from the view's own budget
/// and the upload speed measured so far. The view asks it once a frame before uploading and tells it how
/// the uploads went.
package struct UploadPacer: Sendable {
    /// The view's byte budget per frame, for pacings that keep to it.
    package var viewBudgetBytes: Int
    /// Measured upload speed: a moving average over frames that uploaded enough to time.
    package private(set) var bytesPerMs: Double

    /// Uploads smaller or quicker than these are not timed: the clock's resolution and the first touch of
    /// a texture would make their speed noise.
    private static let minimumTimedBytes = 256 << 10
    private static let minimumTimedMs = 0.05

    package init(viewBudgetBytes: Int, bytesPerMs: Double = 1_000_000) {
        self.viewBudgetBytes = viewBudgetBytes
        self.bytesPerMs = bytesPerMs
    }

    /// Bytes that may be uploaded this frame under `pacing`, when the frame has run `frameElapsedMs`.
    package func budget(for pacing: any UploadPacing, frameElapsedMs: Double) -> Int {
        pacing.budget(frameElapsedMs: frameElapsedMs, bytesPerMs: bytesPerMs, viewBudgetBytes: viewBudgetBytes)
    }

    /// Learns from one frame's uploads: `bytes` copied in `milliseconds`.
    package mutating func record(bytes: Int, milliseconds: Double) {
        guard bytes > Self.minimumTimedBytes, milliseconds > Self.minimumTimedMs else { return }
        bytesPerMs = 0.8 * bytesPerMs + 0.2 * (Double(bytes) / milliseconds)
    }
}
