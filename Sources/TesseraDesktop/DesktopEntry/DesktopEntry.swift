import TesseraFiles
import TesseraImaging

/// The freedesktop desktop entry (`share/applications/tessera.desktop`) that puts Tessera in the
/// application menu and under "Open With" for every image type it opens.
package enum DesktopEntry {
    /// The entry for a binary named `executable` on PATH, offered for `mimeTypes`.
    package static func text(executable: String = "tessera",
                            mimeTypes: [String] = ImageMIMETypes.opened) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=Tessera
        GenericName=Image Viewer
        Comment=Browse images in a scrolling strip that loads in the background
        Exec=\(executable) %F
        TryExec=\(executable)
        Icon=tessera
        Terminal=false
        Categories=Graphics;Viewer;
        Keywords=image;photo;picture;viewer;gallery;
        MimeType=\(mimeTypes.map { $0 + ";" }.joined())

        """
    }
}
