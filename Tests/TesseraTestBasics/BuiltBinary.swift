import Foundation

/// Where SwiftPM put a product of this package: next to the test bundle, in .build/<configuration>/.
package enum BuiltBinary {
    package static func url(named name: String) -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent(name)
    }
}
