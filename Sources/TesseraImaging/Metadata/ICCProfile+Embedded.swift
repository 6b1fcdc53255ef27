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
    /// - TIFF: libtiff's tag 34675 of the first directory (`TIFFDecoder.iccProfile`), RGB, grey or the CMYK
    ///   profile CMYK pixels are converted with.
    /// - HEIF and AVIF: libheif's `prof` or `rICC` colour box of the primary image
    ///   (`HEIFDecoder.iccProfile`); colours named by an `nclx` box have no profile to name.
    /// - JPEG XL: the profile libjxl gives for the pixels as decoded (`JXLDecoder.iccProfile`), one it
    ///   makes for an enumerated colour space such as Display P3; none for sRGB, nor for a lossy image
    ///   that embeds a profile, which libjxl decodes to sRGB.
    /// - GIF, BMP, SVG and RAW: none is read.
    static func embedded(in bytes: UnsafeRawBufferPointer, format: ImageFormat) -> ICCProfile? {
        let profile: [UInt8]?
        switch format {
        case .jpeg: profile = JPEGColour.read(bytes)?.profile
        case .png: profile = (try? PNGRowReader(bytes: bytes))?.colourProfile
        case .webp: profile = WebPDecoder.iccProfile(bytes)
        case .tiff: profile = TIFFDecoder.iccProfile(bytes)
        case .heif, .avif: profile = HEIFDecoder.iccProfile(bytes)
        case .jxl: profile = JXLDecoder.iccProfile(bytes)
        case .gif, .bmp, .svg, .raw, .unknown: profile = nil
        }
        return profile.map(ICCProfile.init)
    }
}
