import Foundation
import Synchronization
import TesseraCore
import TesseraImaging

/// A Deep Zoom pyramid while the tile cutter writes it: serves the tiles written so far (the cutter tells
/// it each as its file is complete, as a `TileCutWatcher`) and says the others are not available, so the
/// view asks for none of them and draws coarser levels or the overview there meanwhile. Once the cut is
/// done (`finish`), it hands every tile over to the finished pyramid's source.
///
/// The written tiles are remembered as a set of IDs, not paths: a few bytes a tile, the paths coming from
/// the two folders. A tile read while the cut moves its folder into place is found at its final path.
package final class CutInProgressTileSource: TileSource, TileCutWatcher {
    package let geometry: DeepZoomGeometry
    package let name: String
    private let reader: TileFileReader
    private let state = Mutex(State())

    private struct State {
        var temporaryFolder: String?
        var finalFolder: String?
        var tileExtension = "jpeg"
        var written: Set<TileID> = []
        var finished: DeepZoomTileSource?
    }

    /// Tiles are read and converted as `DeepZoomTileSource` reads them.
    package init(geometry: DeepZoomGeometry, name: String, decoders: [any ImageDecoding], colour: ColourConversion? = .sRGB) {
        self.geometry = geometry
        self.name = name
        reader = TileFileReader(decoders: decoders, colour: colour)
    }

    package func cutBegan(temporaryTilesFolder: String, tilesFolder: String, tileExtension: String) {
        state.withLock {
            $0.temporaryFolder = temporaryTilesFolder
            $0.finalFolder = tilesFolder
            $0.tileExtension = tileExtension
        }
    }

    package func tileWritten(_ tile: TileID) {
        _ = state.withLock { $0.written.insert(tile) }
    }

    /// The cut is done: every tile now comes from `pyramid`.
    package func finish(with pyramid: DeepZoomTileSource) {
        state.withLock {
            $0.finished = pyramid
            $0.written = []
        }
    }

    /// Whether the cut has ended (`finish`).
    package var isFinished: Bool { state.withLock { $0.finished != nil } }

    package func isAvailable(_ tile: TileID) -> Bool {
        state.withLock { $0.finished != nil || $0.written.contains(tile) }
    }

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        let (finished, paths) = state.withLock { state -> (DeepZoomTileSource?, [String]) in
            guard state.finished == nil, state.written.contains(tile), let temporary = state.temporaryFolder,
                  let final = state.finalFolder else { return (state.finished, []) }
            return (nil, [temporary, final].map { DeepZoomTileSource.path(of: tile, in: $0, extension: state.tileExtension) })
        }
        if let finished { return try finished.loadTile(tile) }
        guard geometry.contains(tile) else { throw TileSourceError(path: name, reason: .noSuchTile) }
        guard let path = paths.first else { throw TileSourceError(path: name, reason: .missingTile) }
        let pixels = try reader.read(firstOf: paths)
        let expected = geometry.region(of: tile)
        return TileFileReader.normalized(pixels, to: PixelSize(width: expected.width, height: expected.height), path: path)
    }
}
