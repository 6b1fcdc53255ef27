/// The MIME types of the images Tessera opens, for the desktop entry's `MimeType=` (what makes a file
/// manager offer Tessera under "Open With"). Derived from the extensions the folder lister takes, so a
/// format is offered exactly when its files are listed.
package enum ImageMIMETypes {
    /// Each image extension's types as shared-mime-info names them, the canonical name first, then an alias
    /// that other desktops' databases use as the canonical one (`image/heic`).
    package static let byExtension: [String: [String]] = [
        "jpg": ["image/jpeg"], "jpeg": ["image/jpeg"], "jpe": ["image/jpeg"], "jfif": ["image/jpeg"],
        "png": ["image/png"], "apng": ["image/apng", "image/vnd.mozilla.apng"],
        "webp": ["image/webp"],
        "gif": ["image/gif"],
        "bmp": ["image/bmp"],
        "tif": ["image/tiff"], "tiff": ["image/tiff"],
        "heic": ["image/heif", "image/heic"], "heif": ["image/heif", "image/heic"],
        "avif": ["image/avif"],
        "jxl": ["image/jxl"],
        "svg": ["image/svg+xml"], "svgz": ["image/svg+xml-compressed"],
        "dng": ["image/x-adobe-dng"], "cr2": ["image/x-canon-cr2"], "cr3": ["image/x-canon-cr3"],
        "nef": ["image/x-nikon-nef"], "arw": ["image/x-sony-arw"], "raf": ["image/x-fuji-raf"],
        "orf": ["image/x-olympus-orf"], "rw2": ["image/x-panasonic-rw2"],
    ]

    /// The listed extensions that have no type in `byExtension` (a new format's extension without its
    /// MIME type yet); empty when every listed format is offered.
    package static var extensionsWithoutType: [String] {
        FolderLister.imageExtensions.filter { byExtension[$0] == nil }.sorted()
    }

    /// The types of every extension the folder lister takes, each once, sorted.
    package static var opened: [String] {
        Set(FolderLister.imageExtensions.flatMap { byExtension[$0] ?? [] }).sorted()
    }
}
