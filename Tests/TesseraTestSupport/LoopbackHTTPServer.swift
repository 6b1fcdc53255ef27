// Test support shared by the remote-loading tests and the command-line tests.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests: POSIX sockets, a thread accepting connections and a
/// thread per connection, one request per connection (`Connection: close`). Routes are closures from
/// request to response; the server counts requests per path, keeps their headers and records how many
/// requests were waiting for their answer at once.
package final class LoopbackHTTPServer: Sendable {
    package struct Request: Sendable {
        package let method: String
        package let path: String
        /// Header names lower-cased.
        package let headers: [String: String]

        package func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    package struct Response: Sendable {
        /// How the body's length is told.
        package enum Length: Sendable {
            /// A true Content-Length.
            case honest
            /// No Content-Length: the body ends when the connection closes.
            case omitted
            /// Transfer-Encoding: chunked, in 16 KB chunks.
            case chunked
            /// A Content-Length of this many bytes, whatever the body is.
            case claimed(Int)
        }

        package var status: Int
        package var headers: [(name: String, value: String)]
        package var body: Data
        package var length: Length
        /// Waits this long before sending anything.
        package var delay: Duration
        /// Sends the headers (if `stallsAfterHeaders`) or nothing, then holds the connection until the server stops.
        package var stalls: Bool
        package var stallsAfterHeaders: Bool
        /// Sends the body a byte at a time with this pause between bytes.
        package var trickle: Duration?

        package init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data(),
             length: Length = .honest, delay: Duration = .zero, stalls: Bool = false, stallsAfterHeaders: Bool = false,
             trickle: Duration? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.length = length
            self.delay = delay
            self.stalls = stalls
            self.stallsAfterHeaders = stallsAfterHeaders
            self.trickle = trickle
        }

        package static func redirect(to location: String) -> Response {
            Response(status: 302, headers: [("Location", location)])
        }
    }

    package typealias Route = @Sendable (Request) -> Response

    package enum StartError: Error { case socket(String) }

    private struct Records {
        var requests: [String: [Request]] = [:]
        /// Paths in the order their requests arrived.
        var log: [String] = []
        var waiting = 0
        var maxWaiting = 0
        var bodyBytesSent: [String: Int] = [:]
        var hangUps: [String: Int] = [:]
    }

    package let port: UInt16
    private let listener: Int32
    private let routes: Mutex<[String: Route]>
    private let records = Mutex(Records())
    private let stopped = Atomic<Bool>(false)
    /// Connections open now (closed at stop, which ends stalled handlers).
    private let openConnections = Mutex<Set<Int32>>([])

    package init(routes: [String: Route] = [:]) throws {
        self.routes = Mutex(routes)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw StartError.socket("socket: \(errno)") }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw StartError.socket("bind/listen: \(errno)")
        }
        self.listener = listener
        port = Self.localPort(of: listener)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    package func setRoute(_ path: String, _ route: @escaping Route) {
        routes.withLock { $0[path] = route }
    }

    package func requestCount(_ path: String) -> Int { records.withLock { $0.requests[path]?.count ?? 0 } }
    package func requests(_ path: String) -> [Request] { records.withLock { $0.requests[path] ?? [] } }
    package var requestLog: [String] { records.withLock { $0.log } }
    package var totalRequestCount: Int { records.withLock { $0.requests.values.reduce(0) { $0 + $1.count } } }
    package func bodyBytesSent(_ path: String) -> Int { records.withLock { $0.bodyBytesSent[path] ?? 0 } }
    /// How many stalled requests for `path` the client ended by closing its connection.
    package func hangUpCount(_ path: String) -> Int { records.withLock { $0.hangUps[path] ?? 0 } }
    /// The most requests that were at once between arriving and getting their response written.
    package var maxConcurrentRequests: Int { records.withLock { $0.maxWaiting } }
    /// Starts `maxConcurrentRequests` over from the requests waiting now (to measure a later phase alone).
    package func resetMaxConcurrentRequests() { records.withLock { $0.maxWaiting = $0.waiting } }

    /// Stops accepting and closes every connection (ending stalled ones). Idempotent.
    package func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // shutdown wakes the thread blocked in accept; close alone would not on Linux.
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        openConnections.withLock { connections in
            for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    /// A port on 127.0.0.1 that nothing listens on: bound, then closed.
    package static func closedPort() -> UInt16 {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let port = localPort(of: probe)
        close(probe)
        return port
    }

    // MARK: - Serving

    private func acceptLoop() {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let tracked = openConnections.withLock { connections -> Bool in
                guard !stopped.load(ordering: .sequentiallyConsistent) else { return false }
                connections.insert(connection)
                return true
            }
            guard tracked else { close(connection); return }
            Thread { [self] in
                serve(connection)
                openConnections.withLock { _ = $0.remove(connection) }
                close(connection)
            }.start()
        }
    }

    private func serve(_ connection: Int32) {
        guard let request = readRequest(connection) else { return }
        records.withLock {
            $0.requests[request.path, default: []].append(request)
            $0.log.append(request.path)
            $0.waiting += 1
            $0.maxWaiting = max($0.maxWaiting, $0.waiting)
        }
        var answered = false
        defer { if !answered { records.withLock { $0.waiting -= 1 } } }
        let route = routes.withLock { $0[request.path] }
        let response = route?(request) ?? Response(status: 404, body: Data("no route\n".utf8))
        if response.delay > .zero { sleepUntilStopped(for: response.delay) }
        if response.stalls && !response.stallsAfterHeaders {
            stallUntilStoppedOrHungUp(connection, path: request.path)
            return
        }

        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\nConnection: close\r\n"
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        switch response.length {
        case .honest: head += "Content-Length: \(response.body.count)\r\n"
        case .claimed(let count): head += "Content-Length: \(count)\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n"
        case .omitted: break
        }
        head += "\r\n"
        // Counted as answered before the first byte goes out: once the client has the whole response it
        // may start its next request, and that must not count as overlapping this one.
        records.withLock { $0.waiting -= 1 }
        answered = true
        guard send(connection, Data(head.utf8)) else { return }
        if response.stallsAfterHeaders {
            stallUntilStoppedOrHungUp(connection, path: request.path)
            return
        }

        var sent = 0
        defer { records.withLock { $0.bodyBytesSent[request.path, default: 0] += sent } }
        if case .chunked = response.length {
            var offset = 0
            while offset < response.body.count {
                let chunk = response.body[offset..<min(offset + 16 << 10, response.body.count)]
                let framed = Data((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Data("\r\n".utf8)
                guard send(connection, framed) else { return }
                sent += chunk.count
                offset += chunk.count
            }
            _ = send(connection, Data("0\r\n\r\n".utf8))
        } else if let pause = response.trickle {
            for byte in response.body {
                guard send(connection, Data([byte])) else { return }
                sent += 1
                sleepUntilStopped(for: pause)
            }
        } else {
            var offset = 0
            while offset < response.body.count {
                let chunk = response.body[offset..<min(offset + 16 << 10, response.body.count)]
                guard send(connection, Data(chunk)) else { return }
                sent += chunk.count
                offset += chunk.count
            }
        }
    }

    /// Reads up to the blank line that ends the headers (requests here have no body).
    private func readRequest(_ connection: Int32) -> Request? {
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while !bytes.ends(with: end) {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
            if bytes.count > 64 << 10 { return nil }
            // A request may arrive split anywhere; only a complete header block ends the loop.
            if let range = bytes.firstRange(of: end) { bytes = Array(bytes[..<range.upperBound]); break }
        }
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
    }

    /// Sends everything; false when the peer is gone. MSG_NOSIGNAL: a client that hung up must not
    /// kill the test process with SIGPIPE.
    private func send(_ connection: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let count = Glibc.send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// Holds a stalled connection until the server stops or the client closes it (counted as a hang-up).
    private func stallUntilStoppedOrHungUp(_ connection: Int32, path: String) {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 5) > 0 {
                var byte: UInt8 = 0
                let closed = descriptor.revents & (Int16(POLLHUP) | Int16(POLLERR)) != 0
                    || recv(connection, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) == 0
                if closed {
                    records.withLock { $0.hangUps[path, default: 0] += 1 }
                    return
                }
                usleep(5_000)  // bytes the request did not need: not a hang-up
            }
        }
    }

    /// Sleeps for `duration` (nil: for ever), waking early when the server stops.
    private func sleepUntilStopped(for duration: Duration?) {
        let deadline = duration.map { ContinuousClock.now + $0 }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            if let deadline, ContinuousClock.now >= deadline { return }
            usleep(5_000)
        }
    }

    private static func localPort(of descriptor: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 302: "Found"
        case 304: "Not Modified"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}

extension LoopbackHTTPServer {
    /// Serves every file under `folder` at `prefix` + its path inside the folder.
    package func serveFiles(in folder: String, at prefix: String) {
        guard let files = FileManager.default.enumerator(atPath: folder) else { return }
        for case let relative as String in files {
            var isFolder: ObjCBool = false
            let path = folder + "/" + relative
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                  let body = FileManager.default.contents(atPath: path) else { continue }
            setRoute(prefix + "/" + relative) { _ in Response(body: body) }
        }
    }
}
