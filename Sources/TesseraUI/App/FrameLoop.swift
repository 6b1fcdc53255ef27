import Foundation
import TesseraCore
import TesseraSDL

/// What `FrameLoop` drives: one screen's input handling, frame and idleness.
protocol FrameLoopScreen: AnyObject {
    /// Set once the user or the script asked to quit; the loop draws one last frame and stops.
    var wantsToQuit: Bool { get }
    func isIdle(now: Duration) -> Bool
    func scriptContext(now: Duration, idle: Bool) -> ScriptContext
    func handle(_ event: InputEvent, now: Duration)
    /// Updates and draws the frame (without presenting it).
    func renderFrame(now: Duration)
}

/// The main-thread frame loop shared by the strip (`Viewer`) and the standalone tiled view
/// (`TiledViewer`): poll input (sleeping while idle on a real display), replay the script, draw, take the
/// screenshot on the last frame, present, time the frame, and pace headless runs like a 60 Hz display.
struct FrameLoop {
    struct Result {
        var frames = 0
        /// The main thread's own work per frame, in milliseconds.
        var frameSamples: [Double] = []
        /// When each frame started, in seconds on the loop's clock.
        var frameStarts: [Double] = []
    }

    let system: SDLSystem
    let renderer: Renderer
    let clock: any FrameClock
    let headless: Bool
    let frameLimit: Int?
    let script: InputScript?
    let screenshotPath: String?

    init(system: SDLSystem, renderer: Renderer, clock: any FrameClock, options: ViewerOptions) {
        self.system = system
        self.renderer = renderer
        self.clock = clock
        headless = options.headless
        frameLimit = options.frameLimit
        script = options.script
        screenshotPath = options.screenshotPath
    }

    /// Runs until the screen wants to quit, the script ends, the frame limit is reached, or (headless,
    /// with neither script nor limit) the screen is idle.
    func run(_ screen: FrameLoopScreen) throws -> Result {
        let player = script.map(ScriptPlayer.init)
        let input = InputReader(wakeType: system.wakeEventType)
        var result = Result()
        var lastFrameWasIdle = false
        while !screen.wantsToQuit {
            // Nothing is loading before the first frame has asked for anything: that is not idle, or a
            // script's `wait-idle` would end the run on a screen of placeholders.
            let idle = result.frames > 0 && screen.isIdle(now: clock.now())
            // An idle interactive viewer sleeps until input or a worker wakes it; otherwise poll.
            let wait: Int32? = (!headless && idle && lastFrameWasIdle) ? 500 : nil
            var events = input.poll(waitMs: wait)
            let frameStart = clock.now()
            if let player {
                events += player.events(screen.scriptContext(now: frameStart, idle: idle))
            }
            for event in events { screen.handle(event, now: frameStart) }

            let isLastFrame = screen.wantsToQuit
                || (frameLimit.map { result.frames + 1 >= $0 } ?? false)
                || (player?.isFinished ?? false)
                || (headless && player == nil && frameLimit == nil && idle)
            screen.renderFrame(now: frameStart)
            if isLastFrame, let screenshotPath { try PNGWriter.write(try renderer.readPixels(), to: screenshotPath) }
            renderer.present()
            result.frameSamples.append((clock.now() - frameStart).seconds * 1000)
            result.frameStarts.append(frameStart.seconds)
            result.frames += 1
            lastFrameWasIdle = idle
            if isLastFrame { break }
            if headless {
                // Pace headless runs like a 60 Hz display so scrolling and decoding race as they would.
                let budget = Duration.milliseconds(1000) / 60
                let spent = clock.now() - frameStart
                if spent < budget { Thread.sleep(forTimeInterval: (budget - spent).seconds) }
            }
        }
        return result
    }
}

extension RunReport {
    /// The frame figures every run reports.
    mutating func addFrames(_ result: FrameLoop.Result) {
        frames = result.frames
        frameMs = SampleSummary(samples: result.frameSamples)
        framesOver16ms = result.frameSamples.filter { $0 > 1000.0 / 60 }.count
    }
}
