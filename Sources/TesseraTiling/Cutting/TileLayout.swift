import Foundation
import TesseraCore

/// Where a cut's files go and what they are called, for both layouts:
///
/// - `.dzi`: `NAME.dzi` plus `NAME_files/LEVEL/COL_ROW.jpeg` (or `.png`), as `vips dzsave` writes them.
/// - `.flat`: the Core Animation book's TileCutter names, `NAME_CC_RR.jpg` (column then row, `%02d`),
///   full resolution only, straight into the output folder.
/// - `.iiif3`, `.iiif2`: a static (level 0) IIIF Image API tree, `NAME/info.json` and each tile under the
///   request that names it, `NAME/X,Y,W,H/SW,SH/0/default.jpg` (`SW,` for version 2): the region in
///   full-resolution pixels, the size it is shown at. The levels run from the full resolution down to the
///   first that fits one tile, as `vips dzsave --layout iiif3` writes them.
///
/// Paths are relative to a root folder so the same layout names files in the temporary folder while the
/// cut runs and at the destination once it is committed.
struct TileLayout: Sendable {
    let kind: TileLayoutKind
    let name: String
    let format: TileFormat
    let geometry: DeepZoomGeometry
    /// The IIIF base URI (`info.json`'s id is it, a slash and the name).
    let iiifID: String
    /// IIIF tiles not written because a coarser level's tile has the same path: a region at the image's
    /// edge can recur one level down at the same size (version 2 names sizes by their width alone, and a
    /// one-pixel corner is one pixel at every level). The coarsest keeps the name, as vips's does.
    let superseded: Set<TileID>

    init(kind: TileLayoutKind, name: String, format: TileFormat, geometry: DeepZoomGeometry,
         iiifID: String = "https://example.com/iiif") {
        self.kind = kind
        self.name = name
        self.format = format
        self.geometry = geometry
        self.iiifID = iiifID
        superseded = kind.isIIIF ? Self.supersededTiles(IIIFTree(geometry: geometry, version: kind == .iiif2 ? 2 : 3)) : []
    }

    /// The tiles of `tree` whose path a coarser level's tile has already.
    private static func supersededTiles(_ tree: IIIFTree) -> Set<TileID> {
        let geometry = tree.geometry
        var named = Set<String>(), superseded = Set<TileID>()
        for level in tree.coarsestLevel...geometry.maxLevel {
            let size = geometry.levelSize(level)
            for tile in geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: size.width, height: size.height)) {
                if !named.insert(tree.path(of: tile, extension: "")).inserted { superseded.insert(tile) }
            }
        }
        return superseded
    }

    /// Whether the cut writes `tile` (it does all but the superseded IIIF ones).
    func writes(_ tile: TileID) -> Bool { !superseded.contains(tile) }

    /// The levels written: all of them for Deep Zoom, the full resolution only for flat tiles, for IIIF
    /// those down to the first that fits one tile.
    var levels: ClosedRange<Int> {
        switch kind {
        case .dzi: 0...geometry.maxLevel
        case .flat: geometry.maxLevel...geometry.maxLevel
        case .iiif3, .iiif2: IIIFTree.coarsestLevel(of: geometry)...geometry.maxLevel
        }
    }

    var tileCount: Int { levels.reduce(0) { $0 + geometry.tileCount($1) } - superseded.count }

    /// The file extension of tiles: vips's default suffixes (`.jpeg`, `.png`) for Deep Zoom, and the
    /// book's `.jpg` for flat JPEG tiles.
    var tileExtension: String {
        switch (kind, format) {
        case (.flat, .jpeg), (.iiif3, .jpeg), (.iiif2, .jpeg): "jpg"
        case (_, .jpeg): "jpeg"
        case (_, .png): "png"
        }
    }

    /// `NAME.dzi` for Deep Zoom, `NAME/info.json` for IIIF.
    var descriptorName: String { kind.isIIIF ? "\(name)/info.json" : "\(name).dzi" }

    /// `NAME_files` for Deep Zoom, `NAME` for IIIF.
    var tilesFolderName: String { kind.isIIIF ? name : "\(name)_files" }

    /// The sub-folders to create under the root before tiles are written, shallowest first.
    var folders: [String] {
        switch kind {
        case .dzi: return [tilesFolderName] + levels.map { "\(tilesFolderName)/\($0)" }
        case .flat: return []
        case .iiif3, .iiif2:
            // Each tile's request is a folder; a region at an image's edge can recur at a coarser level
            // (at another size), so each folder is listed once.
            var folders = [tilesFolderName]
            var listed = Set(folders)
            let tree = tree
            for level in levels {
                let size = geometry.levelSize(level)
                for tile in geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: size.width, height: size.height)) {
                    let request = tree.request(of: tile)
                    for folder in ["\(name)/\(request.region)", "\(name)/\(request.region)/\(request.size)",
                                   "\(name)/\(request.region)/\(request.size)/0"] where listed.insert(folder).inserted {
                        folders.append(folder)
                    }
                }
            }
            return folders
        }
    }

    /// A tile's path relative to the root.
    func relativePath(of tile: TileID) -> String {
        switch kind {
        case .dzi: "\(tilesFolderName)/\(tile.level)/\(tile.column)_\(tile.row).\(tileExtension)"
        case .flat: "\(name)_\(Self.twoDigits(tile.column))_\(Self.twoDigits(tile.row)).\(tileExtension)"
        case .iiif3, .iiif2: "\(name)/\(tree.path(of: tile, extension: tileExtension))"
        }
    }

    /// The IIIF tree's arithmetic for this geometry.
    var tree: IIIFTree { IIIFTree(geometry: geometry, version: kind == .iiif2 ? 2 : 3) }

    /// What the layout writes beside the tiles: the `.dzi` descriptor, or the IIIF `info.json`.
    var descriptor: String {
        kind.isIIIF ? tree.infoJSON(id: iiifID + "/" + name, format: tileExtension) : descriptorXML
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
