#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import TesseraCore
import XCTest
@testable import TesseraRemote

/// The pure parts: the table's scheduling rules, the deadlines and the failure texts, without sockets.
final class DownloadTableTests: XCTestCase {
    private let ready = DownloadTable.Phase.ready(localPath: "/c/x", version: FileVersion(size: 1, modifiedNanoseconds: 1))

    func testNewURLStartsWhileItsHostHasRoom() {
        var table = DownloadTable(perHostLimit: 2)
        XCTAssertTrue(table.request("a1", hostKey: "a:80", priority: 0))
        XCTAssertTrue(table.request("a2", hostKey: "a:80", priority: 0))
        XCTAssertFalse(table.request("a3", hostKey: "a:80", priority: 0))
        // Another host has its own room.
        XCTAssertTrue(table.request("b1", hostKey: "b:80", priority: 9))
        XCTAssertEqual(table.runningCount, 3)
        XCTAssertEqual(table.queuedCount, 1)
        XCTAssertEqual(table.state(of: "a3"), .inFlight)
        XCTAssertEqual(table.maxRunningPerHostObserved, 2)
    }

    func testFinishedDownloadHandsItsSlotToTheBestQueuedOfItsHost() {
        var table = DownloadTable(perHostLimit: 1)
        _ = table.request("run", hostKey: "a:80", priority: 0)
        _ = table.request("late", hostKey: "a:80", priority: 5)
        _ = table.request("first-of-equals", hostKey: "a:80", priority: 2)
        _ = table.request("second-of-equals", hostKey: "a:80", priority: 2)
        _ = table.request("other-host", hostKey: "b:80", priority: 0)

        XCTAssertEqual(table.finish("run", with: ready), "first-of-equals")
        XCTAssertEqual(table.state(of: "run"), .ready(localPath: "/c/x", version: FileVersion(size: 1, modifiedNanoseconds: 1)))
        // A queued entry takes a new priority; a second request of the same URL starts nothing.
        XCTAssertFalse(table.request("late", hostKey: "a:80", priority: 1))
        XCTAssertEqual(table.finish("first-of-equals", with: ready), "late")
        XCTAssertEqual(table.finish("late", with: .failed(LoadFailure(shortText: "x", detail: "y"))), "second-of-equals")
        XCTAssertNil(table.finish("second-of-equals", with: ready))
        XCTAssertEqual(table.runningCount, 1)   // other-host
        XCTAssertEqual(table.queuedCount, 0)
    }

    func testRequestOfAKnownURLDoesNothing() {
        var table = DownloadTable(perHostLimit: 1)
        _ = table.request("a", hostKey: "a:80", priority: 0)
        XCTAssertFalse(table.request("a", hostKey: "a:80", priority: 0))
        _ = table.finish("a", with: .failed(LoadFailure(shortText: "x", detail: "y")))
        XCTAssertFalse(table.request("a", hostKey: "a:80", priority: 0))
        XCTAssertEqual(table.state(of: "a"), .failed(LoadFailure(shortText: "x", detail: "y")))
        table.forgetFailure("a")
        XCTAssertEqual(table.state(of: "a"), .notStarted)
        XCTAssertTrue(table.request("a", hostKey: "a:80", priority: 0))
    }

    func testRetainQueuedKeepsRunningAndListedOnes() {
        var table = DownloadTable(perHostLimit: 1)
        _ = table.request("run", hostKey: "a:80", priority: 0)
        for url in ["q1", "q2", "q3"] { _ = table.request(url, hostKey: "a:80", priority: 0) }
        XCTAssertEqual(table.retainQueued(["q2"]), 2)
        XCTAssertEqual(table.state(of: "q1"), .notStarted)
        XCTAssertEqual(table.state(of: "run"), .inFlight)
        XCTAssertEqual(table.queuedCount, 1)
        XCTAssertEqual(table.finish("run", with: ready), "q2")
    }

    func testDropUnfinishedKeepsResults() {
        var table = DownloadTable(perHostLimit: 1)
        _ = table.request("done", hostKey: "a:80", priority: 0)
        _ = table.request("queued", hostKey: "a:80", priority: 0)
        _ = table.finish("done", with: ready)   // "queued" starts
        _ = table.request("waiting", hostKey: "a:80", priority: 0)
        table.dropUnfinished()
        XCTAssertEqual(table.state(of: "queued"), .notStarted)
        XCTAssertEqual(table.state(of: "waiting"), .notStarted)
        XCTAssertEqual(table.runningCount, 0)
        XCTAssertEqual(table.queuedCount, 0)
        XCTAssertNotEqual(table.state(of: "done"), .notStarted)
    }

    func testDeadlineCountsIdleTimeAndTotalTime() {
        let deadline = TransferDeadline(idleTimeout: .seconds(1), overallTimeout: .seconds(4))
        let start = ContinuousClock.now
        XCTAssertNil(deadline.expiry(startedAt: start, lastProgressAt: start, now: start + .milliseconds(999)))
        XCTAssertEqual(deadline.expiry(startedAt: start, lastProgressAt: start, now: start + .seconds(1)),
                       "nothing arrived for 1 s")
        // Bytes keep coming, but the whole is too slow.
        XCTAssertNil(deadline.expiry(startedAt: start, lastProgressAt: start + .milliseconds(3500), now: start + .milliseconds(3900)))
        XCTAssertEqual(deadline.expiry(startedAt: start, lastProgressAt: start + .milliseconds(3900), now: start + .seconds(4)),
                       "not finished after 4 s in all")
        XCTAssertEqual(deadline.nextCheck(startedAt: start, lastProgressAt: start + .seconds(2)), start + .seconds(3))
        XCTAssertEqual(deadline.nextCheck(startedAt: start, lastProgressAt: start + .milliseconds(3500)), start + .seconds(4))
    }

    func testFailureTextsAndClassification() {
        func text(_ code: URLError.Code) -> String {
            DownloadFailure(transportError: URLError(code), redirectLimit: 8).shortText
        }
        XCTAssertEqual(text(.cannotConnectToHost), "Connection refused")
        XCTAssertEqual(text(.cannotFindHost), "Unknown host")
        XCTAssertEqual(text(.dnsLookupFailed), "Unknown host")
        XCTAssertEqual(text(.timedOut), "Timed out")
        XCTAssertEqual(text(.httpTooManyRedirects), "Too many redirects")
        XCTAssertEqual(text(.networkConnectionLost), "Connection lost")
        XCTAssertEqual(DownloadFailure.httpStatus(404).shortText, "Not found (404)")
        XCTAssertEqual(DownloadFailure.httpStatus(503).shortText, "HTTP 503")
        XCTAssertEqual(DownloadFailure.tooLarge(limitBytes: 64 << 20, declaredBytes: nil).shortText, "Too large (over 64 MB)")
        XCTAssertEqual(DownloadFailure.notAnImage(isHTML: true, contentType: "text/html").shortText, "Not an image (HTML page)")

        let failure = DownloadFailure.httpStatus(404).loadFailure(url: "http://h/x.png")
        XCTAssertTrue(failure.detail.hasPrefix("http://h/x.png: "), failure.detail)
        XCTAssertTrue(failure.detail.contains("404"), failure.detail)

        XCTAssertTrue(DownloadFailure.connectionRefused.allowsOfflineFallback)
        XCTAssertTrue(DownloadFailure.httpStatus(502).allowsOfflineFallback)
        XCTAssertFalse(DownloadFailure.httpStatus(404).allowsOfflineFallback)
        XCTAssertFalse(DownloadFailure.tooLarge(limitBytes: 1, declaredBytes: 2).allowsOfflineFallback)
    }

    func testHostKeysAndHTMLSniffing() {
        XCTAssertEqual(DownloadEngine.hostKey(of: "http://Example.com/a.png"), "example.com:80")
        XCTAssertEqual(DownloadEngine.hostKey(of: "https://example.com/a.png"), "example.com:443")
        XCTAssertEqual(DownloadEngine.hostKey(of: "http://127.0.0.1:8080/a"), "127.0.0.1:8080")
        XCTAssertNil(DownloadEngine.hostKey(of: "file:///a.png"))
        XCTAssertNil(DownloadEngine.hostKey(of: "http:///a.png"))

        XCTAssertTrue(DownloadEngine.looksLikeHTML(Array("  <!DOCTYPE HTML>".utf8), contentType: nil))
        XCTAssertTrue(DownloadEngine.looksLikeHTML(Array("whatever".utf8), contentType: "text/html"))
        XCTAssertFalse(DownloadEngine.looksLikeHTML(Array("{\"json\": 1}".utf8), contentType: "application/json"))
    }
}
