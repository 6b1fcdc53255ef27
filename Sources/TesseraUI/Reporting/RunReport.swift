import Foundation
import TesseraCore

/// What `--report FILE.json` writes at exit. Field names are a contract with the benchmarks.
package struct RunReport: Codable, Sendable {
    package struct CacheFigures: Codable, Sendable {
        package var hits = 0
        package var misses = 0
        package var evictions = 0
        package var peakCostBytes = 0
        package var costLimitBytes = 0

        enum CodingKeys: String, CodingKey {
            case hits, misses, evictions
            case peakCostBytes = "peak_cost_bytes"
            case costLimitBytes = "cost_limit_bytes"
        }
    }

    /// Download figures of remote items; nil, and left out, when there were none.
    package struct DownloadFigures: Codable, Sendable {
        package var started = 0
        package var completed = 0
        /// Revalidations answered 304: the cached copy was still good.
        package var notModified = 0
        package var failed = 0
        package var bytes = 0

        enum CodingKeys: String, CodingKey {
            case started, completed, failed, bytes
            case notModified = "not_modified"
        }
    }

    /// An item that could not be shown, and why.
    package struct ItemError: Codable, Sendable, Equatable {
        package var item: String
        package var reason: String
    }

    package var frames = 0
    /// Items in the strip at exit (files appear and vanish while it runs).
    package var items = 0
    /// How long listing the items took, names listed and ordered, in milliseconds (on a thread of its own,
    /// while the window was made); nil, and left out, when the items were given rather than listed.
    package var listingMs: Double?
    /// File changes (changed, new, deleted) the watcher reported and the strip applied.
    package var fileChanges = 0
    /// Frames of animations put on screen (the single view's and the strip's selected cell's).
    package var animationFramesShown = 0
    package var downloads: DownloadFigures?
    /// Which view had the window at exit, `strip` or `single`; nil, and left out, for `tessera view`.
    package var mode: String?
    /// The selected item's path at exit.
    package var selectedItem: String?
    /// The selected item's name as the strip shows it (a file's name, a manifest's canvas label).
    package var selectedName: String?
    /// The marked items' paths at exit, in strip order (what `-o` writes).
    package var markedItems: [String] = []
    /// Items known to fail at exit (those the strip tried to load), in strip order.
    package var errors: [ItemError] = []
    /// The main thread's own work per frame (events, layout, uploads, render), in milliseconds.
    package var frameMs = SampleSummary(samples: [])
    package var framesOver16ms = 0
    package var mainThreadDecodes = 0
    package var decodes = 0
    package var cache = CacheFigures()
    package var cellsCreated = 0
    package var placeholderCellFrames = 0
    /// Visible-cell frames in all: the denominator for the placeholder share.
    package var visibleCellFrames = 0
    /// Frames in which an image was fading in (blended on the software renderer, so dearer than others).
    package var fadingFrames = 0
    /// Cell textures made inside frames rather than before them (`CarouselView.prepareCellTextures`).
    package var cellTexturesMadeInFrames = 0
    /// Bytes of pixels the decoders produced (after scaling).
    package var decodedBytes = 0
    package var strategy: String?
    /// The SDL video driver the window was made with (`wayland`, `x11`, `dummy`).
    package var videoDriver: String?
    /// Device pixels per point at exit: the output's scale, or the one `--pixel-scale` forced.
    package var pixelScale: Double?
    /// Per frame (`--frame-times`): seconds since the run started, the frame's main-thread milliseconds,
    /// the placeholder cells it drew, and the milliseconds of its model update, texture uploads and draw
    /// calls (the zoom view has no separate uploads: 0). The rest of a frame is SDL drawing what the
    /// calls queued, at present, and the event poll.
    package var frameTimes: [[Double]]?
    package var uploadBytes = 0
    package var peakRSSBytes = 0
    // The tiled view's figures (`tessera view`, or Enter in the strip); nil, and left out, otherwise.
    package var tilesRequested: Int?
    package var tilesDecoded: Int?
    package var tilesCancelled: Int?
    package var tilesFailed: Int?
    /// Open to the first frame without holes, ms.
    package var firstFrameMs: Double?
    /// Open to every visible tile at the right level, ms.
    package var sharpMs: Double?
    /// Median time from a tile's arrival to its first fully opaque frame, ms.
    package var fadeMsObserved: Double?
    /// Frames after the first complete one that showed a hole.
    package var holeFrames: Int?
    /// `frame_ms` of the frames during which the tiled view moved (panning).
    package var movingFrameMs: SampleSummary?
    /// From `c` to every pane of the compare view sharp, ms (the first compare of the run).
    package var compareSharpMs: Double?
    /// When each step of starting up was reached, ms since the process started (`StartupTimeline.Phase`).
    package var startupMs: [String: Double]?

    enum CodingKeys: String, CodingKey {
        case frames, items, downloads, errors, mode
        case listingMs = "listing_ms"
        case selectedItem = "selected_item"
        case selectedName = "selected_name"
        case markedItems = "marked_items"
        case fileChanges = "file_changes"
        case animationFramesShown = "animation_frames_shown"
        case frameMs = "frame_ms"
        case framesOver16ms = "frames_over_16ms"
        case mainThreadDecodes = "main_thread_decodes"
        case decodes, cache
        case cellsCreated = "cells_created"
        case placeholderCellFrames = "placeholder_cell_frames"
        case visibleCellFrames = "visible_cell_frames"
        case fadingFrames = "fading_frames"
        case cellTexturesMadeInFrames = "cell_textures_made_in_frames"
        case decodedBytes = "decoded_bytes"
        case strategy
        case videoDriver = "video_driver"
        case pixelScale = "pixel_scale"
        case frameTimes = "frame_times"
        case uploadBytes = "upload_bytes"
        case peakRSSBytes = "peak_rss_bytes"
        case tilesRequested = "tiles_requested"
        case tilesDecoded = "tiles_decoded"
        case tilesCancelled = "tiles_cancelled"
        case tilesFailed = "tiles_failed"
        case firstFrameMs = "first_frame_ms"
        case sharpMs = "sharp_ms"
        case compareSharpMs = "compare_sharp_ms"
        case fadeMsObserved = "fade_ms_observed"
        case holeFrames = "hole_frames"
        case movingFrameMs = "moving_frame_ms"
        case startupMs = "startup_ms"
    }

    package init() {}

    package func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The process's peak resident set size (getrusage reports kilobytes on Linux).
    package static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}
