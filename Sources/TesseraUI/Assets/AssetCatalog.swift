import Foundation
import Logging
import TesseraCore
import TesseraImaging
import TesseraSDL

/// UI images by name (placeholder, error icon), decoded once and kept for the life of the app, like
/// `+[UIImage imageNamed:]`; separate from the photo cache so browsing never evicts them.
///
/// Each is handed out as a texture at the size it is drawn, scaled once with area averaging. Drawn from
/// the 256-pixel original instead, SDL's software renderer samples it down every frame (nearest
/// neighbour: jagged edges) and blends the result through its generic blitter.
package final class AssetCatalog {
    private let folder: URL?
    private let renderer: Renderer
    /// The decoded files, kept to scale from.
    private var originals: [String: PixelBuffer] = [:]
    private var textures: [String: [Int: Texture]] = [:]
    private var scaled: [String: [Int: PixelBuffer]] = [:]
    private var missing: Set<String> = []
    private let logger = Logger(label: "tessera.assets")

    package init(folder: URL?, renderer: Renderer) {
        self.folder = folder
        self.renderer = renderer
    }

    /// `Resources/UI/NAME.png` (a square image) as a texture `side` pixels square, or nil if it cannot be
    /// read or SDL cannot make the texture (the caller draws a fallback; the renderer logs SDL's failure).
    package func texture(named name: String, side: Int) -> Texture? {
        if let texture = textures[name]?[side] { return texture }
        guard let pixels = pixels(named: name, side: side),
              let texture = try? renderer.makeTexture(width: side, height: side),
              (try? texture.upload(pixels)) != nil else { return nil }
        textures[name, default: [:]][side] = texture
        return texture
    }

    /// The pixels of `texture(named:side:)` (straight alpha), for drawing on the CPU.
    package func pixels(named name: String, side: Int) -> PixelBuffer? {
        if let pixels = scaled[name]?[side] { return pixels }
        guard side > 0, let original = original(named: name) else { return nil }
        let size = PixelSize(width: side, height: side)
        let pixels = original.size == size ? original : PixelScaler.scaled(original, to: size)
        scaled[name, default: [:]][side] = pixels
        return pixels
    }

    private func original(named name: String) -> PixelBuffer? {
        if let original = originals[name] { return original }
        if missing.contains(name) { return nil }
        guard let url = folder?.appendingPathComponent("\(name).png"), let data = try? Data(contentsOf: url),
              let pixels = try? PNGDecoder().decode(data, format: .png, targetSize: nil) else {
            logger.warning("UI asset \(name).png not found or unreadable; drawing a plain fallback")
            missing.insert(name)
            return nil
        }
        originals[name] = pixels
        return pixels
    }
}
