import Foundation

/// Frame time over time, one panel per input, one line per strategy: an SVG a person can read.
package struct FrameTimePlot: Sendable {
    package let rows: [ScrollBenchRow]

    package init(rows: [ScrollBenchRow]) { self.rows = rows }

    private static let colours = ["#d62728", "#ff7f0e", "#bcbd22", "#8c564b", "#9467bd", "#17becf", "#1f77b4", "#2ca02c"]

    package func svg() -> String {
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
