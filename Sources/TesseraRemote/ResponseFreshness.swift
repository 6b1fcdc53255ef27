import Foundation

/// How long a response may be served from its kept copy without asking the server (RFC 9111, section
/// 4.2): `Cache-Control: max-age` less the `Age` the response already had. Only what a private cache of
/// immutable tiles needs: `no-cache` and `no-store` mean "ask every time", and a response without
/// `max-age` is asked about every time too (no heuristic freshness from `Last-Modified`).
enum ResponseFreshness {
    /// Until when a response received at `receivedAt` with these headers is fresh; nil when it must be
    /// revalidated before every use.
    static func freshUntil(cacheControl: String?, age: String?, receivedAt: Date) -> Date? {
        guard let cacheControl else { return nil }
        var maxAge: Int?
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch parts[0].lowercased() {
            case "no-cache", "no-store": return nil
            case "max-age":
                guard parts.count == 2 else { return nil }
                // A quoted value is not the specification's form, but servers write it.
                guard let seconds = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds >= 0 else {
                    return nil
                }
                maxAge = seconds
            default: continue
            }
        }
        guard let maxAge else { return nil }
        let alreadyAged = age.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        guard maxAge > alreadyAged else { return nil }
        return receivedAt.addingTimeInterval(TimeInterval(maxAge - alreadyAged))
    }
}
