import Foundation
import TesseraCore
import TesseraImaging
import TesseraSandbox
import TesseraTestSupport
import XCTest

/// Decoding in sandboxed helpers: a decoder that crashes, allocates without bound, never returns, writes a
/// file or makes a system call decoding never needs costs its one image an error cell saying which, its helper is replaced,
/// and the next image decodes. The misbehaving decoders are compiled into debug builds only and switched on
/// by an environment variable (see `MisbehavingDecoder` in the tessera target).
final class DecodeHelperTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-helpers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// A small PNG that makes the misbehaving decoder do `misbehaviour` (nil: a plain PNG).
    private func image(_ name: String, misbehaviour: String?) throws -> String {
        var bytes = try Data(contentsOf: SampleImages.url("img13-tiny.png"))
        if let misbehaviour { bytes += Data("tessera-test:\(misbehaviour)".utf8) }
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    private func pool(timeLimit: Duration = .seconds(20), memoryLimit: Int = 256 << 20) -> DecodeHelperPool {
        var configuration = DecodeHelperPool.Configuration(executable: BuiltBinary.url(named: "tessera").path,
                                                           helperCount: 1, memoryLimit: memoryLimit, timeLimit: timeLimit)
        configuration.environment = ["TESSERA_TEST_MISBEHAVING_DECODERS": "1"]
        return DecodeHelperPool(configuration: configuration)
    }

    private func reason(_ loader: ImageLoader, _ path: String) -> ImageLoadError.Reason? {
        do {
            _ = try loader.load(path: path, fitting: PixelSize(width: 64, height: 64))
            return nil
        } catch {
            return error.reason
        }
    }

    func testAHelperDecodesWhatTheLoaderDecodesInProcess() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        helpers.waitUntilReady()
        let inProcess = ImageLoader(decoders: ImageDecoders.standard())
        let sandboxed = ImageLoader(decoders: ImageDecoders.standard(), decoding: SandboxedDecoding.service(in: helpers))
        var paths = ["img1-baseline.jpg", "img5-alpha.png", "img8-lossy.webp", "img15.gif", "img16.bmp"].map { SampleImages.url($0).path }
        // Text in fonts the warm-up never drew: fontconfig opens them after the lock-down.
        let svg = folder.appendingPathComponent("text.svg")
        try Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="300" height="120"><rect width="300" height="120" fill="#48c"/>\
            <text x="5" y="50" font-size="40" font-family="serif" font-style="italic">Serif</text>\
            <text x="5" y="100" font-size="30" font-family="monospace" font-weight="bold">Mono 123</text></svg>
            """.utf8).write(to: svg)
        paths.append(svg.path)
        // A camera RAW (libraw, its OpenMP threads) and a TIFF, from the fuzzer's seeds.
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/seeds")
        paths += ["tiny.dng", "tiny.tiff"].map { seeds.appendingPathComponent($0).path }
        let png = SampleImages.url("img20-rgb.png").path
        for (tool, arguments, name) in [("heif-enc", ["-q", "60", png, "-o"], "a.heic"), ("heif-enc", ["-A", "-q", "60", png, "-o"], "a.avif"),
                                        ("cjxl", [png], "a.jxl")] where FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) {
            let out = folder.appendingPathComponent(name).path
            let process = try Process.run(URL(fileURLWithPath: "/usr/bin/" + tool), arguments: arguments + [out])
            process.waitUntilExit()
            if process.terminationStatus == 0 { paths.append(out) }
        }
        for path in paths {
            let name = (path as NSString).lastPathComponent
            let box = PixelSize(width: 200, height: 150)
            let expected = try inProcess.load(path: path, fitting: box)
            let got = try sandboxed.load(path: path, fitting: box)
            XCTAssertEqual(got.size, expected.size, name)
            XCTAssertEqual(got.sourceSize, expected.sourceSize, name)
            XCTAssertEqual(got.damage, expected.damage, name)
            XCTAssertTrue(got.bytes == expected.bytes, "\(name): the same pixels from the same code")
        }
        // A later image of a file of several is asked for by its number.
        if paths.contains(where: { $0.hasSuffix("a.heic") }) {
            let two = folder.appendingPathComponent("two.heic").path
            let process = try Process.run(URL(fileURLWithPath: "/usr/bin/heif-enc"), arguments: ["-q", "60", png, SampleImages.url("img5-alpha.png").path, "-o", two])
            process.waitUntilExit()
            if process.terminationStatus == 0 {
                let pageOne = ImageLoader(decoders: ImageDecoders.standard(), page: 1)
                let sandboxedPageOne = ImageLoader(decoders: ImageDecoders.standard(), page: 1, decoding: SandboxedDecoding.service(in: helpers))
                XCTAssertTrue(try sandboxedPageOne.load(path: two, fitting: nil).bytes == pageOne.load(path: two, fitting: nil).bytes,
                              "page 2 through the helper")
                XCTAssertEqual(try sandboxed.load(path: two, fitting: PixelSize(width: 64, height: 64)).holdsSeveralImages, true,
                               "that there are more comes back with the pixels")
                let pageThree = ImageLoader(decoders: ImageDecoders.standard(), page: 2, decoding: SandboxedDecoding.service(in: helpers))
                XCTAssertEqual(reason(pageThree, two), .decodeFailed("the file has no image 3"))
            }
        }
        // A damaged file's reason comes back with its pixels.
        let jpeg = try Data(contentsOf: SampleImages.url("img1-baseline.jpg"))
        let cut = folder.appendingPathComponent("cut.jpg")
        try jpeg.prefix(jpeg.count * 2 / 3).write(to: cut)
        XCTAssertEqual(try sandboxed.load(path: cut.path, fitting: nil).damage, "Premature end of JPEG file")
        // Bytes in memory reach the helper in a memfd.
        let bytes = try Data(contentsOf: SampleImages.url("img8-lossy.webp"))
        let box = PixelSize(width: 120, height: 120)
        XCTAssertTrue(try sandboxed.load(data: bytes, name: "held", fitting: box).bytes
                      == inProcess.load(data: bytes, name: "held", fitting: box).bytes)
        // The loader's refusals come back as they are.
        let text = folder.appendingPathComponent("notes.png")
        try Data("not an image, whatever its name says".utf8).write(to: text)
        XCTAssertEqual(reason(sandboxed, text.path), .notAnImage)
        XCTAssertEqual(reason(sandboxed, folder.appendingPathComponent("gone.png").path), .missing)
    }

    func testEachMisbehaviourIsItsOwnFailureAndTheNextImageDecodes() throws {
        let helpers = pool(timeLimit: .seconds(3))
        defer { helpers.shutdown() }
        let loader = ImageLoader(decoders: ImageDecoders.standard(), decoding: SandboxedDecoding.service(in: helpers))
        let good = try image("good.png", misbehaviour: nil)
        let cases: [(String, DecodeHelperFailure)] = [
            ("crash", .crashed(signal: SIGSEGV)), ("allocate", .memoryLimit), ("loop", .timeLimit),
            ("write", .forbiddenSystemCall), ("socket", .forbiddenSystemCall),
        ]
        XCTAssertNil(reason(loader, good))
        for (misbehaviour, failure) in cases {
            let path = try image("\(misbehaviour).png", misbehaviour: misbehaviour)
            XCTAssertEqual(reason(loader, path), .helperFailed(failure), misbehaviour)
            XCTAssertNil(reason(loader, good), "a fresh helper decodes the next image after \(misbehaviour)")
        }
    }

    /// A helper does the decode's work while the worker that asked waits, so a background pool's helpers run
    /// as far below the viewer as its decode workers do: the main thread keeps its frames while both cores decode.
    func testABackgroundPoolsHelpersRunBelowTheViewerAndSoDoTheirReplacements() throws {
        let helpers = misbehavingPool(priority: .background)
        defer { helpers.shutdown() }
        helpers.waitUntilReady()
        let lowered = min(19, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) + 10)
        let first = Self.childNiceValues()
        XCTAssertFalse(first.isEmpty)
        XCTAssertEqual(Set(first.values), [lowered], "the first helper")
        try assertTheReplacementOfACrashedHelperRuns(at: lowered, in: helpers, besides: first)
    }

    /// The viewer's helpers start at its own priority, so the first screen it opens decodes at once, and
    /// step back behind it once that screen is shown: the idle ones then, a replacement from its start.
    func testAPoolLoweredAfterTheFirstScreenLowersItsHelpersAndTheirReplacements() throws {
        let helpers = misbehavingPool(priority: .normal)
        defer { helpers.shutdown() }
        helpers.waitUntilReady()
        let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let first = Self.childNiceValues()
        XCTAssertFalse(first.isEmpty)
        XCTAssertEqual(Set(first.values), [own], "at the viewer's own priority at start")
        helpers.lowerPriority(to: .background)
        let lowered = min(19, own + 10)
        XCTAssertEqual(Set(Self.childNiceValues().values), [lowered], "the idle helper steps down")
        try assertTheReplacementOfACrashedHelperRuns(at: lowered, in: helpers, besides: first)
    }

    /// Crashes a helper of `helpers` and checks that its replacement, the one child not in `first`, runs at
    /// nice value `nice`.
    private func assertTheReplacementOfACrashedHelperRuns(at nice: Int32, in helpers: DecodeHelperPool,
                                                          besides first: [pid_t: Int32],
                                                          file: StaticString = #filePath, line: UInt = #line) throws {
        let loader = ImageLoader(decoders: ImageDecoders.standard(), decoding: SandboxedDecoding.service(in: helpers))
        XCTAssertEqual(reason(loader, try image("crash.png", misbehaviour: "crash")), .helperFailed(.crashed(signal: SIGSEGV)),
                       file: file, line: line)
        XCTAssertNil(reason(loader, try image("good.png", misbehaviour: nil)), file: file, line: line)
        let replacements = Self.childNiceValues().filter { first[$0.key] == nil }
        XCTAssertFalse(replacements.isEmpty, "the crashed helper is replaced", file: file, line: line)
        XCTAssertEqual(Set(replacements.values), [nice], "its replacement", file: file, line: line)
    }

    /// One helper whose decoders misbehave on request, at `priority`.
    private func misbehavingPool(priority: WorkerPriority) -> DecodeHelperPool {
        var configuration = DecodeHelperPool.Configuration(executable: BuiltBinary.url(named: "tessera").path,
                                                           helperCount: 1, memoryLimit: 256 << 20)
        configuration.environment = ["TESSERA_TEST_MISBEHAVING_DECODERS": "1"]
        configuration.priority = priority
        return DecodeHelperPool(configuration: configuration)
    }

    /// This process's children and their nice values, from /proc.
    private static func childNiceValues() -> [pid_t: Int32] {
        let tasks = "/proc/self/task"
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).flatMap { task -> [pid_t] in
            let text = (try? String(contentsOfFile: "\(tasks)/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return Dictionary(children.map { ($0, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t($0))) }) { a, _ in a }
    }

    func testAHelperCannotReadFilesOutsideTheFontFolders() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        let loader = ImageLoader(decoders: ImageDecoders.standard(), decoding: SandboxedDecoding.service(in: helpers))
        // Landlock refuses the open (where the kernel has it); without it the filter kills the helper.
        switch reason(loader, try image("read.png", misbehaviour: "read")) {
        case .decodeFailed(let message)?: XCTAssertTrue(message.hasPrefix("open refused"), message)
        case .helperFailed(.forbiddenSystemCall)?: break
        case let other: XCTFail("the helper read a file it had no business reading: \(String(describing: other))")
        }
    }

    /// The viewer's run over `images` with the misbehaving decoders on: each error cell's reason by file name.
    private func errorCells(_ images: URL, _ extra: [String]) throws -> [String: String] {
        let report = folder.appendingPathComponent("run.json")
        let run = try ChildProcess.tessera([images.path, "--headless", "--report", report.path] + extra, environment: [
            "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "TESSERA_TEST_MISBEHAVING_DECODERS": "1"])
        XCTAssertEqual(run.status, 0, run.stderr)

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        XCTAssertEqual(json["items"] as? Int, 5)
        let errors = try XCTUnwrap(json["errors"] as? [[String: String]])
        var reasons: [String: String] = [:]
        for error in errors { reasons[(error["item"]! as NSString).lastPathComponent] = error["reason"] }
        return reasons
    }

    func testTheViewerShowsEachFailureAsAnErrorCellAndGoesOn() throws {
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for (name, misbehaviour) in [("a.png", nil), ("b.png", "crash"), ("c.png", "loop"), ("d.png", "write"), ("e.png", nil)] {
            try FileManager.default.moveItem(atPath: try image(name, misbehaviour: misbehaviour),
                                             toPath: images.appendingPathComponent(name).path)
        }
        XCTAssertEqual(try errorCells(images, ["--decode-time-limit", "2"]),
                       ["b.png": "Decoder crashed", "c.png": "Decoder took too long",
                        "d.png": "Decoder tried a forbidden system call"])
        // In process, the viewer's own decoders run (the misbehaving ones live in helpers only): all decode.
        XCTAssertEqual(try errorCells(images, ["--decode-in-process"]), [:])
    }

    /// `tessera tile` reads its image in a helper, whether decoded whole (a BMP) or streamed row by row (a
    /// JPEG, crashing after its first rows): a crash is the cut's clear error, and the same image cuts
    /// when its decoder behaves.
    func testTheTileCutterDecodesInAHelper() throws {
        var inputs: [(URL, Bool)] = []
        for sample in ["img16.bmp", "img22-uhd.jpg"] {
            let bytes = try Data(contentsOf: SampleImages.url(sample))
            let good = folder.appendingPathComponent("good-" + sample)
            let bad = folder.appendingPathComponent("bad-" + sample)
            try bytes.write(to: good)
            try (bytes + Data("tessera-test:crash".utf8)).write(to: bad)
            inputs += [(good, false), (bad, true)]
        }
        for (input, crashes) in inputs {
            let run = try ChildProcess.tessera(["tile", input.path, "--out", folder.appendingPathComponent("out").path,
                                                "--quiet"], environment: ["TESSERA_TEST_MISBEHAVING_DECODERS": "1"])
            if crashes {
                XCTAssertNotEqual(run.status, 0)
                XCTAssertTrue(run.stderr.contains("\(input.path): Decoder crashed"), run.stderr)
            } else {
                XCTAssertEqual(run.status, 0, run.stderr)
            }
        }
    }

    /// Every input the fuzzer once crashed on, and the seed corpus, run through the fuzz target's function
    /// (built plainly, as a replayer): each must now be decoded or refused, never crash.
    func testTheFuzzRegressionsAndSeedsDecodeWithoutCrashing() throws {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz")
        var inputs: [String] = []
        for folder in [fuzz.appendingPathComponent("regressions"), fuzz.appendingPathComponent("seeds"), SampleImages.folder] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !name.hasPrefix(".") {
                inputs.append(folder.appendingPathComponent(name).path)
            }
        }
        XCTAssertGreaterThan(inputs.count, 30)
        let run = try ChildProcess.run(BuiltBinary.url(named: "TesseraFuzz").path, inputs)
        XCTAssertEqual(run.status, 0, "exited with 0, not killed by a signal: \(run.stderr.suffix(2000))")
    }
}
