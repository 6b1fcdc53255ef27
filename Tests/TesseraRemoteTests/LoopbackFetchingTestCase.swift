import TesseraTestSupport
import XCTest
@testable import TesseraRemote

/// What tests of reading over HTTP share: loopback servers and fetchers made for one test, all stopped
/// after it.
class LoopbackFetchingTestCase: XCTestCase {
    private var servers: [LoopbackHTTPServer] = []
    private var fetchers: [HTTPFetcher] = []

    override func tearDown() {
        for fetcher in fetchers { fetcher.invalidate() }
        for server in servers { server.stop() }
        fetchers = []
        servers = []
        super.tearDown()
    }

    func makeServer() throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer()
        servers.append(server)
        return server
    }

    func makeFetcher(idleTimeout: Duration = .seconds(10)) -> HTTPFetcher {
        var limits = HTTPFetcher.Limits()
        limits.idleTimeout = idleTimeout
        return keep(HTTPFetcher(limits: limits))
    }

    /// `fetcher`, invalidated after the test.
    func keep(_ fetcher: HTTPFetcher) -> HTTPFetcher {
        fetchers.append(fetcher)
        return fetcher
    }
}
