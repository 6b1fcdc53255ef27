import Foundation

/// `ScrollBench`'s rows as Markdown tables, the way docs/EXPERIMENT.md quotes them.
package enum ScrollBenchTable {
    /// One line per strategy and input: frame times, placeholders, decodes, cache and memory.
    package static func rows(_ rows: [ScrollBenchRow]) -> String {
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

    /// Per input: adaptive's p99 over all runs against each other strategy's, lowest first.
    package static func comparisons(_ rows: [ScrollBenchRow]) -> String {
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

    private static func f(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
