/// What `--report` asks of a run. Without it the run makes no observer: nothing is counted or timed.
package struct ReportOptions: Sendable {
    /// Where the report is written at exit, as JSON; nil keeps it in memory (`Viewer.run` returns it).
    package var path: String?
    /// Put every frame's start, time, placeholders and phases in the report (`--frame-times`, for plots).
    package var frameTimes: Bool

    package init(path: String? = nil, frameTimes: Bool = false) {
        self.path = path
        self.frameTimes = frameTimes
    }
}
