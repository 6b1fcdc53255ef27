import Foundation

/// The scroll model's laws as pure functions of their inputs, for code that predicts motion without
/// running it (preloaders aiming at a fling's resting place, the fling planner).
extension ScrollModel {
    /// Total distance a fling covers under UIKit's per-millisecond decay: each millisecond v *= d, then
    /// offset += v / 1000, summed to infinity: v0/1000 * d/(1-d). (The continuous-time integral differs
    /// slightly; this is the documented law and what the model actually does.)
    package static func projectedTravel(velocity: Double, rate: Double) -> Double {
        velocity / 1000 * rate / (1 - rate)
    }

    package static func projectedTravel(velocity: Double, rate: DecelerationRate) -> Double {
        projectedTravel(velocity: velocity, rate: rate.rawValue)
    }

    /// Where a fling from `offset` at `velocity` comes to rest, clamped to `0...maxOffset`.
    package static func projectedRestingOffset(from offset: Double, velocity: Double, rate: DecelerationRate,
                                              maxOffset: Double) -> Double {
        min(max(offset + projectedTravel(velocity: velocity, rate: rate), 0), max(0, maxOffset))
    }

    /// UIScrollView's rubber band: how far the content shows past an edge when the finger has pulled
    /// `overshoot` points past it. Slope 0.55 at the edge, tending to `dimension`, so resistance grows
    /// and content can never be pulled further than one viewport out.
    package static func rubberBand(overshoot: Double, dimension: Double) -> Double {
        guard overshoot > 0, dimension > 0 else { return 0 }
        return (1 - 1 / (overshoot * rubberBandCoefficient / dimension + 1)) * dimension
    }

    /// Inverse of `rubberBand`, so a drag that grabs content mid-bounce continues without a jump.
    static func rubberBandInverse(displacement: Double, dimension: Double) -> Double {
        guard displacement > 0, dimension > 0 else { return 0 }
        let fraction = min(displacement / dimension, 0.999_999)
        return (1 / (1 - fraction) - 1) * dimension / rubberBandCoefficient
    }
}
