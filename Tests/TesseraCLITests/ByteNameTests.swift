import Foundation
import TesseraTestSupport
import XCTest

/// Names as Linux keeps them, bytes that need not be UTF-8, through everything the viewer hands on or
/// acts on: marks and `-o -0`, the key-handler's input, a turn, the trash and its undo, a file named on
/// the command line. Two names that differ only in bytes that are not UTF-8 stay two files.
final class ByteNameTests: XCTestCase {
    private var folder: URL!
    private var photos: [UInt8] { Array(folder.appendingPathComponent("photos").path.utf8) }
    private var sample: Data!

    /// `x\xff.jpg` and `x\xef\xbf\xbd.jpg` (x, U+FFFD): one path to any reader that repairs UTF-8.
    private let lookalikes: [[UInt8]] = [Array("x".utf8) + [0xFF] + Array(".jpg".utf8),
                                         Array("x\u{FFFD}.jpg".utf8)]
    private let newline = Array("new\nline.jpg".utf8)
    private let longest = [UInt8](repeating: UInt8(ascii: "n"), count: 251) + Array(".jpg".utf8)
    private let dash = Array("-rf.jpg".utf8)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        sample = try Data(contentsOf: SampleImages.url("img1-baseline.jpg"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    // MARK: Files by their bytes

    private func path(_ name: [UInt8]) -> [UInt8] { photos + [UInt8(ascii: "/")] + name }

    private func withCPath<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private func write(_ name: [UInt8]) throws {
        let fd = withCPath(path(name)) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
        defer { close(fd) }
        XCTAssertEqual(sample.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }, sample.count)
    }

    /// The file's bytes, or nil when nothing is at `path`.
    private func contents(_ path: [UInt8]) -> Data? {
        let fd = withCPath(path) { open($0, O_RDONLY) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data = Data(), buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return data }
            data.append(contentsOf: buffer[..<n])
        }
    }

    /// The names in `folder`, as bytes.
    private func names(in folder: String) -> Set<[UInt8]> {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names = Set<[UInt8]>()
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.insert(name) }
        }
        return names
    }

    private func split(_ output: Data) -> Set<[UInt8]> {
        Set(output.split(separator: 0, omittingEmptySubsequences: true).map(Array.init))
    }

    // MARK: Running the viewer

    private var trash: String { folder.appendingPathComponent("data/Trash").path }

    private func run(_ arguments: [String], script: String, input: Data? = nil) throws -> ChildProcess {
        let scriptFile = folder.appendingPathComponent("script.txt")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        return try ChildProcess.tessera(
            arguments + ["--headless", "--no-watch", "--script", scriptFile.path],
            environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
                          "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                          "XDG_DATA_HOME": folder.appendingPathComponent("data").path],
            input: input)
    }

    private func installKeyHandler() throws {
        let config = folder.appendingPathComponent("config/tessera")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let handler = config.appendingPathComponent("key-handler")
        try "#!/bin/sh\ncat > \"\(folder.path)/input\"\n".write(to: handler, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: handler.path)
    }

    // MARK: Tests

    func testEveryNameIsMarkedAndHandedOnByteForByte() throws {
        let all = lookalikes + [newline, longest, dash]
        for name in all { try write(name) }
        try installKeyHandler()
        // M marks every image; Ctrl-x Ctrl-r gives them to the key-handler; q writes them out.
        let result = try run([folder.appendingPathComponent("photos").path, "-o", "-0"],
                             script: "wait-idle\nkey M\nkey ctrl+x\nkey ctrl+r\nwait 1\nwait-idle\nkey q\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = Set(all.map(path))
        XCTAssertEqual(split(result.output), expected, "-o -0 writes each marked path's exact bytes")
        XCTAssertEqual(split(try Data(contentsOf: folder.appendingPathComponent("input"))), expected,
                       "the key-handler reads each path's exact bytes")
    }

    func testAListReadFromStandardInputKeepsEachPathsBytes() throws {
        let all = lookalikes + [newline, dash]
        for name in all { try write(name) }
        // As `find -print0 | tessera -i - -0 -o` hands them over.
        let list = Data(all.flatMap { path($0) + [0] })
        let result = try run(["-i", "-", "-0", "-o"], script: "wait-idle\nkey M\nkey q\n", input: list)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(split(result.output), Set(all.map(path)))
    }

    func testATurnAndTheTrashReachTheFileShownNotItsLookalike() throws {
        for name in lookalikes { try write(name) }
        // The first image is marked, turned clockwise, then moved to the trash.
        let result = try run([folder.appendingPathComponent("photos").path],
                             script: "wait-idle\nkey m\nkey >\nwait 1\nwait-idle\nkey Delete\nwait 1\nwait-idle\nkey q\n")
        XCTAssertEqual(result.status, 0, result.stderr)

        let left = lookalikes.filter { contents(path($0)) != nil }
        XCTAssertEqual(left.count, 1, "exactly one of the two went to the trash")
        guard let kept = left.first, let gone = lookalikes.first(where: { $0 != kept }) else { return }
        XCTAssertEqual(contents(path(kept)), sample, "its lookalike is neither turned nor moved")

        XCTAssertEqual(names(in: trash + "/files"), [gone], "the trashed file keeps its exact name")
        let trashed = contents(Array((trash + "/files/").utf8) + gone)
        XCTAssertNotNil(trashed)
        XCTAssertNotEqual(trashed, sample, "the file turned is the file trashed")
        let record = String(decoding: contents(Array((trash + "/info/").utf8) + gone + Array(".trashinfo".utf8)) ?? Data(),
                            as: UTF8.self)
        let escaped = path(gone).map { byte -> String in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                String(UnicodeScalar(byte))
            default: String(format: "%%%02X", byte)
            }
        }.joined()
        XCTAssertTrue(record.contains("\nPath=\(escaped)\n"), "Path= percent-encodes the bytes:\n\(record)")
    }

    func testUndoPutsATrashedFileBackUnderItsExactName() throws {
        for name in lookalikes + [newline] { try write(name) }
        let result = try run([folder.appendingPathComponent("photos").path],
                             script: "wait-idle\nkey M\nkey Delete\nwait 1\nwait-idle\nkey ctrl+z\nwait 1\nwait-idle\nkey q\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(names(in: folder.appendingPathComponent("photos").path), Set(lookalikes + [newline]))
        XCTAssertEqual(names(in: trash + "/files"), [], "nothing stays in the trash")
        XCTAssertEqual(names(in: trash + "/info"), [], "and no record")
    }

    func testAFileNamedOnTheCommandLineInBytesThatAreNotUTF8Opens() throws {
        for name in lookalikes { try write(name) }
        let scriptFile = folder.appendingPathComponent("script.txt")
        try "wait-idle\nkey m\nkey q\n".write(to: scriptFile, atomically: true, encoding: .utf8)
        // The shell hands the program the name's raw bytes, as a file manager does.
        let result = try ChildProcess.run("/bin/sh", [
            "-c", "exec \"$0\" \"$(printf '%s/x\\377.jpg' \"$1\")\" -o -0 --headless --no-watch --script \"$2\"",
            BuiltBinary.url(named: "tessera").path, folder.appendingPathComponent("photos").path, scriptFile.path,
        ], environment: ["SDL_VIDEODRIVER": "dummy", "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(split(result.output), [path(lookalikes[0])])
        XCTAssertFalse(result.stderr.contains("not found"), result.stderr)
    }
}
