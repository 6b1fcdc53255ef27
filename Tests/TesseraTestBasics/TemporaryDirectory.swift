import Foundation

/// A fresh temporary directory per test, removed afterwards.
package final class TemporaryDirectory {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tessera-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `data` to `name` inside the directory and returns its path.
    @discardableResult
    package func write(_ data: Data, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file.path
    }

    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
