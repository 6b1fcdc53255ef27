import Foundation
import TesseraTestSupport
import XCTest

/// Files of the new formats are listed from a folder, and one that cannot be decoded is an error cell
/// with its reason, never a hole: what a user with a phone's, a browser's and a camera's files sees.
final class FormatErrorCellTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-formats-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func testEveryListedFileIsAPictureOrAnErrorCellWithItsReason() throws {
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: SampleImages.url("img1-baseline.jpg"), to: images.appendingPathComponent("a.jpg"))
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"30\"><rect width=\"40\" height=\"30\" fill=\"red\"/></svg>"
        try Data(svg.utf8).write(to: images.appendingPathComponent("b.svg"))
        // A HEIC whose boxes stop after the file type box.
        var heic = Data([0, 0, 0, 24]) + Data("ftypheic".utf8) + Data([0, 0, 0, 0]) + Data("mif1heic".utf8)
        heic += Data(repeating: 0x55, count: 40)
        try heic.write(to: images.appendingPathComponent("c.HEIC"))
        try Data([0xFF, 0x0A] + [UInt8](repeating: 0xFF, count: 20)).write(to: images.appendingPathComponent("d.jxl"))
        try Data(svg.utf8.prefix(60)).write(to: images.appendingPathComponent("e.svg"))
        try Data("not a raw file at all, just text".utf8).write(to: images.appendingPathComponent("f.nef"))

        let report = folder.appendingPathComponent("run.json")
        let run = try ChildProcess.tessera([images.path, "--headless", "--report", report.path],
                                           environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        XCTAssertEqual(run.status, 0, run.stderr)

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        XCTAssertEqual(json["items"] as? Int, 6, "every file with an image's extension is listed")
        let errors = try XCTUnwrap(json["errors"] as? [[String: String]])
        var reasons: [String: String] = [:]
        for error in errors { reasons[(error["item"]! as NSString).lastPathComponent] = error["reason"] }
        XCTAssertEqual(Set(reasons.keys), ["c.HEIC", "d.jxl", "e.svg", "f.nef"], "\(errors)")
        XCTAssertEqual(reasons["e.svg"], "Truncated file")
        XCTAssertEqual(reasons["f.nef"], "Not an image")
        for name in ["c.HEIC", "d.jxl"] { XCTAssertFalse(reasons[name]?.isEmpty ?? true, name) }
    }
}
