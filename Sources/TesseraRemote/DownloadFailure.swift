#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import TesseraCore

/// Why one download did not produce an image file. `shortText` fits the small error cell; `loadFailure`
/// adds the URL and the full reason for the log.
enum DownloadFailure: Error, Equatable, Sendable {
    case badURL
    case connectionRefused
    case unknownHost
    /// No byte for the idle timeout, or the whole download took longer than the overall cap.
    case timedOut(reason: String)
    case tooManyRedirects(limit: Int)
    case httpStatus(Int)
    case tooLarge(limitBytes: Int, declaredBytes: Int64?)
    case notAnImage(isHTML: Bool, contentType: String?)
    /// A 304 answered a request that had no cached copy to refer to, or the copy vanished meanwhile.
    case cachedCopyMissing(reason: String)
    case cacheNotWritable(reason: String)
    /// Any other transport error, with URLSession's description.
    case network(code: Int, description: String)

    var shortText: String {
        switch self {
        case .badURL: "Bad URL"
        case .connectionRefused: "Connection refused"
        case .unknownHost: "Unknown host"
        case .timedOut: "Timed out"
        case .tooManyRedirects: "Too many redirects"
        case .httpStatus(404): "Not found (404)"
        case .httpStatus(let status): "HTTP \(status)"
        case .tooLarge(let limit, _): "Too large (over \(Self.byteText(limit)))"
        case .notAnImage(let isHTML, _): isHTML ? "Not an image (HTML page)" : "Not an image"
        case .cachedCopyMissing: "Cache file missing"
        case .cacheNotWritable: "Cache not writable"
        case .network(let code, _):
            switch URLError.Code(rawValue: code) {
            case .notConnectedToInternet: "Offline"
            case .networkConnectionLost: "Connection lost"
            case .secureConnectionFailed: "TLS failed"
            case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
                 .serverCertificateHasUnknownRoot: "Bad certificate"
            default: "Network error"
            }
        }
    }

    private var reason: String {
        switch self {
        case .badURL: "not an http(s) URL with a host"
        case .connectionRefused: "the server refused the connection"
        case .unknownHost: "the host name could not be resolved"
        case .timedOut(let reason): reason
        case .tooManyRedirects(let limit): "more than \(limit) redirects"
        case .httpStatus(let status):
            "the server answered \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))"
        case .tooLarge(let limit, let declared?):
            "the server declared \(declared) bytes, over the limit of \(limit)"
        case .tooLarge(let limit, nil): "more than \(limit) bytes arrived, over the limit"
        case .notAnImage(_, let contentType):
            "the body is not in an image format we know (Content-Type \(contentType ?? "absent"))"
        case .cachedCopyMissing(let reason), .cacheNotWritable(let reason): reason
        case .network(let code, let description): "\(description) (URLError \(code))"
        }
    }

    func loadFailure(url: String) -> LoadFailure {
        LoadFailure(shortText: shortText, detail: "\(url): \(reason)")
    }

    /// Whether a cached copy should be shown instead: the network gave no trustworthy answer (down, slow,
    /// a server error, or a captive portal's login page or redirects), rather than a real answer that the
    /// image is gone (4xx) or is now something we refuse (too large).
    var allowsOfflineFallback: Bool {
        switch self {
        case .connectionRefused, .unknownHost, .timedOut, .network, .tooManyRedirects, .notAnImage: true
        case .httpStatus(let status): status >= 500
        case .badURL, .tooLarge, .cachedCopyMissing, .cacheNotWritable: false
        }
    }

    /// The failure a transport error stands for.
    init(transportError error: any Error, redirectLimit: Int) {
        guard let urlError = error as? URLError else {
            let nsError = error as NSError
            self = .network(code: nsError.code, description: nsError.localizedDescription)
            return
        }
        switch urlError.code {
        case .cannotConnectToHost: self = .connectionRefused
        case .cannotFindHost, .dnsLookupFailed: self = .unknownHost
        case .timedOut: self = .timedOut(reason: "URLSession timed out: \(urlError.localizedDescription)")
        case .httpTooManyRedirects: self = .tooManyRedirects(limit: redirectLimit)
        case .badURL, .unsupportedURL: self = .badURL
        default: self = .network(code: urlError.code.rawValue, description: urlError.localizedDescription)
        }
    }

    /// "64 MB", "64 KB", "100 bytes": whole units, as limits are set.
    static func byteText(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        if bytes >= 1 << 10 { return String(format: "%.1f KB", Double(bytes) / Double(1 << 10)) }
        return "\(bytes) bytes"
    }
}
