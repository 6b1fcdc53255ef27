import Foundation

/// Finds Tessera's resources (`UI/`, `Samples/`): TESSERA_RESOURCES if set; else `share/tessera` beside the
/// executable's `bin` folder, where `make install` puts them (`PREFIX/bin/tessera` reads
/// `PREFIX/share/tessera`); else the first `Resources` folder of a checkout beside or above the executable
/// (`.build/release/tessera` sits two levels below it) or the working directory.
package enum ResourceLocator {
    package static func resourcesFolder(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       executable: URL = runningExecutable,
                                       workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        -> URL? {
        if let custom = environment["TESSERA_RESOURCES"] { return URL(fileURLWithPath: custom) }
        let binFolder = executable.deletingLastPathComponent().standardizedFileURL
        let installed = binFolder.deletingLastPathComponent().appendingPathComponent("share/tessera")
        if holdsUIAssets(installed) { return installed }
        for start in [binFolder, workingDirectory.standardizedFileURL] {
            var folder = start
            for _ in 0..<6 {
                let candidate = folder.appendingPathComponent("Resources")
                if holdsUIAssets(candidate) { return candidate }
                folder.deleteLastPathComponent()
            }
        }
        return nil
    }

    package static var samplesFolder: URL? { resourcesFolder()?.appendingPathComponent("Samples") }

    /// The running binary with links resolved: `/proc/self/exe` names it however it was started (through
    /// PATH, `argv[0]` is a bare `tessera`).
    package static var runningExecutable: URL {
        let procSelf = URL(fileURLWithPath: "/proc/self/exe")
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: procSelf.path) {
            return URL(fileURLWithPath: target)
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    }

    private static func holdsUIAssets(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("UI").path)
    }
}
