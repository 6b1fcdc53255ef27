import Foundation
import XCTest
@testable import TesseraImaging

final class ImagePathCollectorTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub/deeper"), withIntermediateDirectories: true)
        for name in ["img10.jpg", "img2.png", "img1.webp", "notes.txt", ".hidden.jpg", "sub/a.jpg", "sub/deeper/b.gif"] {
            try Data([1]).write(to: folder.appendingPathComponent(name))
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func testFoldersListImagesInNaturalOrder() throws {
        let names = try ImagePathCollector().collect([folder.path]).items.map(\.displayName)
        XCTAssertEqual(names, ["img1.webp", "img2.png", "img10.jpg"])
    }

    func testRecursiveIncludesSubfoldersAfterTheFoldersOwnImages() throws {
        let names = try ImagePathCollector(recursive: true).collect([folder.path]).items.map(\.displayName)
        XCTAssertEqual(names, ["img1.webp", "img2.png", "img10.jpg", "a.jpg", "b.gif"])
    }

    func testFilesNamedOnTheCommandLineAreTakenWhateverTheirNameAndOnlyOnce() throws {
        let notes = folder.appendingPathComponent("notes.txt").path
        let items = try ImagePathCollector().collect([notes, folder.path, notes]).items
        XCTAssertEqual(items.map(\.displayName), ["notes.txt", "img1.webp", "img2.png", "img10.jpg"])
    }

    func testMissingPathAndEmptySetAreErrors() {
        XCTAssertThrowsError(try ImagePathCollector().collect(["/no/such/path"])) { error in
            XCTAssertEqual(error as? ImagePathCollector.CollectError, .missing("/no/such/path"))
        }
        let empty = folder.appendingPathComponent("sub/deeper").path
        try? FileManager.default.removeItem(atPath: empty + "/b.gif")
        XCTAssertThrowsError(try ImagePathCollector().collect([empty]))
    }

    func testAListIsOnePathALineOrWithNulSeparationTakenAsItIs() {
        XCTAssertEqual(ImagePathCollector.parseList("a.jpg\n  b c.png \n\n# a note\nhttps://h/x.jpg\n"),
                       ["a.jpg", "b c.png", "https://h/x.jpg"])
        XCTAssertEqual(ImagePathCollector.parseList("line\nbreak.jpg\0 spaced.png\0\0#hash.jpg\0", nulSeparated: true),
                       ["line\nbreak.jpg", " spaced.png", "#hash.jpg"], "find -print0 names are kept whole")
    }
}
