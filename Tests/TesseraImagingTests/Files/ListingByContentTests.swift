import Foundation
import TesseraCore
import TesseraFiles
import TesseraTestBasics
import TesseraTestSupport
import XCTest
@testable import TesseraImaging

/// A folder's images are found by their content when their names say nothing of an image: no
/// extension, or one Tessera does not know. What is not an image, hidden files and the sidecars and notes
/// beside photos stay out, and every image listed this way decodes.
final class ListingByContentTests: XCTestCase {
    private var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    private let check: FolderLister.ContentCheck = { ImageFormat.sniff($0) != .unknown }

    func testImagesWithoutAKnownExtensionAreListedByTheirContent() throws {
        let jpeg = TestJPEG.encode(.bgra(FormatFixtureTools.quadrants()), quality: 90)
        let png = try PNGEncoder.encode(FormatFixtureTools.quadrants())
        try dir.write(jpeg, to: "a.jpg")
        try dir.write(png, to: "scan")
        try dir.write(jpeg, to: "photo.jpg_large")
        try dir.write(jpeg, to: "download.dat")
        try dir.write(png, to: ".hidden")
        try dir.write(Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8), to: "a.jpg.xmp")
        try dir.write(Data("a shopping list\n".utf8), to: "readme")
        try dir.write(Data(), to: "empty")
        try FileManager.default.createDirectory(atPath: dir.path("folder.png"), withIntermediateDirectories: false)

        let byName = try ImagePathCollector().collect([dir.url.path]).items.map(\.displayName)
        XCTAssertEqual(byName, ["a.jpg"])
        let byContent = try ImagePathCollector(contentCheck: check).collect([dir.url.path]).items.map(\.displayName)
        XCTAssertEqual(byContent, ["a.jpg", "download.dat", "photo.jpg_large", "scan"])

        let loader = ImageLoader(decoders: ImageDecoders.standard())
        for name in byContent {
            FormatFixtureTools.assertQuadrants(try loader.load(path: dir.path(name), fitting: nil), tolerance: 12, name)
        }
    }

    /// The files one listing reads are counted over all its folders: a tree of files of other kinds is
    /// listed without opening them all.
    func testAListingReadsAtMostItsLimitOfFiles() throws {
        for index in 0..<ImagePathCollector.contentCheckLimit {
            try dir.write(Data("note \(index)\n".utf8), to: "note\(index)")
        }
        try FileManager.default.createDirectory(atPath: dir.path("sub"), withIntermediateDirectories: false)
        try dir.write(try PNGEncoder.encode(FormatFixtureTools.quadrants()), to: "sub/scan")
        try dir.write(try PNGEncoder.encode(FormatFixtureTools.quadrants()), to: "sub/named.png")
        let names = try ImagePathCollector(recursive: true, contentCheck: check).collect([dir.url.path]).items.map(\.displayName)
        XCTAssertEqual(names, ["named.png"], "the notes used up the listing's reads")
    }

    /// The strip's own listing thread passes the check on to the collector.
    func testTheStripsListingLooksAtContent() throws {
        try dir.write(try PNGEncoder.encode(FormatFixtureTools.quadrants()), to: "IMG_0001")
        let listing = ItemListing(paths: [dir.url.path], recursive: false, contentCheck: check)
        XCTAssertEqual(try listing.wait().collected.items.map(\.displayName), ["IMG_0001"])
    }
}
