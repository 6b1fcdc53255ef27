import Foundation
import TesseraTestSupport
import XCTest

/// `make install` into a DESTDIR, as a packager runs it, and `make uninstall` after it: the tree, the
/// desktop entry under `desktop-file-validate`, the icon, the manual page under `man` and `groff`, and the
/// installed binary finding its resources away from the checkout.
///
/// It installs the binary this test run built (`make install-built BINARY=...`, the step `make install`
/// runs after its release build): a release build started from inside `swift test` would wait on the
/// build folder that the running test holds.
final class InstallTests: XCTestCase {
    private var destination: URL!
    private let prefix = "/usr/local"
    private var root: URL { destination.appendingPathComponent(String(prefix.dropFirst())) }

    /// The checkout: this file is Tests/TesseraCLITests/InstallTests.swift.
    private static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    override func setUpWithError() throws {
        guard ChildProcess.isInstalled("make") else {
            print("InstallTests skipped: make is not installed")
            throw XCTSkip("make is not installed")
        }
        destination = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-install-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let destination { try? FileManager.default.removeItem(at: destination) }
    }

    private func make(_ target: String) throws -> ChildProcess {
        try ChildProcess.run("make", ["-C", Self.checkout.path, "--no-print-directory", target,
                                      "DESTDIR=\(destination.path)", "PREFIX=\(prefix)",
                                      "BINARY=\(BuiltBinary.url(named: "tessera").path)"])
    }

    /// Every file under the destination, relative to PREFIX.
    private func installedFiles() throws -> Set<String> {
        var files: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: destination, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files.insert(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        return files
    }

    private func require(_ tool: String, from package: String) throws {
        if !ChildProcess.isInstalled(tool) {
            XCTFail("\(tool) is missing: install \(package) (make test-deps does)")
            throw XCTSkip("\(tool) is missing")
        }
    }

    func testInstallPutsEveryFileInPlaceAndUninstallRemovesThemAll() throws {
        let install = try make("install-built")
        XCTAssertEqual(install.status, 0, install.stderr)

        let resources = Self.checkout.appendingPathComponent("Resources")
        var expected: Set<String> = [
            "bin/tessera", "share/applications/tessera.desktop", "share/man/man1/tessera.1",
            "share/icons/hicolor/scalable/apps/tessera.svg", "share/icons/hicolor/48x48/apps/tessera.png",
            "share/icons/hicolor/128x128/apps/tessera.png", "share/icons/hicolor/256x256/apps/tessera.png",
        ]
        for folder in ["UI", "Samples"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: resources.appendingPathComponent(folder).path) {
                expected.insert("share/tessera/\(folder)/\(name)")
            }
        }
        XCTAssertEqual(try installedFiles(), expected)

        let uninstall = try make("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(try installedFiles(), [], "uninstall leaves no file behind")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("share/tessera").path))
    }

    func testTheDesktopEntryIsValidAndTheIconComesInEverySize() throws {
        XCTAssertEqual(try make("install-built").status, 0)
        try require("desktop-file-validate", from: "desktop-file-utils")
        let entry = root.appendingPathComponent("share/applications/tessera.desktop")
        let validate = try ChildProcess.run("desktop-file-validate", [entry.path])
        XCTAssertEqual(validate.status, 0, validate.stdout + validate.stderr)
        XCTAssertEqual(validate.stdout + validate.stderr, "", "no warnings or hints either")
        let text = try String(contentsOf: entry, encoding: .utf8)
        let mimeLine = text.split(separator: "\n").first { $0.hasPrefix("MimeType=") } ?? ""
        let mimeTypes = Set(mimeLine.dropFirst("MimeType=".count).split(separator: ";").map(String.init))
        for type in ["image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp", "image/tiff", "image/heic",
                     "image/avif", "image/jxl", "image/svg+xml", "image/x-adobe-dng"] {
            XCTAssertTrue(mimeTypes.contains(type), "the desktop entry offers Tessera for \(type): \(mimeLine)")
        }

        for size in [48, 128, 256] {
            let png = try Data(contentsOf: root.appendingPathComponent("share/icons/hicolor/\(size)x\(size)/apps/tessera.png"))
            XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            // IHDR: width and height, big-endian, from byte 16.
            let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
            XCTAssertEqual([width, height], [size, size])
        }
        let svg = try String(contentsOf: root.appendingPathComponent("share/icons/hicolor/scalable/apps/tessera.svg"), encoding: .utf8)
        XCTAssertTrue(svg.contains("<svg") && svg.contains("viewBox=\"0 0 128 128\""))
    }

    func testTheManualPageRendersWithoutWarnings() throws {
        XCTAssertEqual(try make("install-built").status, 0)
        try require("groff", from: "groff-base")
        try require("man", from: "man-db")
        let page = root.appendingPathComponent("share/man/man1/tessera.1").path
        let groff = try ChildProcess.run("groff", ["-man", "-Tutf8", "-ww", "-z", page])
        XCTAssertEqual(groff.status, 0)
        XCTAssertEqual(groff.stderr, "", "groff warns")
        let man = try ChildProcess.run("man", ["--warnings", "-l", page], environment: ["MANWIDTH": "80", "LC_ALL": "C.UTF-8", "MANPAGER": "cat", "PAGER": "cat"])
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertEqual(man.stderr, "", "man warns")
        for heading in ["NAME", "SYNOPSIS", "COMMANDS", "FILES"] {
            XCTAssertTrue(man.stdout.contains("\n\(heading)\n"), "the page has \(heading)")
        }
        // The options and their defaults, as --help gives them.
        XCTAssertTrue(man.stdout.contains("--rows rows"), man.stdout)
        XCTAssertTrue(man.stdout.contains("(default: 1)"), man.stdout)
    }

    func testTheInstalledBinaryRunsAndFindsItsResources() throws {
        XCTAssertEqual(try make("install-built").status, 0)
        let binary = root.appendingPathComponent("bin/tessera").path
        // Away from the checkout, with nothing pointing at it.
        let elsewhere: [String: String?] = ["TESSERA_RESOURCES": nil, "SDL_VIDEODRIVER": "dummy",
                                            "XDG_CACHE_HOME": destination.appendingPathComponent("cache").path,
                                            "XDG_CONFIG_HOME": destination.appendingPathComponent("config").path]
        let version = try ChildProcess.run(binary, ["--version"], environment: elsewhere, in: destination)
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.stdout.split(separator: "\n").count, 1, version.stdout)
        let help = try ChildProcess.run(binary, ["--help"], environment: elsewhere, in: destination)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("browse"), help.stdout)

        // No paths: the installed samples, drawn with the installed UI images.
        let report = destination.appendingPathComponent("run.json")
        let run = try ChildProcess.run(binary, ["--headless", "--frames", "5", "--report", report.path],
                                       environment: elsewhere, in: destination)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("not found"), run.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let samples = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("share/tessera/Samples").path)
        XCTAssertEqual(json?["items"] as? Int, samples.count)
    }
}
