/// How much of a frame a strategy lets the view spend copying decoded images into textures: a choice the
/// strategy declares and the view applies (through `UploadPacer`), so strategies never reach into the
/// renderer.
public enum UploadPacing: Sendable, Equatable {
    /// The view's own byte budget per frame, whatever the frame has cost so far.
    case viewBudget
    /// What is left of a frame of this many milliseconds once the frame's other work is done, at the
    /// measured upload speed.
    case fillFrame(milliseconds: Double)
}
