import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// An SVG in the tiled view, drawn by librsvg tile by tile at each level's own size, so it is sharp at
/// every zoom. Its pyramid is `magnification` times the document's own size: the largest power of two up
/// to the view's zoom limit whose pixels stay within the pixel limit, so the level machinery asks for
/// drawn tiles past 100 % as it asks for finer levels of any pyramid. The levels below are the document
/// drawn smaller, not a large drawing shrunk, and nothing is drawn whole: a tile costs a tile's pixels.
///
/// librsvg parses and draws where the view's decoding service runs it (`SVGTileDrawing`), several tiles
/// at once. The turn and the colour stage run here.
package struct SVGTileSource: TileSource {
    package let path: String
    package let geometry: DeepZoomGeometry
    package let name: String
    package let magnification: Int
    /// Where the document is parsed and drawn.
    package let decoding: any DecodingService
    private let drawings: any SVGTileDrawing
    /// A turn applied to the document as drawn (the viewer's turns kept for the session).
    private let turn: ImageOrientation
    private let colour: ColourConversion?

    /// Reads and parses the SVG at `path`; fails, in the loader's words, when it cannot be read or its own
    /// size is over `pixelLimit`.
    /// - Parameters:
    ///   - maxMagnification: how far past its own size it is drawn at most (the view's zoom limit).
    ///   - colour: from sRGB (what SVG colours are) to the display's; nil leaves the pixels as drawn.
    ///   - turn: turns the drawing (`.up`: not at all).
    ///   - decoding: where librsvg runs.
    package init(path: String, pixelLimit: Int, maxMagnification: Double, colour: ColourConversion?,
                turn: ImageOrientation = .up, decoding: any DecodingService = .inProcess) throws(TileSourceError) {
        func failure(_ reason: ImageLoadError.Reason) -> TileSourceError {
            TileSourceError(path: path, reason: .unreadableImage(reason.shortText))
        }
        let drawings: any SVGTileDrawing
        do throws(ImageLoadError.Reason) {
            let file: ImageFile
            do { file = try ImageFile(path: path) } catch { throw ImageLoadError.Reason(error) }
            drawings = try decoding.svgDrawing(file)
        } catch {
            throw failure(error)
        }
        let own = drawings.size
        guard own.area <= pixelLimit else {
            throw failure(.tooLarge(width: own.width, height: own.height, limit: pixelLimit))
        }
        var magnification = 1
        while Double(magnification * 2) <= maxMagnification && own.area * (magnification * 2) * (magnification * 2) <= pixelLimit {
            magnification *= 2
        }
        let shown = turn.orientedSize(own)
        self.path = path
        self.drawings = drawings
        self.decoding = decoding
        self.turn = turn
        self.colour = colour
        self.magnification = magnification
        geometry = DeepZoomGeometry(width: shown.width * magnification, height: shown.height * magnification)
        name = path.lastPathComponentName
    }

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: path, reason: .noSuchTile) }
        // The level as stored (before the turn), drawn whole at its own size; the tile's part of it.
        let level = turn.orientedSize(geometry.levelSize(tile.level))
        let part = turn.storedRegion(of: geometry.region(of: tile), storedSize: level)
        var pixels: PixelBuffer
        let drawing = (width: Double(level.width), height: Double(level.height))
        do throws(ImageLoadError.Reason) {
            pixels = try drawings.draw(part, ofDrawing: drawing)
        } catch {
            throw TileSourceError(path: path, reason: .unreadableTile(error.shortText))
        }
        pixels = turn.apply(to: pixels)
        colour?.convert(&pixels, name: path)
        return pixels
    }
}
