import Foundation

/// Runs a program to its end and keeps what it printed: for tests that drive the built binary, `make` or a
/// checking tool the way a person would at a shell.
package struct ChildProcess {
    package var status: Int32
    /// What it wrote on standard output and standard error, as bytes.
    package var output: Data
    package var errorOutput: Data

    package var stdout: String { String(decoding: output, as: UTF8.self) }
    package var stderr: String { String(decoding: errorOutput, as: UTF8.self) }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`; `environment` entries are
    /// added to this process's own (a nil value removes one). `input` is its standard input, which then
    /// closes; without it, standard input is /dev/null.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                           in folder: URL? = nil, input: Data? = nil) throws -> ChildProcess {
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
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        // Both pipes drain at once, and standard input is written beside them, so a child filling one pipe
        // while we wait on another cannot stall.
        nonisolated(unsafe) var errData = Data()
        let errDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            errDone.signal()
        }
        if let input {
            DispatchQueue.global().async {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        errDone.wait()
        process.waitUntilExit()
        return ChildProcess(status: process.terminationStatus, output: outData, errorOutput: errData)
    }

    /// Runs the built `tessera` with `arguments`, headless on SDL's dummy driver, with `environment` added.
    package static func tessera(_ arguments: [String], environment: [String: String?] = [:],
                               input: Data? = nil) throws -> ChildProcess {
        try run(BuiltBinary.url(named: "tessera").path, arguments,
                environment: environment.merging(["SDL_VIDEODRIVER": "dummy"]) { mine, _ in mine }, input: input)
    }

    /// Whether `name` is a program on PATH.
    package static func isInstalled(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }
}
