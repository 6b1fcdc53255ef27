import Foundation

extension WorkScheduler {
    /// Everything mutable of one lane; guarded by its executor's lock.
    struct State {
        var jobsByKey: [Key: Job] = [:]
        var heap = JobHeap()
        var queuedCount = 0
        var isShutDown = false
        var stats = SchedulerStats()

        mutating func enqueue(_ job: Job) {
            heap.push(HeapEntry(priority: job.priority, sequence: job.sequence, generation: job.generation, job: job))
        }

        mutating func setPriority(_ priority: Int, of job: Job) {
            guard job.phase == .queued, job.priority != priority else { return }
            job.priority = priority
            job.generation += 1
            enqueue(job)
            if heap.count > 2 * queuedCount + 64 { heap.compact() }
        }

        /// Drops stale entries off the heap's top; the first live one, if any, stays there.
        mutating func firstQueued() -> HeapEntry? {
            while let first = heap.first {
                if first.isCurrent { return first }
                _ = heap.popFirst()
            }
            return nil
        }
    }

    /// One lane of an executor: its keyed jobs, their heap, and how they run. The worker threads reach
    /// it through the executor while it is registered there; the scheduler owns it.
    final class JobQueue: ExecutorLane, @unchecked Sendable {
        /// Kept alive as long as the lane: the executor's workers go when the last of its lanes and its
        /// owner let it go.
        let executor: WorkExecutor
        private let core: ExecutorCore
        private var state = State()
        /// Each job's share of a memory budget, taken before its work runs; nil runs work at once.
        private let admission: MemoryAdmission?

        init(executor: WorkExecutor, rank: WorkRank, maxRunning: Int, admission: MemoryAdmission?) {
            self.executor = executor
            core = executor.core
            self.admission = admission
            super.init(rank: rank, maxRunning: maxRunning)
            core.locked {
                if !core.register(self) { state.isShutDown = true }
            }
        }

        func locked<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            core.condition.lock()
            defer { core.condition.unlock() }
            return try body(&state)
        }

        /// The lane's rank; a new one reorders its queued jobs against the other lanes' at once.
        var currentRank: WorkRank {
            get { core.locked { rank } }
            set { core.locked { rank = newValue } }
        }

        func request(_ key: Key, priority: Int, work: @escaping CancellableWork, completion: @escaping Completion) {
            let accepted = locked { state -> Bool in
                guard !state.isShutDown else { return false }
                state.stats.submitted += 1
                if let job = state.jobsByKey[key] {
                    state.stats.shared += 1
                    job.completions.append(completion)
                    // Wanted again: a running job asked to stop carries on if it has not stopped yet.
                    if job.phase == .running { job.cancellation.withdraw() }
                    state.setPriority(min(job.priority, priority), of: job)
                    return true
                }
                let job = Job(key: key, work: work, sequence: core.nextSequence, priority: priority,
                              completion: completion)
                core.nextSequence += 1
                state.jobsByKey[key] = job
                state.queuedCount += 1
                state.enqueue(job)
                core.condition.signal()
                return true
            }
            if !accepted { completion(key, .failure(WorkSchedulerError.shutDown)) }
        }

        func reprioritize(_ priorities: [Key: Int]) {
            locked { state in
                for (key, priority) in priorities {
                    if let job = state.jobsByKey[key] { state.setPriority(priority, of: job) }
                }
            }
        }

        /// Sets the cancellation signal of the running jobs whose key matches and clears it on the others.
        func cancelRunning(where shouldStop: (Key) -> Bool) -> [Key] {
            locked { state -> [Key] in
                var asked: [Key] = []
                for job in state.jobsByKey.values where job.phase == .running {
                    if shouldStop(job.key) {
                        if !job.cancellation.isCancelled {
                            job.cancellation.cancel()
                            asked.append(job.key)
                        }
                    } else if job.cancellation.isCancelled {
                        job.cancellation.withdraw()
                    }
                }
                return asked
            }
        }

        /// Removes the queued jobs whose key matches, then fails their completions outside the lock.
        func drop(where shouldDrop: (Key) -> Bool) -> [Key] {
            let dropped = locked { state -> [DroppedJob] in
                let jobs = state.jobsByKey.values.filter { $0.phase == .queued && shouldDrop($0.key) }
                guard !jobs.isEmpty else { return [] }
                let dropped = jobs.map { Self.remove($0, from: &state) }
                state.heap.compact()
                return dropped
            }
            Self.failAsCancelled(dropped)
            return dropped.map(\.key)
        }

        /// Drops the queued jobs and refuses new ones; the executor goes on with its other lanes.
        func shutdown() {
            let dropped = locked { state -> [DroppedJob] in
                core.unregister(self)
                return Self.closeLocked(&state)
            }
            Self.failAsCancelled(dropped)
        }

        override func close() -> () -> Void {
            let dropped = Self.closeLocked(&state)
            return { Self.failAsCancelled(dropped) }
        }

        private static func closeLocked(_ state: inout State) -> [DroppedJob] {
            guard !state.isShutDown else { return [] }
            state.isShutDown = true
            let dropped = state.jobsByKey.values.filter { $0.phase == .queued }.map { remove($0, from: &state) }
            state.heap = JobHeap()
            return dropped
        }

        /// Blocks until none of this lane's jobs is running, or until `deadline`; whether none is. Used
        /// after `shutdown`, when the process is about to end, so it looks now and then rather than
        /// sharing the executor's condition with the workers.
        func waitUntilNoneRunning(until deadline: Date) -> Bool {
            while core.locked({ runningCount > 0 }) {
                guard Date() < deadline else { return false }
                Thread.sleep(forTimeInterval: 0.002)
            }
            return true
        }

        override func firstQueued() -> (priority: Int, sequence: Int)? {
            state.firstQueued().map { ($0.priority, $0.sequence) }
        }

        override func takeFirst() -> AnyObject {
            let entry = state.heap.popFirst()!
            start(entry.job, in: &state)
            return entry.job
        }

        /// The most urgent queued job of this lane alone, now marked running; nil when none is queued or
        /// the lane runs as many as it may.
        func takeNextJobWithoutWaiting() -> Job? {
            locked { state -> Job? in
                guard runningCount < maxRunning, let entry = state.firstQueued() else { return nil }
                _ = state.heap.popFirst()
                start(entry.job, in: &state)
                return entry.job
            }
        }

        /// Lock held.
        private func start(_ job: Job, in state: inout State) {
            job.phase = .running
            job.startedAt = .now
            state.queuedCount -= 1
            runningCount += 1
            state.stats.started += 1
        }

        override func run(_ job: AnyObject) {
            execute(unsafeDowncast(job, to: Job.self))
        }

        /// Runs the job's work, then hands the result to every completion gathered meanwhile. The job
        /// leaves `jobsByKey` in the same critical section that collects its completions, so a request
        /// either joins this execution or starts a new job, never falls between the two.
        func execute(_ job: Job) {
            let result = Result { try admitted(job) }
            let (completions, work) = locked { state -> ([Completion], CancellableWork?) in
                state.jobsByKey[job.key] = nil
                runningCount -= 1
                state.stats.executed += 1
                if case .failure(let error) = result, error is DecodeCancelled { state.stats.stoppedRunning += 1 }
                let completions = job.completions
                job.completions = []
                let work = job.work
                job.work = nil
                return (completions, work)
            }
            withExtendedLifetime(work) {}
            for completion in completions { completion(job.key, result) }
        }

        /// The job's work, once its estimated working memory fits the budget (at once without one). A job
        /// asked to stop while it waits ends with `DecodeCancelled`, its work never run.
        private func admitted(_ job: Job) throws -> Value {
            // A running job is never dropped, so its work is there until `execute` takes it out.
            let work = job.work!
            guard let admission else { return try work(job.cancellation) }
            let bytes = admission.estimate(job.key)
            return try admission.budget.withAdmission(bytes: bytes, cancellation: job.cancellation) {
                try work(job.cancellation)
            }
        }

        /// A dropped job's key and completions, taken under the lock so they can be called after it.
        /// The work rides along so that it is let go after the lock, with the completions.
        private typealias DroppedJob = (key: Key, completions: [Completion], work: CancellableWork?)

        private static func remove(_ job: Job, from state: inout State) -> DroppedJob {
            state.jobsByKey[job.key] = nil
            state.queuedCount -= 1
            state.stats.cancelled += 1
            job.phase = .dropped  // any heap entry left for it is now stale
            let completions = job.completions
            job.completions = []
            let work = job.work
            job.work = nil
            return (job.key, completions, work)
        }

        private static func failAsCancelled(_ dropped: [DroppedJob]) {
            for (key, completions, _) in dropped {
                for completion in completions { completion(key, .failure(WorkSchedulerError.cancelled)) }
            }
        }
    }
}
