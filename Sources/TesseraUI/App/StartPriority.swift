import TesseraCore
import TesseraImaging

/// The priority of the work beside the interface (the executor's workers, the decode helpers): the
/// viewer's own until its first screen is shown, so what the user opened is decoded at once rather than
/// behind every busy program on the machine (the X server, a compositor) and the viewer's own start; then
/// background for good, so a frame runs the moment it is due while decodes go on (docs/PERFORMANCE.md).
enum StartPriority {
    static let atStart = WorkerPriority.normal
    static let afterFirstScreen = WorkerPriority.background

    /// Lowers `executor`'s workers and `decoding`'s helpers once the first screen is shown (and wakes the
    /// helpers still dormant, see `WarmUpTurn`).
    static func stepBack(executor: WorkExecutor, decoding: any DecodingService) {
        executor.lowerPriority(to: afterFirstScreen)
        decoding.stepBack(to: afterFirstScreen)
    }
}
