import Dispatch
import Synchronization
import TesseraExperiment
import XCTest
@testable import TesseraCore

/// The book's strategies let running decodes finish, as UIKit's operation queues did: flung far away
/// from a decode in progress, the strip does not ask it to stop. A real worker, gated, nothing timed.
final class BookPreemptionTests: XCTestCase {
    /// A deadline 30 s from each wait.
    private var timeout: DispatchTime { .now() + 30 }

    /// The strip starts decoding what it shows, then is flung far away: is the running decode asked to stop?
    private func runningDecodeIsAskedToStop(with strategy: LoadingStrategy) -> Bool {
        let started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let signals = Mutex<[ImageKey: DecodeCancellation]>([:])
        let base = Fixture.loader()
        let pipeline = ImagePipeline.strip(strategy: strategy, scheduler: WorkScheduler(workerCount: 1), cacheCostLimit: 0,
                                           decode: { key, cancellation in
                                               signals.withLock { $0[key] = cancellation }
                                               started.signal()
                                               gate.wait()
                                               try cancellation.check()
                                               return try base(key)
                                           })
        defer {
            for _ in 0..<64 { gate.signal() }
            pipeline.shutdown()
        }
        let model = CarouselModel(items: Fixture.items(200), configuration: CarouselConfiguration(), pipeline: pipeline,
                                  strategy: strategy, viewportWidth: 1280, viewportHeight: 720)
        model.update(now: .zero)
        XCTAssertEqual(started.wait(timeout: timeout), .success)
        let running = signals.withLock { Array($0) }
        XCTAssertEqual(running.count, 1)
        // 900 pt in 60 ms: the bench's fast fling, far faster than the (unknown, so 0.1 s) decodes.
        model.beginDrag(x: 1100, time: .milliseconds(16))
        model.drag(x: 200, time: .milliseconds(76))
        model.endDrag(time: .milliseconds(76))
        for step in 1...10 { model.update(now: .milliseconds(76 + 16 * step)) }
        XCTAssertFalse(model.layout.visibleRange(offset: model.scroll.offset).contains(Fixture.index(of: running[0].key.path)))
        return running[0].value.isCancelled
    }

    func testTheBooksStrategiesNeverStopRunningDecodes() {
        for name in LoadingStrategies.names where name != "adaptive" {
            let strategy = LoadingStrategies.make(name, decodeWorkers: 2)!
            XCTAssertFalse(strategy.cancelsRunningWork, name)
            // Listing 14.1 decodes on the main thread: nothing runs on a worker to stop.
            guard !(strategy.loadStarter is MainThreadLoads) else { continue }
            XCTAssertFalse(runningDecodeIsAskedToStop(with: strategy), name)
        }
    }
}
