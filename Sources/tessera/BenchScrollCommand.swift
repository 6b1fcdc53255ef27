import ArgumentParser
import Foundation
import TesseraCore

/// `tessera bench scroll`: every loading strategy over the same scripted inputs, each run in a fresh
/// headless process (so peak memory is the run's own), one table row per strategy and input.
struct BenchScroll: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll",
        abstract: "Compare the loading strategies over scripted scrolling (headless).",
        discussion: "Inputs: \(ScrollInput.all.map(\.name).joined(separator: ", ")). See docs/EXPERIMENT.md.")

    @Argument(help: "Image files and folders.")
    var paths: [String]
    @Option(help: "Strategies to run: all, or a comma-separated list.")
    var strategy = "all"
    @Option(help: "Inputs to run: all, or a comma-separated list.")
    var input = "all"
    @Option(help: "Decoded-image cache limit in MB.")
    var cacheMb = 256
    @Flag(help: "Print JSON instead of a table.")
    var json = false
    @Option(help: "Draw frame time over time for each strategy as SVG.")
    var plot: String?
    @Option(help: "Fade-in time of an arriving image, in seconds, as in browse; 0 turns fading off.")
    var fade = 0.25
    @Option(help: "Runs of every strategy and input; each figure is then the median over the runs (--json adds each run's p99 and the p99 of all their frames together).")
    var runs = 1

    func run() throws {
        let strategies = strategy == "all" ? LoadingStrategies.names : strategy.split(separator: ",").map(String.init)
        for name in strategies where !LoadingStrategies.names.contains(name) {
            throw fail("unknown strategy \(name); choose from \(LoadingStrategies.names.joined(separator: ", "))")
        }
        guard (1...99).contains(runs) else { throw fail("--runs must be between 1 and 99") }
        guard FadeOption.seconds.contains(fade) else { throw fail(FadeOption.outOfRange) }
        let inputs = input == "all" ? ScrollInput.all : try input.split(separator: ",").map { name in
            guard let found = ScrollInput.all.first(where: { $0.name == name }) else {
                throw fail("unknown input \(name); choose from \(ScrollInput.all.map(\.name).joined(separator: ", "))")
            }
            return found
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bench-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        // Whole passes one after another, so a busy minute on the machine lands on one run of every row
        // rather than on every run of one strategy.
        var passes: [[BenchRow]] = []
        for pass in 1...runs {
            var rows: [BenchRow] = []
            for input in inputs {
                let script = work.appendingPathComponent("\(input.name).script")
                try input.script.write(to: script, atomically: true, encoding: .utf8)
                for name in strategies {
                    if !json {
                        let of = runs > 1 ? " (run \(pass) of \(runs))" : ""
                        FileHandle.standardError.write(Data("running \(name) / \(input.name)\(of)...\n".utf8))
                    }
                    let reportURL = work.appendingPathComponent("\(name)-\(input.name).json")
                    try runViewer(strategy: name, script: script.path, report: reportURL.path)
                    rows.append(try BenchRow(strategy: name, input: input.name, report: Data(contentsOf: reportURL)))
                }
            }
            passes.append(rows)
        }
        var rows = passes[0].indices.map { i in BenchRow(medianOf: passes.map { $0[i] }) }
        let comparisons = BenchRow.compareWithAdaptive(passes)
        for (i, comparison) in comparisons { rows[i].p99AgainstAdaptive = comparison }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
        } else {
            print(BenchRow.table(rows))
            if !comparisons.isEmpty { print("\n" + BenchRow.comparisonTable(rows)) }
        }
        if let plot { try FrameTimePlot(rows: rows).svg().write(toFile: plot, atomically: true, encoding: .utf8) }
    }

    private func runViewer(strategy: String, script: String, report: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["browse"] + paths + [
            "--headless", "--window", "1280x720", "--strategy", strategy, "--script", script,
            "--report", report, "--frame-times", "--cache-mb", String(cacheMb), "--no-thumbnail-cache",
            "--fade", String(fade),
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw fail("the \(strategy) run exited with status \(process.terminationStatus)")
        }
    }
}

/// One scripted input, in window points of a 1280x720 window.
struct ScrollInput {
    let name: String
    let script: String

    static let all = [
        ScrollInput(name: "slow-drag", script: """
            wait 0.3
            drag 1000 360 400 360 1.5
            wait-scroll
            drag 1000 360 400 360 1.5
            wait-scroll
            drag 1000 360 400 360 1.5
            wait-scroll
            wait-idle
            """),
        ScrollInput(name: "fast-fling", script: """
            wait 0.3
            drag 1100 360 200 360 0.06
            wait-scroll
            drag 1100 360 200 360 0.06
            wait-scroll
            drag 1100 360 200 360 0.06
            wait-scroll
            wait-idle
            """),
        ScrollInput(name: "back-and-forth", script: """
            wait 0.3
            """ + String(repeating: """

            drag 1100 360 300 360 0.25
            wait-scroll
            drag 300 360 1100 360 0.25
            wait-scroll
            """, count: 4) + "\nwait-idle\n"),
        // Three round trips, as the other inputs repeat theirs: one trip is only about 80 frames, so its
        // p99 was simply its worst frame.
        ScrollInput(name: "jump", script: "wait 0.3" + String(repeating: """

            key end
            wait-scroll
            wait 0.5
            key home
            wait-scroll
            wait 0.5
            """, count: 3) + "\nwait-idle\n"),
    ]
}

/// One strategy over one input, from its run report.
struct BenchRow: Encodable {
    var strategy: String
    var input: String
    var frames: Int
    var p50: Double
    var p99: Double
    var max: Double
    var framesOver16ms: Int
    var placeholderPercent: Double
    var fadingFrames: Int
    var decodes: Int
    var mainThreadDecodes: Int
    var decodedMB: Double
    var hitRatePercent: Double
    var peakMB: Double
    var frameTimes: [[Double]]
    /// Each run's p99, when the row is the median of several.
    var p99Runs: [Double]
    /// p99 of every frame of every run together: with five runs the 1 % tail is some 40 frames instead of
    /// the 8 of one run, so it moves less with a single preempted frame.
    var p99AllRuns: Double
    /// With several runs and adaptive among the strategies: adaptive's p99 over all runs minus this
    /// strategy's, with its paired-bootstrap interval (`PairedComparison`).
    var p99AgainstAdaptive: PairedComparison?

    init(strategy: String, input: String, report data: Data) throws {
        guard let report = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let frameMs = report["frame_ms"] as? [String: Double], let cache = report["cache"] as? [String: Int] else {
            throw fail("unreadable report for \(strategy) / \(input)")
        }
        func int(_ key: String) -> Int { report[key] as? Int ?? 0 }
        self.strategy = strategy
        self.input = input
        frames = int("frames")
        p50 = frameMs["p50"] ?? 0
        p99 = frameMs["p99"] ?? 0
        max = frameMs["max"] ?? 0
        framesOver16ms = int("frames_over_16ms")
        let visible = Swift.max(1, int("visible_cell_frames"))
        placeholderPercent = 100 * Double(int("placeholder_cell_frames")) / Double(visible)
        fadingFrames = int("fading_frames")
        decodes = int("decodes")
        mainThreadDecodes = int("main_thread_decodes")
        decodedMB = Double(int("decoded_bytes")) / 1_048_576
        let lookups = (cache["hits"] ?? 0) + (cache["misses"] ?? 0)
        hitRatePercent = lookups == 0 ? 0 : 100 * Double(cache["hits"] ?? 0) / Double(lookups)
        peakMB = Double(int("peak_rss_bytes")) / 1_048_576
        frameTimes = (report["frame_times"] as? [[Double]]) ?? []
        p99Runs = [p99]
        p99AllRuns = p99
    }

    /// One row whose every figure is the median (nearest rank: a value some run had) of the runs' figures;
    /// the frame times for the plot are those of the run with the median p99.
    init(medianOf runs: [BenchRow]) {
        precondition(!runs.isEmpty)
        func median(_ value: (BenchRow) -> Double) -> Double {
            SampleSummary.percentile(50, ofSorted: runs.map(value).sorted())
        }
        func median(_ value: (BenchRow) -> Int) -> Int { Int(median { Double(value($0)) }) }
        self = runs[0]
        frames = median { $0.frames }
        p50 = median { $0.p50 }
        p99 = median { $0.p99 }
        max = median { $0.max }
        framesOver16ms = median { $0.framesOver16ms }
        placeholderPercent = median { $0.placeholderPercent }
        fadingFrames = median { $0.fadingFrames }
        decodes = median { $0.decodes }
        mainThreadDecodes = median { $0.mainThreadDecodes }
        decodedMB = median { $0.decodedMB }
        hitRatePercent = median { $0.hitRatePercent }
        peakMB = median { $0.peakMB }
        p99Runs = runs.map(\.p99)
        p99AllRuns = runs.count == 1 ? runs[0].p99
            : SampleSummary(samples: runs.flatMap { $0.frameTimes.compactMap { $0.count > 1 ? $0[1] : nil } }).p99
        frameTimes = runs.first { $0.p99 == p99 }?.frameTimes ?? runs[0].frameTimes
    }

    enum CodingKeys: String, CodingKey {
        case strategy, input, frames, p50, p99, max, p99Runs = "p99_runs", p99AllRuns = "p99_all_runs"
        case framesOver16ms = "frames_over_16_7ms", placeholderPercent = "placeholder_percent"
        case fadingFrames = "fading_frames", decodes
        case mainThreadDecodes = "main_thread_decodes", decodedMB = "decoded_mb", hitRatePercent = "hit_rate_percent"
        case peakMB = "peak_mb", p99AgainstAdaptive = "adaptive_p99_minus_this"
        // frameTimes stays out of the JSON: it is for the plot.
    }

    /// Each run's frame times in ms.
    private var frameMs: [Double] { frameTimes.compactMap { $0.count > 1 ? $0[1] : nil } }

    /// For every row of another strategy (by index in a pass), adaptive's p99 against it on the same input,
    /// run i against run i. Empty with one run or without adaptive.
    static func compareWithAdaptive(_ passes: [[BenchRow]]) -> [(Int, PairedComparison)] {
        guard passes.count > 1, let first = passes.first else { return [] }
        return first.indices.compactMap { i -> (Int, PairedComparison)? in
            guard first[i].strategy != "adaptive",
                  let reference = first.firstIndex(where: { $0.strategy == "adaptive" && $0.input == first[i].input })
            else { return nil }
            return (i, PairedComparison(a: passes.map { $0[reference].frameMs }, b: passes.map { $0[i].frameMs }))
        }
    }

    /// Per input: adaptive's p99 over all runs against each other strategy's, lowest first.
    static func comparisonTable(_ rows: [BenchRow]) -> String {
        var lines = ["| input | strategy | p99 ms, all runs | adaptive minus it, ms | 95 % interval | adaptive is |",
                     "| --- | --- | --- | --- | --- | --- |"]
        var inputs: [String] = []
        for row in rows where !inputs.contains(row.input) { inputs.append(row.input) }
        for input in inputs {
            let ofInput = rows.filter { $0.input == input }
            if let adaptive = ofInput.first(where: { $0.strategy == "adaptive" }) {
                lines.append("| \(input) | adaptive | \(f(adaptive.p99AllRuns, 2)) | | | |")
            }
            for row in ofInput.sorted(by: { $0.p99AllRuns < $1.p99AllRuns }) {
                guard let c = row.p99AgainstAdaptive else { continue }
                lines.append("| \(input) | \(row.strategy) | \(f(row.p99AllRuns, 2)) | \(String(format: "%+.2f", c.difference)) "
                    + "| \(String(format: "%+.2f to %+.2f", c.low, c.high)) | \(c.verdict.rawValue) |")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func table(_ rows: [BenchRow]) -> String {
        let header = ["input", "strategy", "frames", "p50 ms", "p99 ms", "max ms", ">16.7ms", "placeholder %",
                      "fading", "decodes", "main-thr", "MB decoded", "hit %", "peak MB"]
        let body = rows.map { r in
            [r.input, r.strategy, "\(r.frames)", f(r.p50, 2), f(r.p99, 2), f(r.max, 1), "\(r.framesOver16ms)",
             f(r.placeholderPercent, 1), "\(r.fadingFrames)", "\(r.decodes)", "\(r.mainThreadDecodes)", f(r.decodedMB, 0),
             f(r.hitRatePercent, 0), f(r.peakMB, 0)]
        }
        var lines = ["| " + header.joined(separator: " | ") + " |",
                     "|" + header.map { _ in " --- " }.joined(separator: "|") + "|"]
        lines += body.map { "| " + $0.joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n")
    }

    private static func f(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}

/// Frame time over time, one panel per input, one line per strategy: an SVG a person can read.
struct FrameTimePlot {
    let rows: [BenchRow]

    private static let colours = ["#d62728", "#ff7f0e", "#bcbd22", "#8c564b", "#9467bd", "#17becf", "#1f77b4", "#2ca02c"]

    func svg() -> String {
        let inputs = rows.map(\.input).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let strategies = rows.map(\.strategy).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let width = 1000.0, panelHeight = 240.0, left = 60.0, right = 150.0, top = 30.0, gap = 50.0
        let plotWidth = width - left - right
        let yMax = 40.0  // ms; slower frames are drawn at the top edge
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(top + Double(inputs.count) * (panelHeight + gap)))" \
        font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>

        """
        for (p, input) in inputs.enumerated() {
            let y0 = top + Double(p) * (panelHeight + gap)
            let panelRows = rows.filter { $0.input == input }
            let duration = panelRows.map { row in
                (row.frameTimes.last?.first ?? 0) - (row.frameTimes.first?.first ?? 0)
            }.max() ?? 1
            out += "<text x=\"\(left)\" y=\"\(y0 - 8)\" font-weight=\"bold\">\(input): main-thread frame time (ms) over time (s)</text>\n"
            out += "<rect x=\"\(left)\" y=\"\(y0)\" width=\"\(plotWidth)\" height=\"\(panelHeight)\" fill=\"none\" stroke=\"#999\"/>\n"
            for ms in [0.0, 8.3, 16.7, 33.3] {
                let y = y0 + panelHeight * (1 - ms / yMax)
                out += "<line x1=\"\(left)\" x2=\"\(left + plotWidth)\" y1=\"\(y)\" y2=\"\(y)\" stroke=\"#ddd\"/>"
                out += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" text-anchor=\"end\">\(ms)</text>\n"
            }
            for second in stride(from: 0.0, through: duration, by: max(1, (duration / 8).rounded())) {
                let x = left + plotWidth * second / max(duration, 0.001)
                out += "<text x=\"\(x)\" y=\"\(y0 + panelHeight + 14)\" text-anchor=\"middle\">\(Int(second))</text>\n"
            }
            for row in panelRows {
                let colour = Self.colours[(strategies.firstIndex(of: row.strategy) ?? 0) % Self.colours.count]
                let start = row.frameTimes.first?.first ?? 0
                let points = row.frameTimes.map { sample -> String in
                    let x = left + plotWidth * (sample[0] - start) / max(duration, 0.001)
                    let y = y0 + panelHeight * (1 - min(sample[1], yMax) / yMax)
                    return String(format: "%.1f,%.1f", x, y)
                }
                out += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1\" stroke-opacity=\"0.8\" points=\"\(points.joined(separator: " "))\"/>\n"
            }
            for (i, name) in strategies.enumerated() {
                let colour = Self.colours[i % Self.colours.count]
                let y = y0 + 14 + Double(i) * 16
                out += "<rect x=\"\(left + plotWidth + 12)\" y=\"\(y - 9)\" width=\"10\" height=\"10\" fill=\"\(colour)\"/>"
                out += "<text x=\"\(left + plotWidth + 28)\" y=\"\(y)\">\(name)</text>\n"
            }
        }
        return out + "</svg>\n"
    }
}
