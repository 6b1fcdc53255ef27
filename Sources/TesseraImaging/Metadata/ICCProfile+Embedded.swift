extension ICCProfile {
    /// The ICC profile embedded in the image file `bytes`, found by the same library call its decoder
    /// makes, so the information overlay names exactly the profile the colour stage converts with. Nil
    /// when there is none, or the library finds it damaged.
    ///
    /// - JPEG: libjpeg puts the APP2 "ICC_PROFILE" chunks back together by their sequence numbers
    ///   (`JPEGColour`); a missing, repeated or out-of-range chunk gives no profile.
    /// - PNG: libpng inflates the `iCCP` chunk and checks it (its checksum, the profile's header, a
    ///   colour space that fits the image: `PNGRowReader.colourProfile`).
    /// - WebP: libwebp's demuxer gives the `ICCP` chunk of a file whose VP8X header says it has one
    ///   (`WebPDecoder.iccProfile`).
    /// - TIFF, GIF and BMP: none is read.
    static func embedded(in bytes: UnsafeRawBufferPointer, format: ImageFormat) -> ICCProfile? {
        let profile: [UInt8]?
        switch format {
        case .jpeg: profile = JPEGColour.read(bytes)?.profile
        case .png: profile = (try? PNGRowReader(bytes: bytes))?.colourProfile
        case .webp: profile = WebPDecoder.iccProfile(bytes)
        case .tiff, .gif, .bmp, .unknown: profile = nil
        }
        return profile.map(ICCProfile.init)
    }
}
