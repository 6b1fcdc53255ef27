import Foundation

/// Finds the repository's `Resources/` folder: TESSERA_RESOURCES if set, else the first `Resources` beside
/// or above the executable (`.build/release/tessera` sits two levels below the checkout), else below the
/// working directory.
public enum ResourceLocator {
    public static func resourcesFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fm = FileManager.default
        if let custom = environment["TESSERA_RESOURCES"] { return URL(fileURLWithPath: custom) }
        var starts: [URL] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
        starts.append(executable.deletingLastPathComponent())
        starts.append(URL(fileURLWithPath: fm.currentDirectoryPath))
        for start in starts {
            var folder = start.standardizedFileURL
            for _ in 0..<6 {
                let candidate = folder.appendingPathComponent("Resources")
                if fm.fileExists(atPath: candidate.appendingPathComponent("UI").path) { return candidate }
                folder.deleteLastPathComponent()
            }
        }
        return nil
    }

    public static var samplesFolder: URL? { resourcesFolder()?.appendingPathComponent("Samples") }
}
