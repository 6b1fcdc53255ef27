/// What happened on disk to a file the strip shows, or would show.
package enum ItemChange: Equatable, Sendable {
    /// The file exists with this content: new (it joins the strip in sort order) or changed (it reloads).
    case present(path: String, version: FileVersion)
    /// The file is gone: it leaves the strip.
    case removed(path: String)

    package var path: String {
        switch self {
        case .present(let path, _), .removed(let path): return path
        }
    }
}
