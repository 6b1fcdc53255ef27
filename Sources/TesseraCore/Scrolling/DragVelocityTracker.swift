import Foundation

/// The finger's speed during a drag: the average over the last `window` of its positions, as an offset
/// velocity (the offset moves opposite to the finger). A window rather than the last two samples, because
/// event timestamps jitter by a millisecond or more and one pair of them says little.
struct DragVelocityTracker: Sendable {
    private struct Sample: Sendable {
        var time: Duration
        var position: Double
    }

    let window: Duration
    private var samples: [Sample] = []

    init(window: Duration) {
        self.window = window
    }

    /// A drag starts at `position`.
    mutating func begin(at position: Double, time: Duration) {
        samples = [Sample(time: time, position: position)]
    }

    /// The finger is at `position`; returns the velocity so far.
    mutating func add(_ position: Double, time: Duration) -> Double {
        let sample = Sample(time: max(time, samples.last?.time ?? time), position: position)
        samples.append(sample)
        // Keeps the last sample at or before the window's start, so the position there can be interpolated.
        if let keep = samples.lastIndex(where: { $0.time <= time - window }), keep > 0 {
            samples.removeFirst(keep)
        }
        return velocity(endingAt: sample)
    }

    /// The finger let go at `time`: the release velocity, and the samples are forgotten. The finger has been
    /// where the last sample put it since then, so a pause before letting go counts.
    mutating func release(at time: Duration) -> Double {
        guard let last = samples.last else { return 0 }
        let velocity = velocity(endingAt: Sample(time: max(time, last.time), position: last.position))
        samples.removeAll(keepingCapacity: true)
        return velocity
    }

    /// Average speed over the last `window` ending at `end` (or over the whole drag if it is shorter).
    private func velocity(endingAt end: Sample) -> Double {
        guard var start = samples.first else { return 0 }
        let windowStart = end.time - window
        if start.time < windowStart {
            // Interpolate the finger position at exactly windowStart.
            var previous = start
            for sample in samples.dropFirst() + [end] {
                if sample.time >= windowStart {
                    let span = sample.time - previous.time
                    let fraction = span > .zero ? (windowStart - previous.time) / span : 1
                    start = Sample(time: windowStart,
                                   position: previous.position + (sample.position - previous.position) * fraction)
                    break
                }
                previous = sample
            }
        }
        let seconds = (end.time - start.time) / .seconds(1)
        guard seconds > 0 else { return 0 }
        return -(end.position - start.position) / seconds
    }
}
