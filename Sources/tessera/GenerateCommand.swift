import ArgumentParser
import Foundation
import TesseraDesktop
import TesseraUI

/// `tessera generate ...`: files `make install` writes from the binary itself, so that what is installed
/// describes the program installed with it. Hidden from `--help`.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the manual page or the desktop entry to standard output.",
        shouldDisplay: false,
        subcommands: [ManPage.self, DesktopFile.self])
}

extension Generate {
    /// The manual page, from the command tree `--help` prints (through `--experimental-dump-help`).
    struct ManPage: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "man-page")

        func run() throws {
            let process = Process()
            process.executableURL = ResourceLocator.runningExecutable
            process.arguments = ["--experimental-dump-help"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let json = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw fail("--experimental-dump-help failed") }
            let tool = try JSONDecoder().decode(ToolInfo.self, from: json)
            let page = TesseraManual.page(tool: tool, version: Tessera.configuration.version, date: Self.date())
            print(page.render(), terminator: "")
        }

        /// Today, or SOURCE_DATE_EPOCH's day for a reproducible build.
        static func date() -> String {
            let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate]
            return formatter.string(from: epoch.map(Date.init(timeIntervalSince1970:)) ?? Date())
        }
    }

    /// The desktop entry, offered for every image type the folder lister takes.
    struct DesktopFile: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "desktop-entry")

        func run() {
            print(DesktopEntry.text(), terminator: "")
        }
    }
}
