import TesseraCore
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

final class DeepZoomDescriptorTests: XCTestCase {
    func testReadsWhatVipsWrites() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Image xmlns="http://schemas.microsoft.com/deepzoom/2008"
              Format="jpg"
              Overlap="0"
              TileSize="256"
              >
              <Size\u{20}
                Height="11520"
                Width="20480"
              />
            </Image>
            """
        XCTAssertEqual(try DeepZoomDescriptor.parse(text),
                       DeepZoomDescriptor(width: 20480, height: 11520, tileSize: 256, overlap: 0, format: "jpg"))
    }

    func testRoundTripsItsOwnTextAndToleratesQuotesAndPrefixes() throws {
        let descriptor = DeepZoomDescriptor(width: 1000, height: 333, tileSize: 254, overlap: 1, format: "png")
        XCTAssertEqual(try DeepZoomDescriptor.parse(descriptor.xml), descriptor)
        let odd = "<dz:Image TileSize='510' Overlap = '2' Format='JPEG'><Size Width='7' Height='9'></Size></dz:Image>"
        XCTAssertThrowsError(try DeepZoomDescriptor.parse(odd), "no <Image> element (it is dz:Image)")
        let quoted = "<Image TileSize='510' Overlap = '2' Format='JPEG'><Size Width='7' Height='9'></Size></Image>"
        XCTAssertEqual(try DeepZoomDescriptor.parse(quoted),
                       DeepZoomDescriptor(width: 7, height: 9, tileSize: 510, overlap: 2, format: "jpeg"))
    }

    func testRefusesWhatMakesNoSense() {
        let cases = [
            "",
            "<Image TileSize=\"256\" Format=\"jpg\"><Size Width=\"100\" Heig",
            "<Image TileSize=\"256\"><Size Width=\"100\" Height=\"100\"/>",
            "<Image TileSize=\"0\"><Size Width=\"100\" Height=\"100\"/></Image>",
            "<Image TileSize=\"256\"><Size Width=\"-5\" Height=\"100\"/></Image>",
            "<Image TileSize=\"256\"><Size Width=\"1e9\" Height=\"100\"/></Image>",
            "<Image TileSize=\"256\" Format=\"../x\"><Size Width=\"10\" Height=\"100\"/></Image>",
            "<Image TileSize=256><Size Width=\"10\" Height=\"100\"/></Image>",
        ]
        for text in cases { XCTAssertThrowsError(try DeepZoomDescriptor.parse(text), text) }
    }

    func testTilesFolderSitsBesideTheDescriptor() {
        XCTAssertEqual(DeepZoomDescriptor.tilesFolder(forDescriptorAt: "/a/b/giant.dzi"), "/a/b/giant_files")
    }
}
