import Foundation

/// Runs a program to its end and keeps what it printed: for tests that drive the built binary, `make` or a
/// checking tool the way a person would at a shell.
public struct ChildProcess {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`; `environment` entries are
    /// added to this process's own (a nil value removes one).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                           in folder: URL? = nil) throws -> ChildProcess {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes drain at once, so a child filling one while we wait on the other cannot stall.
        nonisolated(unsafe) var errData = Data()
        let errDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            errDone.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        errDone.wait()
        process.waitUntilExit()
        return ChildProcess(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Whether `name` is a program on PATH.
    public static func isInstalled(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }
}
