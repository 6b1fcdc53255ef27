/// The adaptive strategy's tuning, in one value: each figure with its default, for the viewer, the bench
/// and tests to change together.
package struct AdaptiveTuning: Sendable, Equatable {
    /// Load what the strip reaches within this time at its current speed.
    package var leadSeconds = 0.5
    /// The leading window never reaches further than this many screens.
    package var maxLeadScreens = 3.0
    /// Above this speed (screens per second) passing items get previews instead of full decodes. Off by
    /// default: only JPEG decodes cheaper at preview size (PNG and WebP pay a whole decode either way),
    /// and on the real-photo corpus previews raise placeholder frames (docs/EXPERIMENT.md).
    package var fastScreensPerSecond = Double.infinity
    /// Ask for the resting screen once the fling will stop within this time.
    package var restingLeadSeconds = 1.0
    /// While a fling decelerates, how much of its travel before the resting point to load (its slow tail).
    package var approachScreens = 1.5
    /// Items passing faster than this are not decoded: they would be gone before the image arrived.
    package var minimumSecondsOnScreen = 0.04
    /// Below this speed (screens per second) idle workers decode ahead of the screen (step 4 of
    /// `AdaptiveStrategy.requests`).
    package var idleSpeedScreensPerSecond = 1.0
    /// How far the idle lookahead reaches in the direction of travel, and behind, in screens.
    package var idleLeadScreens = 3.0
    package var idleTrailScreens = 1.0
    /// The frame time uploads should leave room within.
    package var frameTargetMs = 8.0
    /// A drag this fast (screens per second) is planned as the fling it will be released into: a quick
    /// throw lasts a few frames, and decodes started for the cells it passes would land after those cells
    /// are gone. Slow drags keep the speed-scaled window.
    package var planWhileDraggingScreensPerSecond = 4.0
    /// The planner takes over only when cells pass faster than the workers can decode them (this factor
    /// times their throughput). Below that the plain order, visible cells first, keeps up by itself,
    /// and the planner's skipping only costs images: cells it leaves out show placeholders that a plain
    /// visible-first order would have filled.
    package var planAboveThroughput = 1.0
    /// While a fling is planned, running decodes for items no longer requested are asked to stop, and the
    /// planner plans with them (a running decode that no longer pays off is left out, so its worker is
    /// reclaimed). Off: never stop a running decode.
    package var reclaimsRunningWork = true

    package init() {}
}
