import Foundation
import Synchronization
import XCTest
@testable import TesseraCore
@testable import TesseraUI

/// `RunRecorder` turns what a run tells it into the report's figures, on a clock the test steps.
final class RunRecorderTests: XCTestCase {
    /// A manual clock that also counts how often it is read.
    private final class CountingClock: FrameClock {
        let clock = ManualClock(start: .seconds(10))
        let reads = Atomic<Int>(0)
        func now() -> Duration {
            reads.add(1, ordering: .relaxed)
            return clock.now()
        }
        func advance(ms: Int) { clock.advance(by: .milliseconds(ms)) }
    }

    /// One strip frame: update, upload and draw phases of `phases` ms each, then `rest` ms to present.
    private func frame(_ recorder: RunRecorder, _ clock: CountingClock, phases: (Int, Int, Int), rest: Int,
                       cells: (placeholders: Int, visible: Int, fading: Bool)?, moving: Bool = false) {
        recorder.frameBegan(at: clock.now())
        for (phase, ms) in zip([FramePhase.update, .upload, .draw], [phases.0, phases.1, phases.2]) {
            recorder.phaseBegan(phase)
            clock.advance(ms: ms)
            recorder.phaseEnded(phase)
        }
        if let cells { recorder.cellsDrawn(placeholders: cells.placeholders, visible: cells.visible, fading: cells.fading) }
        if moving { recorder.frameShowedMotion() }
        clock.advance(ms: rest)
        recorder.frameEnded()
    }

    func testFramesTheirPhasesAndTheCellsTheyDrew() {
        let clock = CountingClock()
        let recorder = RunRecorder(clock: clock, host: .strip, recordsFrameTimes: true)
        frame(recorder, clock, phases: (2, 1, 3), rest: 4, cells: (2, 3, true))
        frame(recorder, clock, phases: (5, 0, 10), rest: 5, cells: (0, 3, false), moving: true)
        let report = recorder.report()
        XCTAssertEqual(report.frames, 2)
        XCTAssertEqual(report.frameMs, SampleSummary(samples: [10, 20]))
        XCTAssertEqual(report.framesOver16ms, 1)
        XCTAssertEqual(report.placeholderCellFrames, 2)
        XCTAssertEqual(report.visibleCellFrames, 6)
        XCTAssertEqual(report.fadingFrames, 1)
        XCTAssertEqual(report.movingFrameMs, SampleSummary(samples: [20]))
        let rows = try! XCTUnwrap(report.frameTimes)
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[0][0], 10, accuracy: 1e-9, "started at the clock's 10 s")
        XCTAssertEqual(rows[0][1...].map { ($0 * 1000).rounded() / 1000 }, [10, 2, 2, 1, 3])
        XCTAssertEqual(rows[1][0], 10.010, accuracy: 1e-9)
        XCTAssertEqual(rows[1][1...].map { ($0 * 1000).rounded() / 1000 }, [20, 0, 5, 0, 10])
    }

    func testWithoutFrameTimesPhasesReadNoClock() {
        let clock = CountingClock()
        let recorder = RunRecorder(clock: clock, host: .strip)
        recorder.frameBegan(at: .seconds(10))
        let before = clock.reads.load(ordering: .relaxed)
        for phase in FramePhase.allCases {
            recorder.phaseBegan(phase)
            recorder.phaseEnded(phase)
        }
        XCTAssertEqual(clock.reads.load(ordering: .relaxed), before)
        recorder.frameEnded()
        XCTAssertNil(recorder.report().frameTimes)
        XCTAssertEqual(recorder.report().frames, 1)
    }

    func testLoadsAndUploadsCountForTheirView() {
        let recorder = RunRecorder(clock: ManualClock(), host: .strip)
        for event: LoadEvent in [.requested, .started(onMainThread: false), .succeeded(cost: 100), .requested,
                                 .started(onMainThread: true), .failed, .droppedQueued(count: 3), .stoppedRunning] {
            recorder.load(event, in: .strip)
        }
        recorder.load(.started(onMainThread: true), in: .tiled)
        recorder.uploaded(bytes: 40, in: .strip)
        recorder.uploaded(bytes: 7, in: .tiled)
        recorder.cellTextureMade()
        recorder.fileChangesApplied(2)
        recorder.fileChangesApplied(1)
        recorder.animationFrameShown()
        recorder.animationFrameShown()
        var report = recorder.report()
        XCTAssertEqual(report.decodes, 2)
        XCTAssertEqual(report.decodedBytes, 100)
        XCTAssertEqual(report.mainThreadDecodes, 1, "no zoomable view opened: its loads are left out")
        XCTAssertEqual(report.uploadBytes, 40, "the strip's uploads only")
        XCTAssertEqual(report.cellTexturesMadeInFrames, 1)
        XCTAssertEqual(report.fileChanges, 3)
        XCTAssertEqual(report.animationFramesShown, 2)
        XCTAssertNil(report.tilesRequested)
        XCTAssertNil(report.firstFrameMs)
        XCTAssertGreaterThan(report.peakRSSBytes, 0)

        recorder.tiledViewOpened()
        report = recorder.report()
        XCTAssertEqual(report.tilesRequested, 0)
        XCTAssertEqual(report.holeFrames, 0)
        XCTAssertEqual(report.mainThreadDecodes, 2, "a tile loaded on the main thread counts as a main-thread decode")
    }

    func testEachZoomableViewIsMeasuredFromItsOpening() {
        let recorder = RunRecorder(clock: ManualClock(), host: .tiled)
        let a = TileID(level: 3, column: 0, row: 0), b = TileID(level: 3, column: 1, row: 0)
        recorder.tiledViewOpened()
        recorder.tiledFrameDrawn(complete: false, sharp: false, sinceOpening: .milliseconds(10))
        recorder.tiledFrameDrawn(complete: true, sharp: false, sinceOpening: .milliseconds(20))
        recorder.tiledFrameDrawn(complete: false, sharp: false, sinceOpening: .milliseconds(30))
        recorder.tiledFrameDrawn(complete: true, sharp: true, sinceOpening: .milliseconds(40))
        recorder.tileFadeBegan(a, at: .seconds(1))
        recorder.tileShownOpaque(b, at: .seconds(2))
        recorder.tileShownOpaque(a, at: .milliseconds(1250))
        recorder.tileShownOpaque(a, at: .seconds(3))
        for event: LoadEvent in [.requested, .requested, .succeeded(cost: 1), .failed, .droppedQueued(count: 1)] {
            recorder.load(event, in: .tiled)
        }
        recorder.uploaded(bytes: 9, in: .tiled)
        // A second view: its holes before its own first complete frame are not holes; its figures come
        // after the first view's.
        recorder.tiledViewOpened()
        recorder.tiledFrameDrawn(complete: false, sharp: false, sinceOpening: .milliseconds(5))
        recorder.tiledFrameDrawn(complete: true, sharp: true, sinceOpening: .milliseconds(8))
        recorder.tiledFrameDrawn(complete: false, sharp: false, sinceOpening: .milliseconds(9))
        recorder.tileFadeBegan(a, at: .seconds(5))
        recorder.tileShownOpaque(a, at: .milliseconds(5100))

        XCTAssertEqual(recorder.tiledViews.map(\.fadeSamplesMs), [[250], [100]])
        let report = recorder.report()
        XCTAssertEqual(report.firstFrameMs, 20)
        XCTAssertEqual(report.sharpMs, 40)
        XCTAssertEqual(report.holeFrames, 2)
        XCTAssertEqual(report.fadeMsObserved, 250)
        XCTAssertEqual(report.tilesRequested, 2)
        XCTAssertEqual(report.tilesDecoded, 1)
        XCTAssertEqual(report.tilesFailed, 1)
        XCTAssertEqual(report.tilesCancelled, 1)
        XCTAssertEqual(report.uploadBytes, 9, "a zoomable view's run reports its uploads")
        XCTAssertEqual(report.decodes, 0)
    }
}
