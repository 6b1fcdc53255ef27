import Foundation
import TesseraCore

/// An IIIF Presentation document, API 3 or 2, as far as a strip needs it: a manifest's canvases that an
/// image service paints, or a collection's members. Read with Foundation's `JSONSerialization`; a document that
/// is neither is refused with why. Only http(s) URLs are kept from it: a canvas whose image service is
/// anything else is counted in `skipped` and left out, as is a collection's member.
package enum PresentationDocument: Sendable {
    case manifest(Manifest)
    case collection(Collection)

    /// The most of a manifest or collection read: a book of a thousand pages is about a megabyte.
    package static let byteLimit = 8 << 20

    package struct Manifest: Sendable {
        package var label: String?
        package var canvases: [Canvas]
        /// Canvases left out: none of their images has an http(s) image service.
        package var skipped: Int
    }

    package struct Canvas: Sendable, Hashable {
        package var label: String
        /// The image service that paints the canvas.
        package var service: ImageServiceReference
        /// The canvas's own thumbnail (an http(s) URL), when it lists one.
        package var thumbnail: String?
    }

    /// An image service as a manifest names it: its base URL and, when the manifest says, its level and
    /// the size of the image it serves.
    package struct ImageServiceReference: Sendable, Hashable {
        /// The service's base URL, without a trailing `/` or `/info.json`.
        package var id: String
        /// The compliance level its profile names (0, 1 or 2); nil when the manifest does not say.
        package var level: Int?
        /// The painting image's width and height, when the manifest gives them.
        package var size: PixelSize? = nil

        package var infoURL: String { id + "/info.json" }
    }

    package struct Collection: Sendable {
        package var label: String?
        /// The members' URLs in order, each a manifest or a collection.
        package var members: [Member]
        /// Members left out: their URL is not http(s).
        package var skipped: Int
    }

    package struct Member: Sendable, Equatable {
        package var url: String
        package var isCollection: Bool
    }

    /// Why a body is no manifest or collection, in a few words.
    package struct Refusal: Error, Sendable, Equatable {
        package let reason: String
        /// The body is not JSON, or JSON of another kind: what was named may be no document at all.
        package var isOtherContent = false
    }

    /// Reads `data`, at most `byteLimit` bytes of JSON.
    package init(json data: Data) throws(Refusal) {
        guard data.count <= Self.byteLimit else {
            throw Refusal(reason: "larger than \(Self.byteLimit >> 20) MB, over the limit for a manifest")
        }
        let document: JSONValue
        do {
            document = try JSONValue.object(parsing: data)
        } catch {
            throw Refusal(reason: "not JSON, so not an IIIF manifest", isOtherContent: true)
        }
        let type = (document["type"] ?? document["@type"])?.string ?? ""
        switch type {
        case "Manifest": self = .manifest(Self.manifest3(document))
        case "sc:Manifest": self = .manifest(Self.manifest2(document))
        case "Collection": self = .collection(Self.collection3(document))
        case "sc:Collection": self = .collection(Self.collection2(document))
        default:
            if document["protocol"]?.string == "http://iiif.io/api/image" {
                throw Refusal(reason: "an IIIF image service's description, not a manifest (`tessera view` opens it)")
            }
            throw Refusal(reason: "JSON, but not an IIIF Presentation manifest or collection (no Manifest or Collection type)",
                          isOtherContent: true)
        }
    }

    // MARK: Version 3

    private static func manifest3(_ document: JSONValue) -> Manifest {
        var canvases: [Canvas] = [], skipped = 0
        for (index, canvas) in (document["items"]?.list ?? []).enumerated() where canvas["type"]?.string == "Canvas" {
            let pages: [JSONValue] = canvas["items"]?.list ?? []
            let annotations: [JSONValue] = pages.flatMap { page -> [JSONValue] in page["items"]?.list ?? [] }
            let painting = annotations.filter { annotation -> Bool in (annotation["motivation"]?.string ?? "painting") == "painting" }
            // A Choice offers alternatives: any of them will do.
            let bodies: [JSONValue] = painting.flatMap { annotation -> [JSONValue] in
                (annotation["body"]?.list ?? []).flatMap { body -> [JSONValue] in
                    body["type"]?.string == "Choice" ? (body["items"]?.list ?? []) : [body]
                }
            }
            guard let service = bodies.lazy.compactMap({ imageService(of: $0) }).first else {
                skipped += 1
                continue
            }
            canvases.append(Canvas(label: label(canvas["label"]) ?? "canvas \(index + 1)", service: service,
                                   thumbnail: thumbnail(canvas["thumbnail"])))
        }
        return Manifest(label: label(document["label"]), canvases: canvases, skipped: skipped)
    }

    private static func collection3(_ document: JSONValue) -> Collection {
        var members: [Member] = [], skipped = 0
        for member in document["items"]?.list ?? [] {
            let type = member["type"]?.string
            guard type == "Manifest" || type == "Collection" else { continue }
            guard let url = (member["id"] ?? member["@id"])?.string, isHTTP(url) else {
                skipped += 1
                continue
            }
            members.append(Member(url: url, isCollection: type == "Collection"))
        }
        return Collection(label: label(document["label"]), members: members, skipped: skipped)
    }

    // MARK: Version 2

    private static func manifest2(_ document: JSONValue) -> Manifest {
        var canvases: [Canvas] = [], skipped = 0
        let sequence = document["sequences"]?.list.first
        for (index, canvas) in (sequence?["canvases"]?.list ?? []).enumerated() {
            let images: [JSONValue] = canvas["images"]?.list ?? []
            // An oa:Choice names its default and the other items.
            let resources: [JSONValue] = images.compactMap { image -> JSONValue? in image["resource"] }
                .flatMap { resource -> [JSONValue] in
                    [resource] + (resource["default"].map { [$0] } ?? []) + (resource["item"]?.list ?? [])
                }
            guard let service = resources.lazy.compactMap({ imageService(of: $0) }).first else {
                skipped += 1
                continue
            }
            canvases.append(Canvas(label: label(canvas["label"]) ?? "canvas \(index + 1)", service: service,
                                   thumbnail: thumbnail(canvas["thumbnail"])))
        }
        return Manifest(label: label(document["label"]), canvases: canvases, skipped: skipped)
    }

    private static func collection2(_ document: JSONValue) -> Collection {
        var members: [Member] = [], skipped = 0
        var listed: [(JSONValue, Bool)] = (document["collections"]?.list ?? []).map { ($0, true) }
        listed += (document["manifests"]?.list ?? []).map { ($0, false) }
        listed += (document["members"]?.list ?? []).map { member -> (JSONValue, Bool) in
            (member, member["@type"]?.string == "sc:Collection")
        }
        for (member, isCollection) in listed {
            guard let url = (member["@id"] ?? member["id"])?.string ?? member.string, isHTTP(url) else {
                skipped += 1
                continue
            }
            members.append(Member(url: url, isCollection: isCollection))
        }
        return Collection(label: label(document["label"]), members: members, skipped: skipped)
    }

    // MARK: Shared

    /// The first http(s) image service of an image (a v3 body or a v2 resource): `service` is an object
    /// or a list, its URL `id` or `@id`.
    private static func imageService(of image: JSONValue) -> ImageServiceReference? {
        for service in image["service"]?.list ?? [] {
            let type = (service["type"] ?? service["@type"])?.string ?? ""
            // Other services (authentication, search) may sit beside the image service.
            guard type.isEmpty || type.hasPrefix("ImageService") || type == "iiif:ImageProfile",
                  let given = (service["id"] ?? service["@id"])?.string else { continue }
            let profiles = service["profile"]?.list.compactMap(\.string) ?? []
            // Version 2 writes its login and token services untyped too: an untyped service that names a
            // context or profile is an image service only when one of them is the Image API's.
            let names = profiles + (service["@context"]?.list.compactMap(\.string) ?? [])
            guard !type.isEmpty || names.isEmpty || names.contains(where: isImageAPI) else { continue }
            let id = serviceBase(given)
            guard isHTTP(id) else { continue }
            let level = profiles.lazy.compactMap { profile -> Int? in
                (0...2).first { profile.contains("level\($0)") }
            }.first
            var size: PixelSize?
            if let width = image["width"]?.int, let height = image["height"]?.int, width > 0, height > 0 {
                size = PixelSize(width: width, height: height)
            }
            return ImageServiceReference(id: id, level: level, size: size)
        }
        return nil
    }

    /// Whether a context or profile URI is the Image API's (versions 1 to 3), or names one of its levels.
    private static func isImageAPI(_ name: String) -> Bool {
        name.contains("iiif.io/api/image/") || name.contains("/iiif/image-api/") || name.hasPrefix("level")
    }

    /// A service's base URL as `id` or `@id` writes it: without the trailing slashes or the `/info.json`
    /// (itself followed by slashes or not) some publishers write.
    static func serviceBase(_ given: String) -> String {
        var id = Substring(given)
        while id.hasSuffix("/") { id.removeLast() }
        if id.hasSuffix("/info.json") { id.removeLast("/info.json".count) }
        while id.hasSuffix("/") { id.removeLast() }
        return String(id)
    }

    /// A thumbnail's URL: a string, or an object (or list of them) with `id` or `@id`; http(s) only.
    private static func thumbnail(_ value: JSONValue?) -> String? {
        value?.list.lazy.compactMap { $0.string ?? ($0["id"] ?? $0["@id"])?.string }.first { isHTTP($0) }
    }

    /// What a label says: version 3's language map (English, else no language, else the first language
    /// by name), version 2's string, `@value` object or list of them (English, else the first).
    static func label(_ value: JSONValue?) -> String? {
        guard let value else { return nil }
        let text: String?
        switch value {
        case .string(let string): text = string
        case .array(let values):
            let english = values.first { ($0["@language"]?.string ?? "").hasPrefix("en") }
            text = label(english ?? values.first)
        case .object(let map):
            if let string = map["@value"]?.string {
                text = string
            } else {
                let languages = map.keys.sorted()
                let chosen = map["en"] != nil ? "en" : languages.first { $0.hasPrefix("en-") }
                    ?? (map["none"] != nil ? "none" : languages.first)
                text = chosen.flatMap { map[$0]?.list.compactMap(\.string).joined(separator: " ") }
            }
        default: text = nil
        }
        // A name fits on the overlay's one line: runs of white space and control characters are one space,
        // and a label of a page's length is cut to its start.
        let words = text?.unicodeScalars.split { CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0) }
        guard let words, !words.isEmpty else { return nil }
        let line = words.map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
        return line.count > labelLimit ? line.prefix(labelLimit - 1) + "…" : line
    }

    /// The most characters of a label kept as an item's name.
    static let labelLimit = 200

    /// Whether `url` is an http(s) URL with a host: the only kind followed from a remote document.
    package static func isHTTP(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else { return false }
        return !(components.host ?? "").isEmpty
    }
}
