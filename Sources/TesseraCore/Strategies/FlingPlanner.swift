import Foundation

/// What the strip knows about one item's image when a strategy plans: whether it is at hand, waiting in
/// the queue or being decoded, and what its decode is expected to cost.
package struct ItemLoad: Sendable, Equatable {
    /// Where the item's full-size image stands in the strip's pipeline: `.done` when it is cached or known
    /// to fail (it needs no worker); `.running` holds a worker until it lands, or until it is asked to
    /// stop (strategies that `cancelsRunningWork`).
    package typealias State = LoadState

    package var state: State
    /// Expected decode time in seconds, nil when nothing has been learned yet.
    package var decodeSeconds: Double?
    /// For a running decode: how long it has run so far, when known.
    package var runningSeconds: Double?

    package init(state: State, decodeSeconds: Double? = nil, runningSeconds: Double? = nil) {
        self.state = state
        self.decodeSeconds = decodeSeconds
        self.runningSeconds = runningSeconds
    }
}

/// Orders the decodes of a decelerating fling. At release the whole trajectory is known (UIScrollView's
/// decay: the distance left shrinks by `rate` per millisecond), so for every item on the way the planner
/// knows when it comes on screen and when it leaves. It simulates the decode workers over that schedule
/// and keeps the decodes that shorten the time cells spend showing a placeholder the most:
/// - items in the order they will appear (the resting screen, which never leaves, last but weighted by
///   `restHoldSeconds`);
/// - an item whose decode would land after it has left (or only a few frames before) is skipped, so the
///   workers are not held up by cells the fast part of the fling only flashes past;
/// - then, one by one, a kept decode is dropped again if the decodes after it gain more than it saves
///   (a long PNG that saves a passing cell a few frames but delays the slow tail).
/// With `reclaimsRunning` (for a strip that can stop running decodes), a decode already running is
/// planned like the others, first on its worker and for what is left of its cost: when it no longer pays
/// off it is left out of the plan, the strip asks it to stop, and its worker goes to what comes next.
/// Pure and deterministic: no clock, no threads; tests feed it a trajectory and costs.
package struct FlingPlanner: Sendable {
    /// Decode workers the plan spreads work over: the strip's scheduler's.
    package var workers: Int
    /// Assumed decode time before any decode of the item's kind has finished.
    package var defaultDecodeSeconds = 0.1
    /// How long the resting screen counts as shown after the fling stops: it stays until the user moves
    /// again, so its cells weigh more than any passing one; one second is the shortest stay we plan for.
    package var restHoldSeconds = 1.0
    /// A decode must save at least this much time on screen to be worth a worker (two 60 Hz frames).
    package var minimumSavedSeconds = 0.033
    /// Whether running decodes can be stopped: they are then planned (and listed when still worth it)
    /// instead of counted as holding their worker whatever happens.
    package var reclaimsRunning = false

    package init(workers: Int) { self.workers = max(1, workers) }

    /// One item on the fling's way: when it appears and leaves (seconds from now) and what its decode costs.
    package struct Candidate: Sendable, Equatable {
        package var index: Int
        package var appears: Double
        /// `.infinity` for the resting screen.
        package var leaves: Double
        package var cost: Double
        package var state: ItemLoad.State
        /// For a running decode: what is left of its cost.
        package var remaining: Double

        package init(index: Int, appears: Double, leaves: Double, cost: Double, state: ItemLoad.State,
                    remaining: Double? = nil) {
            self.index = index
            self.appears = appears
            self.leaves = leaves
            self.cost = cost
            self.state = state
            self.remaining = remaining ?? (state == .running ? cost / 2 : cost)
        }
    }

    /// The items of a fling from `offset` to `restingOffset` with the decay `rate` per ms, with when each is
    /// on screen. Items already decoded are left out.
    package func candidates(layout: StripLayout, itemCount: Int, offset: Double, restingOffset: Double,
                           rate: Double, loads: [Int: ItemLoad]) -> [Candidate] {
        let viewport = layout.viewportSize.width
        let remaining = abs(restingOffset - offset)
        let direction: Double = restingOffset >= offset ? 1 : -1
        guard remaining >= ScrollModel.restingDistance else { return [] }
        let lnRate = Foundation.log(rate)
        /// Seconds until the content offset reaches `target` (0 if already past, the stop if never).
        func time(toReach target: Double) -> Double {
            let left = (restingOffset - target) * direction
            if left >= remaining { return 0 }
            let stopAt = max(left, ScrollModel.restingDistance)
            return Foundation.log(stopAt / remaining) / lnRate / 1000
        }
        let lower = min(offset, restingOffset), upper = max(offset, restingOffset)
        let span = layout.visibleRange(offset: lower).lowerBound..<layout.visibleRange(offset: upper).upperBound
        let resting = layout.visibleRange(offset: restingOffset)
        var result: [Candidate] = []
        for index in span where index >= 0 && index < itemCount {
            let load = loads[index] ?? ItemLoad(state: .none)
            guard load.state != .done else { continue }
            let frame = layout.frame(of: index)
            // On screen while the offset is within (x - viewport, x + width).
            let enter = direction > 0 ? frame.x - viewport : frame.x + frame.width
            let exit = direction > 0 ? frame.x + frame.width : frame.x - viewport
            let appears = time(toReach: enter)
            let leaves = resting.contains(index) ? Double.infinity : time(toReach: exit)
            guard leaves > 0 else { continue }
            let cost = load.decodeSeconds ?? defaultDecodeSeconds
            // A running decode has about half its cost left when nothing says how long it has run.
            let remaining = load.state != .running ? cost
                : load.runningSeconds.map { max(cost * 0.1, cost - $0) } ?? cost / 2
            result.append(Candidate(index: index, appears: appears, leaves: leaves, cost: cost,
                                    state: load.state, remaining: remaining))
        }
        return result
    }

    /// The items to decode, most urgent first.
    package func plan(_ candidates: [Candidate]) -> [Int] {
        // The fling stops about when its last item appears or leaves; the resting screen counts from there.
        let stop = candidates.map { $0.leaves.isFinite ? max($0.appears, $0.leaves) : $0.appears }.max() ?? 0
        let horizon = stop + restHoldSeconds
        let running = Array(candidates.filter { $0.state == .running }.prefix(workers))
        let waiting = candidates.filter { $0.state != .running }
            .sorted { ($0.appears, $0.leaves, $0.index) < ($1.appears, $1.leaves, $1.index) }
        // Running decodes hold their worker for what is left of their cost. When they can be stopped they
        // are planned first (each on its own worker), so the plan can leave them out; otherwise they are
        // just busy workers.
        let free: [Double]
        let ordered: [Candidate]
        if reclaimsRunning {
            free = Array(repeating: 0.0, count: workers)
            ordered = running + waiting
        } else {
            let busy = running.map(\.remaining)
            free = busy + Array(repeating: 0.0, count: max(0, workers - busy.count))
            ordered = waiting
        }

        /// Placeholder seconds over the plan with `chosen` decoded in order, and which were worth it.
        func simulate(_ chosen: [Bool]) -> (placeholder: Double, kept: [Bool]) {
            var workersFree = free
            var placeholder = 0.0
            var kept = chosen
            for (i, item) in ordered.enumerated() {
                let shown = min(item.leaves, horizon) - item.appears
                guard chosen[i] else { placeholder += max(0, shown); continue }
                let w = workersFree.indices.min { workersFree[$0] < workersFree[$1] }!
                let lands = workersFree[w] + item.remaining
                let saved = min(item.leaves, horizon) - max(lands, item.appears)
                if saved < minimumSavedSeconds {
                    kept[i] = false
                    placeholder += max(0, shown)
                    continue
                }
                workersFree[w] = lands
                placeholder += max(0, min(lands, min(item.leaves, horizon)) - item.appears)
            }
            return (placeholder, kept)
        }

        var chosen = simulate(Array(repeating: true, count: ordered.count)).kept
        var best = simulate(chosen).placeholder
        // Drop a kept decode when everything after it gains more than it saves; passing items first. A
        // running decode is only stopped when it cannot pay off by itself (above): weighed against the
        // others, the plan flip-flops between frames and every restart throws work away.
        var improved = true
        var rounds = 0
        while improved && rounds < 4 {
            improved = false
            rounds += 1
            for i in ordered.indices where chosen[i] && ordered[i].leaves.isFinite && ordered[i].state != .running {
                chosen[i] = false
                let trial = simulate(chosen)
                if trial.placeholder < best - 1e-9 {
                    best = trial.placeholder
                    chosen = trial.kept
                    improved = true
                } else {
                    chosen[i] = true
                }
            }
        }
        return ordered.indices.filter { chosen[$0] }.map { ordered[$0].index }
    }
}
