import Foundation

/// A fresh temporary directory per test, removed afterwards.
public final class TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tessera-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `data` to `name` inside the directory and returns its path.
    @discardableResult
    public func write(_ data: Data, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file.path
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
