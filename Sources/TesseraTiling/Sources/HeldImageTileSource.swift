import Foundation
import TesseraCore
import TesseraImaging

/// A picture already decoded and held whole (a later page of a multi-page file, which has to be decoded
/// to know its size), seen as a pyramid of one tile per level as `SingleImageTileSource` sees a file: each
/// level is the picture scaled to it.
package struct HeldImageTileSource: TileSource {
    package let geometry: DeepZoomGeometry
    package let name: String
    private let pixels: PixelBuffer

    /// `pixels` turned by `turn` (the viewer's turn kept for the session), named `name`.
    package init(pixels: PixelBuffer, name: String, turn: ImageOrientation = .up) {
        self.pixels = turn.apply(to: pixels)
        self.name = name
        geometry = DeepZoomGeometry(width: self.pixels.width, height: self.pixels.height,
                                    tileSize: max(self.pixels.width, self.pixels.height))
    }

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: name, reason: .noSuchTile) }
        return PixelScaler.scaled(pixels, to: geometry.levelSize(tile.level))
    }

    /// Scaling what is held: the level's pixels and the scaler's rows.
    package func decodeMemoryEstimate(_ tile: TileID) -> Int { geometry.levelSize(tile.level).area * 8 }
}
