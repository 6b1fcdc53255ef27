import Foundation
import TesseraTestSupport
import XCTest
@testable import TesseraFiles
@testable import TesseraImaging

/// The viewer tells a plain pyramidal TIFF from a possible whole-slide image by the first directory's
/// tags, wherever the directory lies, so that only a possible slide starts a slide's helper.
final class TIFFSlideHintTests: XCTestCase {
    private func hint(_ layout: TIFFFixtures.Layout, in folder: TemporaryDirectory, name: String) throws -> Bool {
        let path = folder.url.path + "/" + name
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: TestPixels.gradient(width: 512, height: 384), downTo: 128),
                               to: path, layout: layout)
        return TIFFSlideHint.mayBeSlide(try ImageFile(path: path))
    }

    func testAPlainPyramidIsNoSlideAndSlideMarksMayBe() throws {
        let folder = try TemporaryDirectory()
        XCTAssertFalse(try hint(.init(tileSize: 256), in: folder, name: "plain.tif"))
        XCTAssertFalse(try hint(.init(bigTIFF: true, tileSize: 256), in: folder, name: "plain-big.tif"))
        XCTAssertFalse(try hint(.init(tileSize: 256, description: "made by a scanner"), in: folder, name: "described.tif"))
        XCTAssertTrue(try hint(.init(tileSize: 256, description: "Aperio Image Library v11.2.1\r\n512x384 JPEG/RGB Q=95"),
                               in: folder, name: "slide.svs"))
        XCTAssertTrue(try hint(.init(bigTIFF: true, tileSize: 256, description: "Aperio Image Library"), in: folder,
                               name: "slide-big.svs"))
        XCTAssertTrue(try hint(.init(tileSize: 256, description: "<?xml version=\"1.0\"?><scn xmlns=\"http://www.leica-microsystems.com/scn/2010/10/01\"/>"),
                               in: folder, name: "leica.scn"))
    }

    func testWhatCannotBeReadMayBeASlide() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/cut.tif"
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: TestPixels.gradient(width: 512, height: 384), downTo: 128),
                               to: path, layout: .init(tileSize: 256))
        // The header alone: the directory it points to is not there.
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(16).write(to: URL(fileURLWithPath: path))
        XCTAssertTrue(TIFFSlideHint.mayBeSlide(try ImageFile(path: path)))
        let text = try folder.write(Data("not a TIFF at all".utf8), to: "text.tif")
        XCTAssertTrue(TIFFSlideHint.mayBeSlide(try ImageFile(path: text)))
    }
}
