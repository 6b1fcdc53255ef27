import TesseraCore
import TesseraImaging
import TesseraSDL

/// Draws the overlay over either view: the name bar at the bottom (name; tags and position on the right),
/// the information panel at the top left, and above the bar the lines for what runs now and the last
/// action's message. Main thread only.
final class OverlayPainter {
    private let renderer: Renderer
    private let text: TextCache
    /// The last histogram drawn, on the GPU: made again only when the histogram changes.
    private var histogramTexture: (histogram: Histogram, size: PixelSize, texture: Texture)?

    init(renderer: Renderer, text: TextCache) {
        self.renderer = renderer
        self.text = text
    }

    func draw(_ content: OverlayContent, scale: Double) {
        let output = renderer.outputSize
        let margin = Int(14 * scale)
        var bottom = output.height
        if content.level != .off, let name = content.name {
            bottom = drawBar(name: name, right: (content.tags + [content.position]).joined(separator: "   "),
                             output: output, margin: margin, scale: scale)
        }
        if content.level == .information, !content.information.isEmpty {
            drawInformation(content.information, margin: margin, scale: scale)
        }
        if content.level == .information, let histogram = content.histogram {
            drawHistogram(histogram, output: output, margin: margin, scale: scale)
        }
        if let status = content.status {
            bottom = drawLine(status.text, color: status.isError ? Theme.errorText : Theme.text, above: bottom,
                              output: output, margin: margin, scale: scale)
        }
        if let activity = content.activity {
            _ = drawLine(activity, color: Theme.text, above: bottom, output: output, margin: margin, scale: scale)
        }
    }

    /// Returns the bar's top.
    private func drawBar(name: String, right: String, output: PixelSize, margin: Int, scale: Double) -> Int {
        let barHeight = Int(CarouselConfiguration.nameBarHeight * scale)
        let top = output.height - barHeight
        renderer.fill(PixelRect(x: 0, y: top, width: output.width, height: barHeight), Theme.overlayBar)
        let size = Int(16 * scale)
        let y = top + (barHeight - Int(Double(size) * 1.2)) / 2
        let rightWidth = text.texture(right, size: size, color: Theme.dimText)?.width ?? 0
        text.draw(right, x: output.width - rightWidth - margin, y: y, size: size, color: Theme.dimText)
        text.draw(name, x: margin, y: y, size: size, color: Theme.text, maxWidth: output.width - rightWidth - 3 * margin)
        return top
    }

    /// A message on its own dark strip, just above `bottom`, on up to three lines when it is wider than
    /// the window, so that a failure's reason is read to its end; returns the strip's top.
    private func drawLine(_ line: String, color: RGBA, above bottom: Int, output: PixelSize, margin: Int, scale: Double) -> Int {
        let size = Int(15 * scale)
        let padding = Int(6 * scale)
        let room = output.width - 2 * margin - 2 * padding
        let lines = text.wrapped(line, size: size, maxWidth: max(1, room), maxLines: 3)
        let labels = lines.compactMap { text.texture($0, size: size, color: color) }
        guard let first = labels.first else { return bottom }
        let width = min(labels.map(\.width).max() ?? 0, room)
        let height = first.height * labels.count
        let strip = PixelRect(x: margin, y: bottom - height - 2 * padding - Int(6 * scale),
                              width: width + 2 * padding, height: height + 2 * padding)
        renderer.fill(strip, Theme.overlayBar)
        for (row, line) in lines.enumerated() {
            text.draw(line, x: strip.x + padding, y: strip.y + padding + row * first.height, size: size, color: color, maxWidth: width)
        }
        return strip.y
    }

    /// The histogram on a dark panel at the top right: luminance in grey, the channels in their colours.
    private func drawHistogram(_ histogram: Histogram, output: PixelSize, margin: Int, scale: Double) {
        let size = PixelSize(width: Int(256 * scale), height: Int(100 * scale))
        let padding = Int(8 * scale)
        let panel = PixelRect(x: output.width - margin - size.width - 2 * padding, y: margin,
                              width: size.width + 2 * padding, height: size.height + 2 * padding)
        guard panel.x > 0 else { return }
        if histogramTexture?.histogram != histogram || histogramTexture?.size != size {
            guard let texture = try? renderer.makeTexture(width: size.width, height: size.height) else { return }
            _ = try? texture.upload(histogram.picture(width: size.width, height: size.height))
            texture.setBlending(true)
            histogramTexture = (histogram, size, texture)
        }
        guard let texture = histogramTexture?.texture else { return }
        renderer.fill(panel, Theme.overlayBar)
        renderer.draw(texture, destination: PixelRect(x: panel.x + padding, y: panel.y + padding, width: size.width,
                                                      height: size.height))
    }

    /// Labels in one column, values in the next, on a dark panel at the top left.
    private func drawInformation(_ lines: [(label: String, value: String)], margin: Int, scale: Double) {
        let size = Int(15 * scale)
        let labels = lines.map { text.texture($0.label, size: size, color: Theme.dimText) }
        let values = lines.map { text.texture($0.value, size: size, color: Theme.text) }
        let labelWidth = labels.compactMap { $0?.width }.max() ?? 0
        let valueWidth = values.compactMap { $0?.width }.max() ?? 0
        let lineHeight = Int(Double(size) * 1.45)
        let padding = Int(10 * scale), gap = Int(14 * scale)
        let maxValueWidth = renderer.outputSize.width - 2 * margin - 2 * padding - labelWidth - gap
        let panel = PixelRect(x: margin, y: margin, width: 2 * padding + labelWidth + gap + min(valueWidth, max(0, maxValueWidth)),
                              height: 2 * padding + lineHeight * lines.count)
        renderer.fill(panel, Theme.overlayBar)
        for (row, line) in lines.enumerated() {
            let y = panel.y + padding + row * lineHeight
            text.draw(line.label, x: panel.x + padding, y: y, size: size, color: Theme.dimText)
            text.draw(line.value, x: panel.x + padding + labelWidth + gap, y: y, size: size, color: Theme.text,
                      maxWidth: max(0, maxValueWidth))
        }
    }
}
