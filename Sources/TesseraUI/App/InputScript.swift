import Foundation
import TesseraCore
import TesseraSDL

/// A replayable list of user actions, so headless runs and benchmarks drive the real input path.
///
/// Text form, one command a line (`#` starts a comment; coordinates in window points):
///     wait 0.5                      seconds
///     wait-scroll                   until the strip stops moving (10 s at most)
///     wait-idle                     until nothing moves and nothing loads (20 s at most)
///     drag 1000 360 200 360 0.1     press at (1000,360), move to (200,360) over 0.1 s, release
///     fling-to-end                  fling towards the end, wait for it to stop, repeat until at the end
///     fling-to-start                the same towards the start
///     key right                     a key as a binding names it: one character as typed (m, M, less or <, bar or |),
///                                   a name (left, pageup, enter, escape, space, backspace, delete, f5), with
///                                   modifiers (ctrl+x, alt+shift+enter); see `KeyCombo(parsing:)`
///     wheel 0 -3                    wheel dx dy
///     click 640 360 [2]             a click (2: double-click)
///     zoom in                       in, out, fit or 100: the + - 0 1 keys (tiled view)
///     pan 300 0 [0.2]               drag the view over the image by (300, 0) points and stop, no fling
///     quit
package struct InputScript: Sendable, Equatable {
    package enum Command: Sendable, Equatable {
        case wait(seconds: Double)
        case waitForScrollToStop
        case waitForIdle
        case drag(fromX: Double, fromY: Double, toX: Double, toY: Double, seconds: Double)
        case flingToEnd
        case flingToStart
        case key(KeyCombo)
        case wheel(dx: Double, dy: Double)
        case click(x: Double, y: Double, clicks: Int)
        /// Drag from the viewport's centre so the view moves by (dx, dy) over the content, then hold still
        /// before letting go, so nothing flings.
        case pan(dx: Double, dy: Double, seconds: Double)
        case quit
    }

    package struct ParseError: Error, CustomStringConvertible {
        package let line: Int
        package let text: String
        package var description: String { "script line \(line): cannot read '\(text)'" }
    }

    package var commands: [Command]

    package init(commands: [Command]) { self.commands = commands }

    /// The built-in `fling` script: fling to the end at speed, waiting for each fling to stop, and back.
    package static let fling = InputScript(commands: [.wait(seconds: 0.3), .flingToEnd, .flingToStart, .waitForIdle])

    package static func builtIn(_ name: String) -> InputScript? {
        switch name {
        case "fling": return .fling
        default: return nil
        }
    }

    package static func parse(_ text: String) throws -> InputScript {
        var commands: [Command] = []
        for (lineIndex, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let verb = words.first else { continue }
            let numbers = words.dropFirst().map { Double($0) }
            func number(_ i: Int) throws -> Double {
                guard i < numbers.count, let value = numbers[i] else { throw ParseError(line: lineIndex + 1, text: String(rawLine)) }
                return value
            }
            switch verb {
            case "wait": commands.append(.wait(seconds: try number(0)))
            case "wait-scroll": commands.append(.waitForScrollToStop)
            case "wait-idle": commands.append(.waitForIdle)
            case "drag":
                commands.append(.drag(fromX: try number(0), fromY: try number(1), toX: try number(2), toY: try number(3),
                                      seconds: numbers.count > 4 ? try number(4) : 0.1))
            case "fling-to-end": commands.append(.flingToEnd)
            case "fling-to-start": commands.append(.flingToStart)
            case "key":
                guard words.count == 2, let key = try? KeyCombo(parsing: words[1]) else {
                    throw ParseError(line: lineIndex + 1, text: String(rawLine))
                }
                commands.append(.key(key))
            case "wheel": commands.append(.wheel(dx: try number(0), dy: try number(1)))
            case "click":
                commands.append(.click(x: try number(0), y: try number(1), clicks: numbers.count > 2 ? Int(try number(2)) : 1))
            case "zoom":
                let keys = ["in": "+", "out": "-", "fit": "0", "100": "1"]
                guard words.count == 2, let key = keys[words[1].lowercased()] else {
                    throw ParseError(line: lineIndex + 1, text: String(rawLine))
                }
                commands.append(.key(KeyCombo(typed: Character(key))!))
            case "pan":
                commands.append(.pan(dx: try number(0), dy: try number(1), seconds: numbers.count > 2 ? try number(2) : 0.2))
            case "quit": commands.append(.quit)
            default: throw ParseError(line: lineIndex + 1, text: String(rawLine))
            }
        }
        return InputScript(commands: commands)
    }
}

/// What the player needs to know about the viewer to decide its next step.
package struct ScriptContext {
    package var now: Duration
    package var viewportWidth: Double
    package var viewportHeight: Double
    package var isScrolling: Bool
    package var isIdle: Bool
    package var isAtStart: Bool
    package var isAtEnd: Bool
}

/// Plays an `InputScript` frame by frame, turning commands into the same events SDL would deliver.
package final class ScriptPlayer {
    private var commands: ArraySlice<InputScript.Command>
    private var current: InputScript.Command?
    private var startedAt: Duration = .zero
    private var dragStarted = false
    /// A fling command expands into drags; this is the one in progress.
    private var pendingDrag: InputScript.Command?
    private var flingCount = 0

    package init(_ script: InputScript) { commands = script.commands[...] }

    package private(set) var isFinished = false

    package func events(_ context: ScriptContext) -> [InputEvent] {
        var out: [InputEvent] = []
        // Several instant commands may run in one frame; a waiting one stops the loop.
        for _ in 0..<64 {
            if current == nil {
                guard let next = commands.popFirst() else {
                    isFinished = true
                    return out
                }
                current = next
                startedAt = context.now
                dragStarted = false
                flingCount = 0
            }
            guard let command = current else { return out }
            let elapsed = (context.now - startedAt).seconds
            switch command {
            case .wait(let seconds):
                if elapsed < seconds { return out }
            case .waitForScrollToStop:
                if context.isScrolling && elapsed < 10 { return out }
            case .waitForIdle:
                if !context.isIdle && elapsed < 20 { return out }
            case .drag:
                if !play(drag: command, context: context, into: &out) { return out }
            case .pan(let dx, let dy, let seconds):
                let (x, y) = (context.viewportWidth / 2, context.viewportHeight / 2)
                let drag = InputScript.Command.drag(fromX: x, fromY: y, toX: x - dx, toY: y - dy, seconds: seconds)
                if !play(drag: drag, context: context, into: &out, holdSeconds: Self.panHold) { return out }
            case .flingToEnd, .flingToStart:
                let towardsEnd = command == .flingToEnd
                if let drag = pendingDrag {
                    if play(drag: drag, context: context, into: &out) { pendingDrag = nil }
                    return out
                }
                if context.isScrolling { return out }
                let done = towardsEnd ? context.isAtEnd : context.isAtStart
                if !done && flingCount < 500 {
                    flingCount += 1
                    let (left, right) = (context.viewportWidth * 0.2, context.viewportWidth * 0.8)
                    let y = context.viewportHeight / 2
                    pendingDrag = towardsEnd
                        ? .drag(fromX: right, fromY: y, toX: left, toY: y, seconds: 0.1)
                        : .drag(fromX: left, fromY: y, toX: right, toY: y, seconds: 0.1)
                    dragStarted = false
                    startedAt = context.now
                    return out
                }
            case .key(let key):
                out.append(.keyDown(key, isRepeat: false))
            case .wheel(let dx, let dy):
                out.append(.wheel(dx: dx, dy: dy, x: context.viewportWidth / 2, y: context.viewportHeight / 2))
            case .click(let x, let y, let clicks):
                out.append(.mouseDown(.left, x: x, y: y, clicks: clicks))
                out.append(.mouseUp(.left, x: x, y: y))
            case .quit:
                out.append(.quit)
            }
            current = nil
            // Input was sent: let the viewer handle it before a following wait looks at its state.
            if !out.isEmpty { return out }
        }
        return out
    }

    /// How long a `pan` holds still before letting go: longer than the scroll model's velocity window.
    private static let panHold = 0.12

    /// Emits this frame's part of a drag; true when it has been released. With `holdSeconds`, the pointer
    /// rests at the end that long before the release, so the drag ends without a fling.
    private func play(drag: InputScript.Command, context: ScriptContext, into out: inout [InputEvent],
                      holdSeconds: Double = 0) -> Bool {
        guard case .drag(let fx, let fy, let tx, let ty, let seconds) = drag else { return true }
        if !dragStarted {
            dragStarted = true
            startedAt = context.now
            out.append(.mouseDown(.left, x: fx, y: fy, clicks: 1))
            return false
        }
        let elapsed = (context.now - startedAt).seconds
        let t = seconds <= 0 ? 1 : min(1, elapsed / seconds)
        out.append(.mouseMotion(x: fx + (tx - fx) * t, y: fy + (ty - fy) * t, isLeftDown: true))
        if t >= 1 && elapsed - max(0, seconds) >= holdSeconds {
            out.append(.mouseUp(.left, x: tx, y: ty))
            dragStarted = false
            return true
        }
        return false
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    package var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
