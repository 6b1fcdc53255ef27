import TesseraDesktop
import TesseraFiles
import TesseraImaging
import XCTest

/// The desktop entry offers Tessera for exactly the image types it opens.
final class DesktopEntryTests: XCTestCase {
    func testEveryListedExtensionHasAMIMEType() {
        XCTAssertEqual(ImageMIMETypes.extensionsWithoutType, [], "extensions the folder lister takes but the desktop entry does not offer")
    }

    func testTheEntryOffersTheTypesOfTheListedFormats() throws {
        let text = DesktopEntry.text()
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
        let offered = line.dropFirst("MimeType=".count).split(separator: ";").map(String.init)
        XCTAssertEqual(offered, ImageMIMETypes.opened)
        for type in ["image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp", "image/tiff"] {
            XCTAssertTrue(offered.contains(type), type)
        }
        XCTAssertTrue(text.hasSuffix(";\n"), "the list ends with a semicolon and the file with a newline")
    }

    func testTheEntryLaunchesTheViewerOnTheChosenFiles() {
        let lines = Set(DesktopEntry.text().split(separator: "\n").map(String.init))
        for expected in ["[Desktop Entry]", "Type=Application", "Name=Tessera", "GenericName=Image Viewer",
                         "Exec=tessera %F", "Icon=tessera", "Terminal=false", "Categories=Graphics;Viewer;"] {
            XCTAssertTrue(lines.contains(expected), expected)
        }
    }
}
