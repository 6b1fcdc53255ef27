import Foundation

extension WorkScheduler {
    /// Everything mutable; guarded by `JobQueue.condition`.
    struct State {
        var jobsByKey: [Key: Job] = [:]
        var heap = JobHeap()
        var nextSequence = 0
        var queuedCount = 0
        var runningCount = 0
        var liveWorkers = 0
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

        /// The most urgent queued job, now marked running.
        mutating func takeNextJob() -> Job? {
            while let entry = heap.popFirst() {
                guard entry.isCurrent else { continue }
                entry.job.phase = .running
                entry.job.startedAt = .now
                queuedCount -= 1
                runningCount += 1
                stats.started += 1
                return entry.job
            }
            return nil
        }
    }

    /// The shared core: state, the condition that guards it and wakes workers, and the worker loop.
    /// `@unchecked Sendable` because `state` is only ever read or written with `condition` locked.
    final class JobQueue: @unchecked Sendable {
        private let condition = NSCondition()
        private var state = State()
        /// Each job's share of a memory budget, taken before its work runs; nil runs work at once.
        private let admission: MemoryAdmission?

        init(admission: MemoryAdmission? = nil) {
            self.admission = admission
        }

        func locked<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            condition.lock()
            defer { condition.unlock() }
            return try body(&state)
        }

        func startWorkers(count: Int, name: String, priority: WorkerPriority) {
            locked { $0.liveWorkers = count }
            for index in 0..<count {
                let threadName = Self.threadName(name, index: index)
                // The thread retains this queue (not the scheduler) until its loop returns after shutdown.
                let launched = DispatchSemaphore(value: 0)
                let thread = Thread { [self] in
                    // Named from inside, once start() has returned: corelibs Foundation ignores a name
                    // set before start(), and drops one set before start() has stored the pthread handle.
                    // Named, workers are recognisable in top -H, gdb and /proc.
                    launched.wait()
                    Thread.current.name = threadName
                    priority.applyToCurrentThread()
                    runWorkerLoop()
                }
                thread.start()
                launched.signal()
            }
        }

        /// "`base`.`index`", with `base` shortened so the whole fits Linux's 15-byte thread names
        /// (longer names are refused outright, not truncated).
        private static func threadName(_ base: String, index: Int) -> String {
            let suffix = ".\(index)"
            var base = Substring(base)
            while base.utf8.count + suffix.utf8.count > 15, !base.isEmpty { base.removeLast() }
            return base + suffix
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
                let job = Job(key: key, work: work, sequence: state.nextSequence, priority: priority,
                              completion: completion)
                state.nextSequence += 1
                state.jobsByKey[key] = job
                state.queuedCount += 1
                state.enqueue(job)
                condition.signal()
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
                let dropped = jobs.map { remove($0, from: &state) }
                state.heap.compact()
                return dropped
            }
            failAsCancelled(dropped)
            return dropped.map(\.key)
        }

        func shutdown() {
            let dropped = locked { state -> [DroppedJob] in
                guard !state.isShutDown else { return [] }
                state.isShutDown = true
                let jobs = state.jobsByKey.values.filter { $0.phase == .queued }
                let dropped = jobs.map { remove($0, from: &state) }
                state.heap = JobHeap()
                condition.broadcast()
                return dropped
            }
            failAsCancelled(dropped)
        }

        func waitForWorkersToExit(until deadline: Date) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while state.liveWorkers > 0 {
                if !condition.wait(until: deadline) { return state.liveWorkers == 0 }
            }
            return true
        }

        func takeNextJobWithoutWaiting() -> Job? {
            locked { $0.takeNextJob() }
        }

        /// Runs the job's work, then hands the result to every completion gathered meanwhile. The job
        /// leaves `jobsByKey` in the same critical section that collects its completions, so a request
        /// either joins this execution or starts a new job, never falls between the two.
        func execute(_ job: Job) {
            let result = Result { try admitted(job) }
            let completions = locked { state -> [Completion] in
                state.jobsByKey[job.key] = nil
                state.runningCount -= 1
                state.stats.executed += 1
                if case .failure(let error) = result, error is DecodeCancelled { state.stats.stoppedRunning += 1 }
                let completions = job.completions
                job.completions = []
                return completions
            }
            for completion in completions { completion(job.key, result) }
        }

        /// The job's work, once its estimated working memory fits the budget (at once without one). A job
        /// asked to stop while it waits ends with `DecodeCancelled`, its work never run.
        private func admitted(_ job: Job) throws -> Value {
            guard let admission else { return try job.work(job.cancellation) }
            let bytes = admission.estimate(job.key)
            return try admission.budget.withAdmission(bytes: bytes, cancellation: job.cancellation) {
                try job.work(job.cancellation)
            }
        }

        private func runWorkerLoop() {
            while let job = waitForNextJob() {
                execute(job)
            }
        }

        /// Sleeps until a job is queued (returning it) or the queue shuts down (returning nil, after
        /// counting this worker out so `waitForWorkersToExit` can see it).
        private func waitForNextJob() -> Job? {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if state.isShutDown {
                    state.liveWorkers -= 1
                    condition.broadcast()
                    return nil
                }
                if let job = state.takeNextJob() { return job }
                condition.wait()
            }
        }

        /// A dropped job's key and completions, taken under the lock so they can be called after it.
        private typealias DroppedJob = (key: Key, completions: [Completion])

        private func remove(_ job: Job, from state: inout State) -> DroppedJob {
            state.jobsByKey[job.key] = nil
            state.queuedCount -= 1
            state.stats.cancelled += 1
            job.phase = .dropped  // any heap entry left for it is now stale
            let completions = job.completions
            job.completions = []
            return (job.key, completions)
        }

        private func failAsCancelled(_ dropped: [DroppedJob]) {
            for (key, completions) in dropped {
                for completion in completions { completion(key, .failure(WorkSchedulerError.cancelled)) }
            }
        }
    }
}
