import Foundation

/// `tessera bench scroll`: every loading strategy over the same scripted inputs, each run in a fresh
/// headless viewer process (so peak memory is the run's own) that writes its run report, one row per
/// strategy and input; with several runs, each row is the median run and adaptive is compared with the
/// others run by run.
package struct ScrollBench: Sendable {
    /// The `tessera` binary whose `browse` runs are measured.
    package var executable: URL
    package var paths: [String]
    /// Names from `LoadingStrategies.names` (TesseraExperiment).
    package var strategies: [String]
    package var inputs: [ScrollInput]
    package var cacheMB: Int
    /// Fade-in time of an arriving image, in seconds, as `browse --fade` takes it.
    package var fadeSeconds: Double
    package var runs: Int

    package init(executable: URL, paths: [String], strategies: [String], inputs: [ScrollInput], cacheMB: Int = 256,
                fadeSeconds: Double = 0.25, runs: Int = 1) {
        self.executable = executable
        self.paths = paths
        self.strategies = strategies
        self.inputs = inputs
        self.cacheMB = cacheMB
        self.fadeSeconds = fadeSeconds
        self.runs = runs
    }

    /// The rows, in input then strategy order. `progress` hears a line before each viewer run.
    package func run(progress: (String) -> Void = { _ in }) throws -> ScrollBenchResult {
        precondition(runs >= 1)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        // Whole passes one after another, so a busy minute on the machine lands on one run of every row
        // rather than on every run of one strategy.
        var passes: [[ScrollBenchRow]] = []
        for pass in 1...runs {
            var rows: [ScrollBenchRow] = []
            for input in inputs {
                let script = work.appendingPathComponent("\(input.name).script")
                try input.script.write(to: script, atomically: true, encoding: .utf8)
                for strategy in strategies {
                    progress("running \(strategy) / \(input.name)\(runs > 1 ? " (run \(pass) of \(runs))" : "")...")
                    let report = work.appendingPathComponent("\(strategy)-\(input.name).json")
                    try runViewer(strategy: strategy, script: script.path, report: report.path)
                    rows.append(try ScrollBenchRow(strategy: strategy, input: input.name, report: Data(contentsOf: report)))
                }
            }
            passes.append(rows)
        }
        var rows = passes[0].indices.map { i in ScrollBenchRow(medianOf: passes.map { $0[i] }) }
        let comparisons = ScrollBenchRow.compareWithAdaptive(passes)
        for (i, comparison) in comparisons { rows[i].p99AgainstAdaptive = comparison }
        return ScrollBenchResult(rows: rows)
    }

    private func runViewer(strategy: String, script: String, report: String) throws {
        let process = Process()
        process.executableURL = executable
        // --no-config: the user's config.toml must not change what is measured.
        process.arguments = ["browse"] + paths + [
            "--no-config", "--headless", "--window", "1280x720", "--strategy", strategy, "--script", script,
            "--report", report, "--frame-times", "--cache-mb", String(cacheMB), "--no-thumbnail-cache",
            "--fade", String(fadeSeconds),
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("the \(strategy) run exited with status \(process.terminationStatus)")
        }
    }
}
