import TesseraCore

/// `--fade SECONDS`, the same for `browse`, `view` and `bench scroll`: one range, one message, one conversion.
enum FadeOption {
    static let seconds = 0.0...10.0
    static let outOfRange = "--fade must be between 0 and 10 seconds"

    static func timing(_ seconds: Double) -> FadeTiming {
        FadeTiming(duration: .milliseconds(Int((seconds * 1000).rounded())))
    }
}
