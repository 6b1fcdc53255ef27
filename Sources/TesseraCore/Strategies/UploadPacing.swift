/// How much of a frame a strategy lets the view spend copying decoded images into textures: a choice the
/// strategy declares and the view applies (through `UploadPacer`), so strategies never reach into the
/// renderer.
package protocol UploadPacing: Sendable {
    /// Bytes that may be uploaded in a frame that has run `frameElapsedMs` so far, when uploads run at
    /// `bytesPerMs` (as measured) and the view's own budget per frame is `viewBudgetBytes`.
    func budget(frameElapsedMs: Double, bytesPerMs: Double, viewBudgetBytes: Int) -> Int
}

/// Uploads fill what is left of a frame of `milliseconds` once the frame's other work is done, at the
/// measured upload speed.
package struct FillFramePacing: UploadPacing, Equatable {
    package var milliseconds: Double

    /// Part of the time left that uploads may use: the speed is an average, and a frame's uploads may run
    /// slower than it.
    private static let margin = 0.8

    package init(milliseconds: Double) { self.milliseconds = milliseconds }

    package func budget(frameElapsedMs: Double, bytesPerMs: Double, viewBudgetBytes: Int) -> Int {
        let leftMs = max(0, milliseconds - frameElapsedMs)
        return Int(leftMs * bytesPerMs * Self.margin)
    }
}
