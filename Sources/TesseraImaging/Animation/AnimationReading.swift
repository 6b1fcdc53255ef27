import TesseraCore

/// One format's frames, in order, each composited onto the full canvas as the format says (disposal and
/// blending done), as B, G, R, A at the file's canvas size; its own delay with it, as the file gives it.
///
/// Per-file state over the format's library, used by one thread at a time (the feed's steps, one after
/// another). Starting again from the first frame is a new reader: each frame builds on the one before, so
/// no frame can be read alone.
package protocol AnimationReading: AnyObject {
    /// The size every frame has.
    var canvasSize: PixelSize { get }
    /// How many times the animation plays (0: forever), as far as the frames read so far say (a GIF says
    /// it with its first frame).
    var plays: Int { get }
    /// The next composited frame, nil after the last. Throws when the file is bad or cut short there.
    func nextFrame() throws(ImageLoadError.Reason) -> (pixels: PixelBuffer, delay: Duration)?
}

/// A frame ready to show: where it is in the animation, its own delay (`AnimationPlayer` applies the
/// tiny-delay rule), its pixels scaled, colour-converted and turned for where it is shown.
package struct AnimationFrame: Sendable {
    package var index: Int
    package var delay: Duration
    package var pixels: PixelBuffer

    package init(index: Int, delay: Duration, pixels: PixelBuffer) {
        self.index = index
        self.delay = delay
        self.pixels = pixels
    }
}
