/// The items a strip is made from, as they were listed: each one a prefix (its folder's path and a
/// slash, stored once however many names the folder holds) and a name (its bytes, in one `NameList`). Four
/// bytes of prefix index and four of name end per item, beside the name's own bytes: a folder of a
/// million photos is held in some twenty-odd megabytes instead of a `String` and a struct per photo.
///
/// An item's *id* is its place in the table; ids never change and items only come at the end, so an id
/// names one item for the whole run however the strip sorts, and an item that goes and comes back gets
/// a new one. A path given whole (a file named on the command line) keeps its spelling: its prefix is
/// everything up to its last slash. An http(s) URL has an empty prefix of its own, marked remote.
package struct ItemTable: Sendable {
    /// The text before each name: a folder's path and a slash, or what comes before a path's last slash.
    package private(set) var prefixes: [String] = []
    private var remoteFlags: [Bool] = []
    private var prefixIDs: [PrefixKey: UInt32] = [:]
    package private(set) var names = NameList()
    private var prefixOfItem: [UInt32] = []
    /// What the overlay calls items whose name is not a file's name (a URL's last path component).
    private var displayNames: [UInt32: String] = [:]

    /// Compared by bytes: two folders whose names differ only in Unicode normalisation are two prefixes.
    private struct PrefixKey: Hashable {
        var text: PathText.Key
        var isRemote: Bool

        init(text: String, isRemote: Bool) {
            self.text = PathText.Key(text)
            self.isRemote = isRemote
        }
    }

    package init() {}

    /// A table of whole paths, in this order (URLs as remote items named by `displayName`).
    package init(_ items: [CarouselItem]) {
        for item in items {
            if item.isRemote {
                appendRemote(item.path, displayName: item.displayName)
            } else {
                appendPath(item.path)
            }
        }
    }

    package var count: Int { names.count }
    package var isEmpty: Bool { names.isEmpty }

    // MARK: Adding

    /// The prefix of the names listed in `folder`: the folder without trailing slashes and one slash
    /// ("/" stays "/"), as `path(of:)` joins them; folders are stored once.
    package mutating func prefix(forFolder folder: String) -> UInt32 {
        prefix(Self.prefixText(forFolder: folder), isRemote: false)
    }

    /// The prefix of `folder` (as `prefix(forFolder:)` makes it), if any item has it.
    package func existingPrefix(forFolder folder: String) -> UInt32? {
        prefixIDs[PrefixKey(text: Self.prefixText(forFolder: folder), isRemote: false)]
    }

    private static func prefixText(forFolder folder: String) -> String {
        var text = Substring(folder)
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text.hasSuffix("/") ? String(text) : text + "/"
    }

    /// Makes room for `count` more items whose names take `bytes` bytes in all.
    package mutating func reserveCapacity(items count: Int, bytes: Int) {
        names.reserveCapacity(names: count, bytes: bytes)
        NameList.grow(&prefixOfItem, by: count)
    }

    /// Appends `name` (its bytes) under `prefix`; returns its id.
    @discardableResult
    package mutating func append(_ name: UnsafeBufferPointer<UInt8>, prefix: UInt32) -> UInt32 {
        names.append(name)
        prefixOfItem.append(prefix)
        return UInt32(prefixOfItem.count - 1)
    }

    /// Appends a path given whole; returns its id.
    @discardableResult
    package mutating func appendPath(_ path: String) -> UInt32 {
        PathText.withBytes(path) { bytes in
            let slash = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
            let prefix = prefix(PathText.text(of: UnsafeBufferPointer(rebasing: bytes[..<slash])), isRemote: false)
            return append(UnsafeBufferPointer(rebasing: bytes[slash...]), prefix: prefix)
        }
    }

    /// Appends an http(s) URL, shown as `displayName`; returns its id.
    @discardableResult
    package mutating func appendRemote(_ url: String, displayName: String) -> UInt32 {
        let prefix = prefix("", isRemote: true)
        let id = PathText.withBytes(url) { append($0, prefix: prefix) }
        displayNames[id] = displayName
        return id
    }

    /// The items whose ids `keep` picks, in order, with new ids (a path listed twice kept once).
    package func filtered(_ keep: (UInt32) -> Bool) -> ItemTable {
        var result = ItemTable()
        for id in 0..<UInt32(count) where keep(id) {
            let prefix = result.prefix(prefixes[Int(prefixOfItem[Int(id)])], isRemote: isRemote(id))
            let newID = names.withName(Int(id)) { result.append($0, prefix: prefix) }
            if let name = displayNames[id] { result.displayNames[newID] = name }
        }
        return result
    }

    private mutating func prefix(_ text: String, isRemote: Bool) -> UInt32 {
        let key = PrefixKey(text: text, isRemote: isRemote)
        if let id = prefixIDs[key] { return id }
        let id = UInt32(prefixes.count)
        prefixes.append(text)
        remoteFlags.append(isRemote)
        prefixIDs[key] = id
        return id
    }

    // MARK: Reading

    package func prefix(of id: UInt32) -> UInt32 { prefixOfItem[Int(id)] }

    package func isRemote(_ id: UInt32) -> Bool { remoteFlags[Int(prefixOfItem[Int(id)])] }

    /// Whether any item is an http(s) URL.
    package var hasRemoteItems: Bool { !displayNames.isEmpty }

    /// The item's path (or URL), as listed.
    package func path(of id: UInt32) -> String {
        prefixes[Int(prefixOfItem[Int(id)])] + names[Int(id)]
    }

    /// The item's name as drawn: its file name (invalid bytes shown as U+FFFD), or what a URL is shown as.
    package func name(of id: UInt32) -> String {
        displayNames[id] ?? PathText.displayName(names[Int(id)])
    }

    /// The item as a value, with what the strip knows of it.
    package func item(_ id: UInt32, version: FileVersion?, sessionOrientation: Int) -> CarouselItem {
        var item = CarouselItem(path: path(of: id), displayName: name(of: id), version: version)
        item.sessionOrientation = sessionOrientation
        return item
    }

    /// Where `path` (its bytes, as `PathText.bytes(of:)` gives them) would be in this table: the id of its
    /// prefix and where its name starts in its bytes; nil when no item has that prefix.
    package func locate(_ path: UnsafeBufferPointer<UInt8>) -> (prefix: UInt32, nameStart: Int)? {
        if Self.isRemote(path) {
            return prefixIDs[PrefixKey(text: "", isRemote: true)].map { ($0, 0) }
        }
        let slash = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        let text = PathText.text(of: UnsafeBufferPointer(rebasing: path[..<slash]))
        return prefixIDs[PrefixKey(text: text, isRemote: false)].map { ($0, slash) }
    }

    /// Whether item `id` has `prefix` and `name`.
    package func has(_ id: UInt32, prefix: UInt32, name: UnsafeBufferPointer<UInt8>) -> Bool {
        prefixOfItem[Int(id)] == prefix && names.withName(Int(id)) { $0.elementsEqual(name) }
    }

    /// Whether items `a` and `b` have one path.
    package func haveSamePath(_ a: UInt32, _ b: UInt32) -> Bool {
        names.withName(Int(b)) { has(a, prefix: prefixOfItem[Int(b)], name: $0) }
    }

    private static func isRemote(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        func lowered(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
        func starts(with scheme: String) -> Bool {
            let scheme = Array(scheme.utf8)
            return path.count >= scheme.count && zip(path, scheme).allSatisfy { lowered($0) == $1 }
        }
        return starts(with: "http://") || starts(with: "https://")
    }
}
