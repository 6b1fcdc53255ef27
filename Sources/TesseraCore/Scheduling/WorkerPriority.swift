import Foundation

/// How much CPU a scheduler's worker threads get when the machine is busy.
package enum WorkerPriority: Sendable, Equatable {
    /// The process's own priority: batch work nobody waits on frame by frame (`tessera tile`).
    case normal
    /// Ten nice levels below the process (iOS's utility QoS, roughly): decodes behind an interactive
    /// view. Each worker then weighs about a tenth of the main thread in Linux's scheduler, so on a machine
    /// with as many busy workers as cores the main thread still runs the moment a frame is due instead of
    /// waiting out a decode's time slice (docs/PERFORMANCE.md).
    case background
    /// As far below the process as nice goes: work that yields even to the view's own decodes, such as a
    /// giant image's tile cut while its overview and its tiles load.
    case idle

    /// Nice levels added to the process's own (capped at 19, the lowest).
    package var niceIncrement: Int32 {
        switch self {
        case .normal: return 0
        case .background: return 10
        case .idle: return 19
        }
    }

    /// Sets process `pid` (its main thread, and the threads it starts from then on) `niceIncrement` below
    /// this process's main thread, as a worker of this priority would be; whether it did.
    package func apply(toProcess pid: pid_t) -> Bool {
        guard niceIncrement > 0 else { return false }
        #if os(Linux)
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid()))
        return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), min(19, current + niceIncrement)) == 0
        #else
        return false
        #endif
    }

    /// Whether this priority is below `other` (further from the process's own).
    package func isLower(than other: WorkerPriority) -> Bool { niceIncrement > other.niceIncrement }

    /// Lowers the calling thread from `applied` (the priority it runs at) to this one. On Linux the nice
    /// value belongs to the thread, not the process (setpriority(2), NOTES), and lowering it needs no
    /// privilege; raising it back would, so a priority only ever goes down.
    package func applyToCurrentThread(from applied: WorkerPriority = .normal) {
        let increment = niceIncrement - applied.niceIncrement
        guard increment > 0 else { return }
        #if os(Linux)
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + increment))
        #endif
    }
}
