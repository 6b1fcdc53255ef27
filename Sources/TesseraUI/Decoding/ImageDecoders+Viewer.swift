import TesseraImaging

extension ImageDecoders {
    /// Every decoder the viewer uses: TesseraImaging's, one per format, none of which needs SDL.
    package static var viewer: [any ImageDecoding] { standard() }
}
