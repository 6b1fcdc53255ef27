import Foundation
import Logging
import TesseraCore

/// UI images by name (placeholder, error icon), decoded once and kept for the life of the app, like
/// `+[UIImage imageNamed:]`; separate from the photo cache so browsing never evicts them.
public final class AssetCatalog {
    private let folder: URL?
    private let renderer: Renderer
    private var textures: [String: Texture] = [:]
    private var missing: Set<String> = []
    private let logger = Logger(label: "tessera.assets")

    public init(folder: URL?, renderer: Renderer) {
        self.folder = folder
        self.renderer = renderer
    }

    /// The texture for `Resources/UI/NAME.png`, or nil if it cannot be read (the caller draws a fallback).
    public func texture(named name: String) -> Texture? {
        if let texture = textures[name] { return texture }
        if missing.contains(name) { return nil }
        guard let path = folder?.appendingPathComponent("\(name).png").path,
              let texture = renderer.makeTexture(imageFile: path) else {
            logger.warning("UI asset \(name).png not found; drawing a plain fallback")
            missing.insert(name)
            return nil
        }
        textures[name] = texture
        return texture
    }
}
