import TesseraCore
import TesseraFiles

extension ImageFile {
    /// The format its first bytes say.
    package func sniff() throws(Failure) -> ImageFormat {
        ImageFormat.sniff(try head(ImageFormat.sniffLength))
    }
}
