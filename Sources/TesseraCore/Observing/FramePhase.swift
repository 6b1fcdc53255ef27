/// Where a frame's main-thread time goes before SDL draws it (`--frame-times`): what the frame time is
/// made of, so a slow frame can be told apart as ours or SDL's. The draw calls only queue work for SDL's
/// software renderer, which does the copies and fills when the frame is presented: that and the event poll
/// are the frame time the phases leave out.
package enum FramePhase: Sendable, Hashable, CaseIterable {
    /// The model: scrolling, layout, loads asked for and results taken.
    case update
    /// Decoded pixels copied into textures.
    case upload
    /// The draw calls.
    case draw
}
