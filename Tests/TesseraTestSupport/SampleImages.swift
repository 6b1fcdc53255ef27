import Foundation

/// The repository's sample images (`Resources/Samples`, made by tools/make-samples.py), for tests that
/// run the built binary and so cannot use the app's resource lookup.
package enum SampleImages {
    package static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/Samples")

    package static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }
}
