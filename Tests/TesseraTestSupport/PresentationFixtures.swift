import Foundation
import TesseraTiling

/// IIIF Presentation documents for tests, and the image services they point at: sample photos cut into
/// static (level 0) IIIF trees by `TileCutter`, served file by file from a loopback server.
package enum PresentationFixtures {
    /// An image service a test serves: its base URL and the image's size.
    package struct Service: Sendable {
        package let id: String
        package let width: Int
        package let height: Int
    }

    /// A canvas as a manifest writes it. `label` is written as given (a string, a list, a language map).
    package struct Canvas {
        package var label: Any
        package var serviceID: String
        package var width: Int
        package var height: Int
        /// The service's profile as the manifest names it ("level0", ".../level2.json"); nil leaves it out.
        package var profile: String?
        package var thumbnail: String?

        package init(label: Any, service: Service, profile: String? = nil, thumbnail: String? = nil) {
            self.init(label: label, serviceID: service.id, width: service.width, height: service.height,
                      profile: profile, thumbnail: thumbnail)
        }

        package init(label: Any, serviceID: String, width: Int = 100, height: Int = 100, profile: String? = nil,
                     thumbnail: String? = nil) {
            self.label = label
            self.serviceID = serviceID
            self.width = width
            self.height = height
            self.profile = profile
            self.thumbnail = thumbnail
        }
    }

    /// Cuts each of `samples` into a static tree of 256-pixel tiles (IIIF `version` 3 or 2) and serves it at
    /// `/svcN/img` on `server` (N counting from 1), its files written under `folder`.
    package static func serveTrees(_ samples: [String], version: Int, on server: LoopbackHTTPServer,
                                   in folder: String) throws -> [Service] {
        try samples.enumerated().map { index, sample in
            let prefix = "/svc\(index + 1)"
            var options = TileCutterOptions()
            options.layout = version == 2 ? .iiif2 : .iiif3
            options.tileSize = 256
            options.iiifID = server.url(prefix)
            let out = folder + "/tree\(index + 1)"
            let result = try TileCutter(options: options).cut(imageAt: SampleImages.url(sample).path, into: out, name: "img")
            server.serveFiles(in: out, at: prefix)
            return Service(id: server.url(prefix + "/img"), width: result.geometry.width, height: result.geometry.height)
        }
    }

    /// A Presentation 3 manifest: each canvas painted by one Image whose service is an ImageService3.
    package static func manifest3(id: String, label: Any, canvases: [Canvas]) -> Data {
        let items: [[String: Any]] = canvases.enumerated().map { index, canvas in
            let canvasID = "\(id)/canvas/\(index + 1)"
            var service: [String: Any] = ["id": canvas.serviceID, "type": "ImageService3"]
            if let profile = canvas.profile { service["profile"] = profile }
            let body: [String: Any] = ["id": canvas.serviceID + "/full/max/0/default.jpg", "type": "Image",
                                       "format": "image/jpeg", "width": canvas.width, "height": canvas.height,
                                       "service": [service]]
            let annotation: [String: Any] = ["id": canvasID + "/annotation", "type": "Annotation", "motivation": "painting",
                                             "body": body, "target": canvasID]
            var entry: [String: Any] = ["id": canvasID, "type": "Canvas", "label": canvas.label,
                                        "width": canvas.width, "height": canvas.height,
                                        "items": [["id": canvasID + "/page", "type": "AnnotationPage", "items": [annotation]]]]
            if let thumbnail = canvas.thumbnail { entry["thumbnail"] = [["id": thumbnail, "type": "Image"]] }
            return entry
        }
        return json(["@context": "http://iiif.io/api/presentation/3/context.json", "id": id, "type": "Manifest",
                     "label": label, "items": items])
    }

    /// A Presentation 2 manifest: one sequence, each canvas with one image whose resource has the service.
    package static func manifest2(id: String, label: Any, canvases: [Canvas]) -> Data {
        let list: [[String: Any]] = canvases.enumerated().map { index, canvas in
            let canvasID = "\(id)/canvas/\(index + 1)"
            var service: [String: Any] = ["@context": "http://iiif.io/api/image/2/context.json", "@id": canvas.serviceID]
            if let profile = canvas.profile { service["profile"] = profile }
            let resource: [String: Any] = ["@id": canvas.serviceID + "/full/full/0/default.jpg", "@type": "dctypes:Image",
                                           "width": canvas.width, "height": canvas.height, "service": service]
            var entry: [String: Any] = ["@id": canvasID, "@type": "sc:Canvas", "label": canvas.label,
                                        "width": canvas.width, "height": canvas.height,
                                        "images": [["@type": "oa:Annotation", "motivation": "sc:painting",
                                                    "resource": resource, "on": canvasID]]]
            if let thumbnail = canvas.thumbnail { entry["thumbnail"] = ["@id": thumbnail] }
            return entry
        }
        return json(["@context": "http://iiif.io/api/presentation/2/context.json", "@id": id, "@type": "sc:Manifest",
                     "label": label, "sequences": [["@type": "sc:Sequence", "canvases": list]]])
    }

    /// A Presentation 3 collection of `members`: each a manifest's URL, or a collection's with `isCollection`.
    package static func collection3(id: String, label: String, members: [(url: String, isCollection: Bool)]) -> Data {
        json(["@context": "http://iiif.io/api/presentation/3/context.json", "id": id, "type": "Collection",
              "label": ["en": [label]],
              "items": members.map { ["id": $0.url, "type": $0.isCollection ? "Collection" : "Manifest"] }])
    }

    /// A Presentation 2 collection listing `manifests`.
    package static func collection2(id: String, label: String, manifests: [String]) -> Data {
        json(["@context": "http://iiif.io/api/presentation/2/context.json", "@id": id, "@type": "sc:Collection",
              "label": label, "manifests": manifests.map { ["@id": $0, "@type": "sc:Manifest"] }])
    }

    private static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}
