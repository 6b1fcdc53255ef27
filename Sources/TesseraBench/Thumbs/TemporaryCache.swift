import Foundation
import TesseraImaging

/// An empty freedesktop thumbnail cache in a new temporary folder, removed with it: a benchmark never
/// writes to the user's ~/.cache.
final class TemporaryCache {
    let folder: URL
    let store: ThumbnailStore

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = ThumbnailStore(root: folder.appendingPathComponent("thumbnails").path)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
