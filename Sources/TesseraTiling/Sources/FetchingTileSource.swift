import Foundation
import TesseraCore
import TesseraImaging

/// A tile source whose loads wait mostly on a server: fetching a tile's bytes and decoding them are two
/// steps, so that the view overlaps many fetches (they only wait) while the decodes run on its workers,
/// within their count. `loadTile` is the one step after the other.
package protocol FetchingTileSource: TileSource {
    /// What decoding `tile` needs, from the server (nothing, when the source holds it already): blocks on
    /// the network and decodes nothing; throws `.cancelled` once `cancellation` ends the fetch.
    func fetch(_ tile: TileID, cancellation: DecodeCancellation?) throws(TileSourceError) -> FetchedTile
    /// The pixels of a fetched tile, exactly `geometry.region(of: tile)` in size.
    func decode(_ fetched: FetchedTile) throws(TileSourceError) -> PixelBuffer
}

extension FetchingTileSource {
    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        try loadTile(tile, cancellation: nil)
    }

    package func loadTile(_ tile: TileID, cancellation: DecodeCancellation?) throws(TileSourceError) -> PixelBuffer {
        try decode(fetch(tile, cancellation: cancellation))
    }
}

/// A tile's bytes as the server gave them, and where from.
package struct FetchedTile: Sendable {
    package let tile: TileID
    /// The bytes and the URL they came from; nil when the source needed none (it holds the picture).
    package let body: (url: String, data: Data)?

    package init(tile: TileID, body: (url: String, data: Data)?) {
        self.tile = tile
        self.body = body
    }
}
