import Foundation
import TesseraCore
import TesseraSDL

/// What `FrameLoop` drives: one screen's input handling, frame and idleness.
protocol FrameLoopScreen: AnyObject {
    /// Set once the screen is ready to end (asked to quit, and what it had started is finished); the loop
    /// draws one last frame and stops.
    var wantsToQuit: Bool { get }
    /// The run is to end (its script ended, its frame limit was reached, a headless run went idle): the
    /// screen finishes what it started, as when the user quits, and then wants to quit.
    func requestQuit()
    func isIdle(now: Duration) -> Bool
    /// Nothing on screen changes until input, a worker's wake or `nextWake`, though work may be under way
    /// (decodes whose landing wakes the loop): an interactive loop draws no frame until then.
    func isStill(now: Duration) -> Bool
    /// The next frame would only show pictures landing and step fades while workers decode, nothing moving:
    /// the loop may space such frames out so drawing them leaves the decoders most of the CPU.
    func mayPaceFrames(now: Duration) -> Bool
    /// When an idle screen must be drawn again by itself (an animation's next frame, an opening's caption);
    /// nil: only on input or a worker's wake.
    func nextWake(now: Duration) -> Duration?
    func scriptContext(now: Duration, idle: Bool) -> ScriptContext
    func handle(_ event: InputEvent, now: Duration)
    /// Updates and draws the frame (without presenting it).
    func renderFrame(now: Duration)
    /// Called once, when the first screen is shown (the first frame with nothing left to load, fade or
    /// move), or the user starts doing something, or `FrameLoop.firstScreenWait` after the first frame:
    /// what runs beside the interface may step back behind it (`StartPriority`).
    func firstScreenShown()
}

extension FrameLoopScreen {
    func isStill(now: Duration) -> Bool { isIdle(now: now) }
    func mayPaceFrames(now: Duration) -> Bool { false }
    func firstScreenShown() {}
}

/// The main-thread frame loop shared by the strip (`Viewer`) and the standalone tiled view
/// (`TiledViewer`): poll input (sleeping while idle on a real display), replay the script, draw, take the
/// screenshot on the last frame, present, and pace headless runs like a 60 Hz display. A measured run's
/// observer hears when each frame begins and ends: the frame time is the main thread's own work from
/// its events to its present.
struct FrameLoop {
    let system: SDLSystem
    let renderer: Renderer
    let clock: any FrameClock
    let headless: Bool
    let frameLimit: Int?
    let script: InputScript?
    let screenshotPath: String?
    let observer: (any RunObserver)?
    /// Where the first frame and the first settled one are marked.
    let startup: StartupTimeline

    init(system: SDLSystem, renderer: Renderer, clock: any FrameClock, options: ViewerOptions, observer: (any RunObserver)?) {
        self.system = system
        self.renderer = renderer
        self.clock = clock
        self.observer = observer
        headless = options.headless
        frameLimit = options.frameLimit
        script = options.script
        screenshotPath = options.screenshotPath
        startup = .process
    }

    /// The interval between paced frames: four times what the last one cost, so drawing takes at most a
    /// quarter of the time, and no more often than 25 times a second (a 0.25 s fade still shows in steps).
    static func pacedInterval(afterFrameCosting cost: Duration) -> Duration {
        max(.milliseconds(40), cost * 4)
    }

    /// Input from the user (not a worker's wake, nor the window's own resize).
    private static func isUserInput(_ event: InputEvent) -> Bool {
        switch event {
        case .keyDown, .mouseDown, .mouseUp, .wheel, .quit, .dropped: return true
        case .mouseMotion, .resized, .wake: return false
        }
    }

    /// How long after the first frame the first screen counts as shown at the latest: an animation or a
    /// cut never settles, and a decode may hang until its time limit.
    static let firstScreenWait = Duration.seconds(2)

    /// Runs until the screen wants to quit: the user asked, or the script ended, the frame limit was
    /// reached, or (headless, with neither script nor limit) the screen went idle, and in each case what
    /// the screen had started is finished.
    func run(_ screen: FrameLoopScreen) throws {
        let player = script.map(ScriptPlayer.init)
        let input = InputReader(wakeType: system.wakeEventType)
        var frames = 0
        var lastFrameWasStill = false
        var lastFrame: (start: Duration, cost: Duration)?
        var settled = false
        var firstScreen: (frameAt: Duration?, shown: Bool) = (nil, false)
        var endRequested = false
        while !screen.wantsToQuit {
            // Nothing is loading before the first frame has asked for anything: that is not idle, or a
            // script's `wait-idle` would end the run on a screen of placeholders.
            let idle = frames > 0 && screen.isIdle(now: clock.now())
            let still = frames > 0 && (idle || screen.isStill(now: clock.now()))
            // An interactive viewer whose last frame already showed a screen that will not change by itself
            // sleeps until input or a worker wakes it, or an animation's next frame is due: frames that
            // change nothing would take the CPU the decoders need (a software GL renderer draws on it).
            // Otherwise poll.
            var wait: Int32? = (!headless && still && lastFrameWasStill) ? 500 : nil
            if wait != nil, let wake = screen.nextWake(now: clock.now()) {
                let ms = ((wake - clock.now()) / .milliseconds(1)).rounded(.up)
                wait = Int32(min(max(ms, 0), 500))
            }
            // While the screen fills, frames go at the pace they cost: one at most every
            // `Self.pacedInterval(afterFrameCosting:)`, the pictures landing meanwhile (each a worker's
            // wake) drawn together in it. Input is drawn at once.
            var due: Duration?
            if !headless, let lastFrame, screen.mayPaceFrames(now: clock.now()) {
                due = lastFrame.start + Self.pacedInterval(afterFrameCosting: lastFrame.cost)
            }
            func msUntil(_ time: Duration) -> Int32 {
                Int32(min(max(((time - clock.now()) / .milliseconds(1)).rounded(.up), 0), 500))
            }
            if wait == nil, let due { wait = msUntil(due) }
            var events = input.poll(waitMs: wait)
            while let due, clock.now() < due, events.allSatisfy({ if case .wake = $0 { true } else { false } }) {
                events += input.poll(waitMs: msUntil(due))
            }
            let frameStart = clock.now()
            observer?.frameBegan(at: frameStart)
            if let player {
                events += player.events(screen.scriptContext(now: frameStart, idle: idle))
            }
            for event in events { screen.handle(event, now: frameStart) }
            if !firstScreen.shown, events.contains(where: Self.isUserInput) {
                firstScreen.shown = true
                screen.firstScreenShown()
            }

            let runIsOver = (frameLimit.map { frames + 1 >= $0 } ?? false)
                || (player?.isFinished ?? false)
                || (headless && player == nil && frameLimit == nil && idle)
            if runIsOver, !endRequested {
                endRequested = true
                screen.requestQuit()
            }
            screen.renderFrame(now: frameStart)
            let isLastFrame = screen.wantsToQuit
            if isLastFrame, let screenshotPath { try PNGWriter.write(try renderer.readPixels(), to: screenshotPath) }
            renderer.present()
            observer?.frameEnded()
            startup.mark(.firstFrame)
            // Nothing loading, fading or moving after this frame: what it shows is what the user waited for.
            if !settled, screen.isIdle(now: clock.now()) {
                startup.mark(.settled)
                settled = true
            }
            if firstScreen.frameAt == nil { firstScreen.frameAt = frameStart }
            if !firstScreen.shown, settled || firstScreen.frameAt.map({ frameStart - $0 >= Self.firstScreenWait }) == true {
                firstScreen.shown = true
                screen.firstScreenShown()
            }
            frames += 1
            lastFrameWasStill = still
            lastFrame = (frameStart, clock.now() - frameStart)
            if isLastFrame { break }
            if headless {
                // Pace headless runs like a 60 Hz display so scrolling and decoding race as they would.
                let budget = Duration.milliseconds(1000) / 60
                let spent = clock.now() - frameStart
                if spent < budget { Thread.sleep(forTimeInterval: (budget - spent).seconds) }
            }
        }
    }
}
