import TesseraCore

/// Hears a Deep Zoom cut's tiles as their files are complete, so a viewer shows them while the cut goes on
/// rather than only when it ends (`CutInProgressTileSource`).
///
/// A cut writes into a hidden temporary folder that becomes the destination when it is done; a tile
/// written is readable at its temporary path until then, at its final path after.
package protocol TileCutWatcher: Sendable {
    /// Before the first tile: where tiles go (`LEVEL/COLUMN_ROW.EXT` under each folder).
    func cutBegan(temporaryTilesFolder: String, tilesFolder: String, tileExtension: String)
    /// `tile`'s file is complete. Called on the encoding threads, several at once.
    func tileWritten(_ tile: TileID)
}
