/// Why a value could not be loaded: a short line for the user (an error cell's caption) and the full
/// reason for the log. The strip's images and the tiled view's tiles fail the same way.
package struct LoadFailure: Error, Equatable, Sendable {
    package let shortText: String
    package let detail: String

    package init(shortText: String, detail: String) {
        self.shortText = shortText
        self.detail = detail
    }

    /// `error` itself when it is a `LoadFailure`; otherwise a generic caption over its description.
    package init(_ error: any Error) {
        if let failure = error as? LoadFailure {
            self = failure
        } else {
            self.init(shortText: "Cannot load", detail: String(describing: error))
        }
    }
}
