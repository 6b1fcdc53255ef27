/// Paths waiting to settle: every event pushes its path's deadline back by `delay`, so a path is reported
/// once it has been quiet that long, whatever burst of events led there.
struct SettlingPaths {
    typealias Instant = ContinuousClock.Instant

    let delay: Duration
    private var deadlines: [String: Instant] = [:]

    init(delay: Duration) { self.delay = delay }

    var isEmpty: Bool { deadlines.isEmpty }

    /// Linear in the paths in flight, which are few but for a burst, and then only once per read.
    var nextDeadline: Instant? { deadlines.values.min() }

    mutating func note(_ path: String, at now: Instant) { deadlines[path] = now + delay }

    /// The paths quiet since their deadline, sorted, no longer waiting.
    mutating func takeSettled(at now: Instant) -> [String] {
        let settled = deadlines.filter { $0.value <= now }.keys.sorted()
        for path in settled { deadlines[path] = nil }
        return settled
    }
}
