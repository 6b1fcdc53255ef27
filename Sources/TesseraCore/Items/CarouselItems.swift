/// The strip's items in the order shown, each made as a `CarouselItem` value when asked for, from the
/// compact `ItemTable`: what `CarouselModel.items` hands out. A snapshot: the strip changing afterwards
/// does not change it (its storage is shared until then, so taking one costs nothing).
package struct CarouselItems: RandomAccessCollection, Sendable {
    package internal(set) var table: ItemTable
    /// The ids shown, in order.
    package internal(set) var ids: [UInt32]
    /// What is known of items' files, by id (most items: nothing until the watcher or a download says).
    var versions: [UInt32: FileVersion]
    /// Turns kept for the session, by id (most items: none).
    var orientations: [UInt32: UInt8]

    init(table: ItemTable, ids: [UInt32], versions: [UInt32: FileVersion], orientations: [UInt32: UInt8]) {
        self.table = table
        self.ids = ids
        self.versions = versions
        self.orientations = orientations
    }

    /// The items of `table`, as listed, with nothing known of their files.
    package init(table: ItemTable) {
        self.init(table: table, ids: Array(0..<UInt32(table.count)), versions: [:], orientations: [:])
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { ids.count }

    package subscript(index: Int) -> CarouselItem {
        let id = ids[index]
        return table.item(id, version: versions[id], sessionOrientation: orientations[id].map(Int.init) ?? 1)
    }

    /// The path of the item at `index`, without the rest of its value.
    package func path(at index: Int) -> String { table.path(of: ids[index]) }
}
