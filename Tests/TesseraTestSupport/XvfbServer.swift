import Foundation
import XCTest

/// An Xvfb server on a free display number, for as long as the test needs it: a real X server for what
/// SDL's dummy driver has not (the root window's properties, selections). Skips the test when Xvfb is
/// missing or does not start.
package final class XvfbServer {
    /// The display's name, `:number`, for `DISPLAY` and `XOpenDisplay`.
    package let name: String
    private let process = Process()

    package init() throws {
        guard let xvfb = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("Xvfb is not installed (the xvfb package; make test-deps installs it)")
        }
        guard let number = (90..<140).first(where: { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)")
                                                      && !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") }) else {
            throw XCTSkip("no free X display number between :90 and :139")
        }
        name = ":\(number)"
        process.executableURL = URL(fileURLWithPath: xvfb)
        // -noreset: the root window's properties stay when the last client goes (each read and write here
        // is a connection of its own).
        process.arguments = [name, "-screen", "0", "320x240x24", "-nolisten", "tcp", "-noreset"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw XCTSkip("Xvfb \(name) did not start")
            }
            usleep(20_000)
        }
    }

    package func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
