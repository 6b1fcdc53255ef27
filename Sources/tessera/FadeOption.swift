import TesseraCore

/// `--fade SECONDS`, the same for `browse`, `view` and `bench scroll`: one range, one message, one conversion.
enum FadeOption {
    static let seconds = 0.0...10.0
    static let outOfRange = "--fade must be between 0 and 10 seconds"

    static func isValid(_ fade: Seconds) -> Bool { seconds.contains(fade.value) }

    static func timing(_ fade: Seconds) -> FadeTiming { FadeTiming(duration: fade.duration) }
}
