import TesseraCore
import TesseraSDL

/// Rendered strings kept as textures so unchanged text costs one copy per frame, not a TTF render.
/// Least recently used strings go first once `capacity` is passed.
package final class TextCache {
    private struct Key: Hashable { let text: String; let color: RGBA; let size: Int }
    private let renderer: Renderer
    private var fonts: [Int: Font] = [:]
    private let fontPath: String?
    private var entries: [Key: (texture: Texture, lastUse: Int)] = [:]
    private var clock = 0
    private let capacity: Int

    package init(renderer: Renderer, fontPath: String?, capacity: Int = 128) {
        self.renderer = renderer
        self.fontPath = fontPath
        self.capacity = capacity
    }

    package var hasFont: Bool { fontPath != nil }

    package func texture(_ text: String, size: Int, color: RGBA) -> Texture? {
        guard hasFont else { return nil }
        clock += 1
        let key = Key(text: text, color: color, size: size)
        if let hit = entries[key] {
            entries[key] = (hit.texture, clock)
            return hit.texture
        }
        // Text that names a file may carry bytes that are not UTF-8 (`PathText`): they are drawn as U+FFFD.
        guard let font = font(size: size),
              let texture = try? font.render(PathText.displayName(text), color: color, renderer: renderer) else {
            return nil
        }
        entries[key] = (texture, clock)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries.removeValue(forKey: oldest.key)
        }
        return texture
    }

    /// Splits `text` into at most `maxLines` lines no wider than `maxWidth`, breaking at spaces and ending
    /// the last line with an ellipsis when the text does not fit. Results are remembered per string.
    package func wrapped(_ text: String, size: Int, maxWidth: Int, maxLines: Int = 2) -> [String] {
        let key = WrapKey(text: text, size: size, maxWidth: maxWidth, maxLines: maxLines)
        if let lines = wrapCache[key] { return lines }
        guard let font = font(size: size) else { return [text] }
        // Text SDL_ttf cannot measure would not render either: it counts as too wide.
        func fits(_ line: String) -> Bool { (try? font.width(of: PathText.displayName(line))).map { $0 <= maxWidth } ?? false }
        var lines: [String] = []
        var words = text.split(separator: " ").map(String.init)[...]
        while let first = words.first, lines.count < maxLines {
            var line = first
            words = words.dropFirst()
            while let next = words.first, fits(line + " " + next) {
                line += " " + next
                words = words.dropFirst()
            }
            lines.append(line)
        }
        if let last = lines.last, !words.isEmpty || !fits(last) {
            var shortened = last
            while !shortened.isEmpty && !fits(shortened + "…") { shortened.removeLast() }
            lines[lines.count - 1] = shortened + "…"
        }
        if wrapCache.count > capacity { wrapCache.removeAll() }
        wrapCache[key] = lines
        return lines
    }

    private struct WrapKey: Hashable { let text: String; let size: Int; let maxWidth: Int; let maxLines: Int }
    private var wrapCache: [WrapKey: [String]] = [:]

    private func font(size: Int) -> Font? {
        guard let fontPath else { return nil }
        if fonts[size] == nil { fonts[size] = try? Font(system: renderer.window.system, path: fontPath, size: size) }
        return fonts[size]
    }

    /// Draws `text` with its top-left corner at (x, y); returns its width in pixels (0 with no font).
    @discardableResult
    package func draw(_ text: String, x: Int, y: Int, size: Int, color: RGBA, maxWidth: Int? = nil) -> Int {
        guard let texture = texture(text, size: size, color: color) else { return 0 }
        var width = texture.width
        var source: PixelRect? = nil
        if let maxWidth, width > maxWidth {
            width = maxWidth
            source = PixelRect(x: 0, y: 0, width: maxWidth, height: texture.height)
        }
        renderer.draw(texture, source: source,
                      destination: PixelRect(x: x, y: y, width: width, height: texture.height))
        return width
    }
}
