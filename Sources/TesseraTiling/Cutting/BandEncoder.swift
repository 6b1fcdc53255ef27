import Foundation
import Synchronization
import TesseraCore
import TesseraImaging

/// Takes the pyramid's finished bands and encodes and writes their tiles on a `WorkScheduler`'s worker
/// threads, one job per tile, while the builder's thread goes on decoding and reducing.
///
/// The first failure (an encoder or a write error) or a cancellation stops the rest: queued jobs skip
/// their work but still release their band, so `drain()` always returns and no buffer is freed while a
/// worker reads it.
final class BandEncoder: PyramidBandConsumer {
    private let geometry: DeepZoomGeometry
    private let layout: TileLayout
    private let root: String
    private let encoder: TileEncoder
    private let watcher: (any TileCutWatcher)?
    private let scheduler: WorkScheduler<Int, Void>
    private let shared = Shared()
    /// Every submitted job until its completion has run (dropped jobs' completions run too).
    private let outstanding = DispatchGroup()
    private var nextJob = 0

    /// State the workers update: tiles written, the first failure, the stop flag.
    private final class Shared: Sendable {
        struct State {
            var tilesWritten = 0
            var failure: TileCutError?
            var stopped = false
        }
        let state = Mutex(State())
    }

    /// A tile's pixels inside a band that stays allocated and unwritten until the job releases it.
    private struct TileJob: @unchecked Sendable {
        let pixels: UnsafeRawPointer
        let stride: Int
        let width: Int
        let height: Int
        let path: String
        let buffer: BandBuffer
    }

    /// - Parameters:
    ///   - root: the folder the layout's relative paths start from (the temporary folder).
    ///   - workerCount: encoding threads; the builder's thread also encodes while it waits for a buffer.
    ///   - watcher: hears each tile once its file is complete.
    init(geometry: DeepZoomGeometry, layout: TileLayout, root: String, encoder: TileEncoder, workerCount: Int,
         priority: WorkerPriority = .normal, watcher: (any TileCutWatcher)? = nil) {
        self.geometry = geometry
        self.watcher = watcher
        self.layout = layout
        self.root = root
        self.encoder = encoder
        scheduler = WorkScheduler(workerCount: max(1, workerCount), name: "tessera.tiles", priority: priority)
    }

    deinit {
        scheduler.shutdown()
    }

    var tilesWritten: Int { shared.state.withLock { $0.tilesWritten } }

    /// Stops further tiles; queued jobs only release their bands.
    func stop() {
        shared.state.withLock { $0.stopped = true }
    }

    func consume(_ band: PyramidBand) throws {
        try throwIfFailed()
        let tiles = (0..<geometry.columns(band.level)).map { TileID(level: band.level, column: $0, row: band.tileRow) }
            .filter(layout.writes)
        band.buffer.retain(tiles.count)
        let encoder = self.encoder
        let shared = self.shared
        let outstanding = self.outstanding
        let watcher = self.watcher
        for tile in tiles {
            let region = geometry.region(of: tile)
            let job = TileJob(pixels: UnsafeRawPointer(band.pointer(to: region)), stride: band.rowBytes,
                              width: region.width, height: region.height,
                              path: root + "/" + layout.relativePath(of: tile), buffer: band.buffer)
            nextJob += 1
            outstanding.enter()
            scheduler.request(nextJob, priority: 0, work: {
                guard !shared.state.withLock({ $0.stopped }) else { return }
                do throws(TileCutError.Reason) {
                    try encoder.writeTile(job.pixels, stride: job.stride, width: job.width, height: job.height,
                                          to: job.path)
                    shared.state.withLock { $0.tilesWritten += 1 }
                    watcher?.tileWritten(tile)
                } catch {
                    shared.state.withLock { state in
                        if state.failure == nil { state.failure = TileCutError(path: job.path, reason: error) }
                        state.stopped = true
                    }
                }
            }, completion: { _, _ in
                job.buffer.release()
                outstanding.leave()
            })
        }
    }

    func waitUntilFree(_ buffer: BandBuffer) throws {
        // Encode on this thread too rather than sleep; once nothing is queued, the rest is running.
        while buffer.isInUse {
            if scheduler.runPending(limit: 1) == 0 {
                buffer.waitUntilFree()
            }
        }
        try throwIfFailed()
    }

    /// Waits until every submitted tile is written (or skipped), helping meanwhile.
    func drain() {
        while scheduler.runPending(limit: 1) > 0 {}
        outstanding.wait()
    }

    /// Lets the worker threads go (after `drain`).
    func shutdown() {
        scheduler.shutdown()
        _ = scheduler.waitForWorkersToExit(timeout: 10)
    }

    func throwIfFailed() throws {
        if let failure = shared.state.withLock({ $0.failure }) {
            throw failure
        }
    }
}
