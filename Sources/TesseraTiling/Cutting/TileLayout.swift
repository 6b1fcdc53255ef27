import Foundation
import TesseraCore

/// Where a cut's files go and what they are called, for both layouts:
///
/// - `.dzi`: `NAME.dzi` plus `NAME_files/LEVEL/COL_ROW.jpeg` (or `.png`), as `vips dzsave` writes them.
/// - `.flat`: the Core Animation book's TileCutter names, `NAME_CC_RR.jpg` (column then row, `%02d`),
///   full resolution only, straight into the output folder.
///
/// Paths are relative to a root folder so the same layout names files in the temporary folder while the
/// cut runs and at the destination once it is committed.
struct TileLayout: Sendable {
    let kind: TileLayoutKind
    let name: String
    let format: TileFormat
    let geometry: DeepZoomGeometry

    /// The levels written: all of them for Deep Zoom, the full resolution only for flat tiles.
    var levels: ClosedRange<Int> {
        kind == .dzi ? 0...geometry.maxLevel : geometry.maxLevel...geometry.maxLevel
    }

    var tileCount: Int { levels.reduce(0) { $0 + geometry.tileCount($1) } }

    /// The file extension of tiles: vips's default suffixes (`.jpeg`, `.png`) for Deep Zoom, and the
    /// book's `.jpg` for flat JPEG tiles.
    var tileExtension: String {
        switch (kind, format) {
        case (.flat, .jpeg): "jpg"
        case (_, .jpeg): "jpeg"
        case (_, .png): "png"
        }
    }

    /// `NAME.dzi` (Deep Zoom only).
    var descriptorName: String { "\(name).dzi" }

    /// `NAME_files` (Deep Zoom only).
    var tilesFolderName: String { "\(name)_files" }

    /// The sub-folders to create under the root before tiles are written, shallowest first.
    var folders: [String] {
        guard kind == .dzi else { return [] }
        return [tilesFolderName] + levels.map { "\(tilesFolderName)/\($0)" }
    }

    /// A tile's path relative to the root.
    func relativePath(of tile: TileID) -> String {
        switch kind {
        case .dzi: "\(tilesFolderName)/\(tile.level)/\(tile.column)_\(tile.row).\(tileExtension)"
        case .flat: "\(name)_\(Self.twoDigits(tile.column))_\(Self.twoDigits(tile.row)).\(tileExtension)"
        }
    }

    /// Whether `fileName` (in the output folder) is one of this layout's flat tiles: `NAME_<digits>_<digits>.ext`
    /// with at least two digits each. Used to find an earlier flat cut of the same name.
    func isFlatTileName(_ fileName: String) -> Bool {
        let prefix = "\(name)_", suffix = ".\(tileExtension)"
        guard fileName.hasPrefix(prefix), fileName.hasSuffix(suffix),
              fileName.count > prefix.count + suffix.count else { return false }
        let middle = fileName.dropFirst(prefix.count).dropLast(suffix.count)
        let parts = middle.split(separator: "_", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { $0.count >= 2 && $0.allSatisfy(\.isASCIIDigitCharacter) }
    }

    /// The `.dzi` descriptor, byte for byte the layout `vips dzsave` 8.14 writes.
    var descriptorXML: String {
        DeepZoomDescriptor(width: geometry.width, height: geometry.height, tileSize: geometry.tileSize,
                           overlap: geometry.overlap, format: format == .jpeg ? "jpeg" : "png").xml
    }

    /// `%02d`: at least two digits.
    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
