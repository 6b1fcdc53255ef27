import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// One tiny image of each format a decoder library reads (camera RAW aside: libraw reads a buffer and
/// loads nothing), which a decode helper decodes once before it locks itself down: libraries load parts
/// of themselves on first use (gdk-pixbuf its BMP module, librsvg fontconfig's configuration and fonts,
/// libheif its codec plugins), and after the lock-down opening a file kills the helper. The SVG has text
/// so that fontconfig is loaded. 8x8 orange (the GIF 1x1); made with cjpeg, cwebp, heif-enc, cjxl and by
/// hand (PNG, TIFF, GIF, BMP).
package enum WarmUpImages {
    static let all: [(name: String, format: ImageFormat, bytes: Data)] = [
        ("jpeg", .jpeg, Data(base64Encoded: """
            /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYn
            KSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo
            KCgoKCgoKCj/wAARCAAIAAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF
            BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW
            V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi
            4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC
            AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVm
            Z2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq
            8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDfooor8eP1U//Z
            """, options: .ignoreUnknownCharacters)!),
        ("png", .png, Data(base64Encoded: """
            iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP438CAFWEXHbQSAKmzX8FBxi1QAAAAAElFTkSuQmCC
            """, options: .ignoreUnknownCharacters)!),
        ("webp", .webp, Data(base64Encoded: """
            UklGRjwAAABXRUJQVlA4IDAAAAAQAgCdASoIAAgAAgA0JaACdLoB+AH4AAPIAP7nMP/7WgODVf6dn/1v+Y4c/AAAAAA=
            """, options: .ignoreUnknownCharacters)!),
        ("heic", .heif, Data(base64Encoded: """
            AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAa1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA
            AA5waXRtAAAAAAACAAAAEGlkYXQAAAAAAAgACAAAADhpbG9jAQAAAERAAAIAAQAAAAAAAAHRAAEAAAAAAAAAMwACAAEAAAAAAAAA
            AQAAAAAAAAAIAAAAOGlpbmYAAAAAAAIAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAAAADYaXBycAAA
            ALZpcGNvAAAAdmh2Y0MBA3AAAAAAAAAAAAAe8AD8/fj4AAAPAyAAAQAYQAEMAf//A3AAAAMAkAAAAwAAAwAeugJAIQABACpCAQED
            cAAAAwCQAAADAAADAB6gIIEFluqumubgQEDAgAAAAwCAAAADAIQiAAEABkQBwXPBiQAAABRpc3BlAAAAAAAAAEAAAABAAAAAFGlz
            cGUAAAAAAAAACAAAAAgAAAAQcGl4aQAAAAADCAgIAAAAGmlwbWEAAAAAAAAAAgABAoECAAICA4QAAAAaaXJlZgAAAAAAAAAOZGlt
            ZwACAAEAAQAAADttZGF0AAAALygBrxMhZGNA+BD3ZqHUXZf/Kc0/6g7HpzshHcDSIICbQEiTXVALFhCAh3alVtz4
            """, options: .ignoreUnknownCharacters)!),
        ("avif", .avif, Data(base64Encoded: """
            AAAAHGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZgAAAOptZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA
            AA5waXRtAAAAAAABAAAAImlsb2MAAAAAREAAAQABAAAAAAEOAAEAAAAAAAAAHgAAACNpaW5mAAAAAAABAAAAFWluZmUCAAAAAAEA
            AGF2MDEAAAAAamlwcnAAAABLaXBjbwAAABNjb2xybmNseAACAAIABoAAAAAMYXYxQ4EADAAAAAAUaXNwZQAAAAAAAAAIAAAACAAA
            ABBwaXhpAAAAAAMICAgAAAAXaXBtYQAAAAAAAAABAAEEgYIDhAAAACZtZGF0EgAKCBgIv2CBAQNCMhAYAAooooQAALAFQHv6LhIR
            """, options: .ignoreUnknownCharacters)!),
        ("jxl", .jxl, Data(base64Encoded: """
            /wpBQEJxIQASiAIA2ABd5RIAABUqo4wbvJzr+fJDh8W0jesMbbVtYUmiyDg2SSdwSBKrwMYFmIEZGGDmouF2IFiVJAA=
            """, options: .ignoreUnknownCharacters)!),
        ("tiff", .tiff, Data(base64Encoded: """
            SUkqAAgAAAAJAAABAwABAAAACAAAAAEBAwABAAAACAAAAAIBAwADAAAAegAAAAMBAwABAAAAAQAAAAYBAwABAAAAAgAAABEBBAAB
            AAAAgAAAABUBAwABAAAAAwAAABYBAwABAAAACAAAABcBBAABAAAAwAAAAAAAAAAIAAgACAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/
            gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/
            gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/gAD/
            gAD/gAD/gAD/gAD/gAD/gAD/gAA=
            """, options: .ignoreUnknownCharacters)!),
        ("gif", .gif, Data(base64Encoded: """
            R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==
            """, options: .ignoreUnknownCharacters)!),
        ("bmp", .bmp, Data(base64Encoded: """
            Qk32AAAAAAAAADYAAAAoAAAACAAAAAgAAAABABgAAAAAAMAAAAATCwAAEwsAAAAAAAAAAAAAAID/AID/AID/AID/AID/AID/AID/
            AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/
            AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/AID/
            AID/AID/AID/AID/AID/AID/AID/
            """, options: .ignoreUnknownCharacters)!),
        ("svg", .svg, Data(base64Encoded: """
            PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSI4IiBoZWlnaHQ9IjgiPjxyZWN0IHdpZHRoPSI4
            IiBoZWlnaHQ9IjgiIGZpbGw9IiNmODAiLz48dGV4dCB4PSIwIiB5PSI3IiBmb250LXNpemU9IjYiIGZvbnQtZmFtaWx5PSJzYW5z
            LXNlcmlmIj5hPC90ZXh0Pjwvc3ZnPgo=
            """, options: .ignoreUnknownCharacters)!),
    ]

    /// The formats whose libraries a helper must warm up before it may read them.
    static let formats = Set(all.map(\.format))

    /// What the first helper warms up when the viewer opens one image of `format`: that format, and the
    /// photo and web formats whose libraries load nothing large (JPEG, PNG, WebP, GIF, TIFF). The rest
    /// (fontconfig for SVG, libheif's decoders, libjxl, gdk-pixbuf's module) cost several times the
    /// decode of a photo, and the first helper's warm-up is on the way to the first picture.
    package static func firstHelperFormats(opening format: ImageFormat) -> Set<ImageFormat> {
        [.jpeg, .png, .webp, .gif, .tiff, format]
    }
}
