#if canImport(Glibc)
import Glibc
#endif
import Foundation
#if canImport(XCTest)
import XCTest
#endif

/// An Xvfb server on a free display number, for as long as the test needs it: a real X server for what
/// SDL's dummy driver has not (the root window's properties, selections). Skips the test when Xvfb is
/// missing or does not start.
package final class XvfbServer {
    /// The display's name, `:number`, for `DISPLAY` and `XOpenDisplay`.
    package let name: String
    private let process = Process()

    package init() throws {
        guard let xvfb = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Self.unavailable("Xvfb is not installed (the xvfb package; make test-deps installs it)")
        }
        process.executableURL = URL(fileURLWithPath: xvfb)
        // -displayfd: Xvfb picks a free display number itself and writes it once it listens, so two test
        // runs on one machine never share a server. -noreset: the root window's properties stay when the
        // last client goes (each read and write here is a connection of its own).
        let ready = Pipe()
        process.arguments = ["-displayfd", "1", "-screen", "0", "320x240x24", "-nolisten", "tcp", "-noreset"]
        process.standardOutput = ready
        process.standardError = FileHandle.nullDevice
        try process.run()
        var said = Data()
        // The pipe closes when Xvfb exits, which ends the wait; a server that says nothing for 10 s is
        // given up on.
        let deadline = Date().addingTimeInterval(10)
        while !said.contains(UInt8(ascii: "\n")), Date() < deadline {
            var waiting = pollfd(fd: ready.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 200) >= 0 else { break }
            guard waiting.revents != 0 else { continue }
            let more = ready.fileHandleForReading.availableData
            if more.isEmpty { break }
            said.append(more)
        }
        guard let number = Int(String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
              process.isRunning else {
            name = ""
            stop()
            throw Self.unavailable("Xvfb did not start")
        }
        name = ":\(number)"
    }

    /// A skip for the test that wanted the server. `make build` compiles this target without XCTest (the
    /// release toolchain's static runtime has none), where the reason is a plain error.
    private static func unavailable(_ reason: String) -> any Error {
        #if canImport(XCTest)
        return XCTSkip(reason)
        #else
        return Unavailable(reason: reason)
        #endif
    }

    private struct Unavailable: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    package func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
