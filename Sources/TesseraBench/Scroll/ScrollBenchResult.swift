import Foundation

/// What `ScrollBench` measured, as the command prints it.
package struct ScrollBenchResult: Sendable {
    package var rows: [ScrollBenchRow]

    /// The rows' table, then adaptive against the others when the runs allowed the comparison.
    package var text: String {
        let table = ScrollBenchTable.rows(rows)
        guard rows.contains(where: { $0.p99AgainstAdaptive != nil }) else { return table }
        return table + "\n\n" + ScrollBenchTable.comparisons(rows)
    }

    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }

    /// Frame time over time for each strategy, as SVG.
    package var plot: String { FrameTimePlot(rows: rows).svg() }
}
