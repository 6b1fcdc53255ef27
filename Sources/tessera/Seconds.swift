import ArgumentParser

/// A time in seconds on the command line (`--fade 0.25`, `--download-timeout 15`), shown in `--help` as a
/// person types it: `15`, not `15.0`.
struct Seconds: ExpressibleByArgument, CustomStringConvertible {
    let value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        guard let value = Double(argument) else { return nil }
        self.value = value
    }

    var description: String {
        value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    /// To the millisecond, as timers and fades take it.
    var duration: Duration { .milliseconds(Int((value * 1000).rounded())) }
}
