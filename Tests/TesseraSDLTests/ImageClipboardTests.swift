import CX11
import Foundation
import TesseraTestSupport
import XCTest
@testable import TesseraSDL

/// The picture on the X11 clipboard: offered by `ImageClipboard` on Xvfb, pasted back by xclip (what a
/// program pasting does) and by a requestor written out request by request for what xclip never asks.
final class ImageClipboardTests: XCTestCase {
    private var server: XvfbServer?
    private let uri = "file:///pictures/a%20walk.png"

    override func setUpWithError() throws {
        guard ChildProcess.isInstalled("xclip") else { throw XCTSkip("xclip is not installed (make test-deps installs it)") }
        server = try XvfbServer()
    }

    override func tearDown() {
        server?.stop()
    }

    private var displayName: String { server?.name ?? "" }

    func testThePictureAndItsFileComeBackAsOffered() throws {
        let clipboard = try ImageClipboard(displayName: displayName)
        let png = Self.pngLike(count: 5_000)
        try clipboard.offer(png: png, uriList: uri)
        try waitUntil("the owner holds the clipboard") { clipboard.holdsLatestOffer }

        let targets = try paste("TARGETS").stdout.split(separator: "\n").map(String.init)
        for target in ["TARGETS", "TIMESTAMP", "MULTIPLE", "image/png", "text/uri-list", "UTF8_STRING", "STRING", "text/plain"] {
            XCTAssertTrue(targets.contains(target), "\(target) missing from \(targets)")
        }
        XCTAssertEqual([UInt8](try paste("image/png").output), png)
        XCTAssertEqual(try paste("text/uri-list").stdout, "\(uri)\r\n")
        XCTAssertEqual(try paste("UTF8_STRING").stdout, uri, "text-only pasters get the URI, as `Y` copies it")
        XCTAssertEqual(try paste("text/plain").stdout, uri)
        XCTAssertNotEqual(try xclip(["-o", "-t", "image/jpeg"]).status, 0, "a target not offered is refused")
    }

    func testAPictureWithoutAFileOffersNoText() throws {
        let clipboard = try ImageClipboard(displayName: displayName)
        try clipboard.offer(png: Self.pngLike(count: 100), uriList: "")
        try waitUntil("the owner holds the clipboard") { clipboard.holdsLatestOffer }
        let targets = try paste("TARGETS").stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(Set(targets), ["TARGETS", "TIMESTAMP", "MULTIPLE", "image/png"])
    }

    func testAPictureLargerThanOneRequestComesBackWholeByINCR() throws {
        let clipboard = try ImageClipboard(displayName: displayName)
        // Three chunks, as a large photo's PNG would go.
        let png = Self.pngLike(count: 40_000_000)
        try clipboard.offer(png: png, uriList: uri)
        try waitUntil("the owner holds the clipboard") { clipboard.holdsLatestOffer }
        XCTAssertEqual([UInt8](try paste("image/png").output), png)
        XCTAssertEqual([UInt8](try paste("image/png").output), png, "a second paste gets it again")
        try waitUntil("the transfers end") { clipboard.transfersUnderWay == 0 }
    }

    func testANewOfferReplacesTheLast() throws {
        let clipboard = try ImageClipboard(displayName: displayName)
        try clipboard.offer(png: Self.pngLike(count: 1_000, seed: 1), uriList: uri)
        let second = Self.pngLike(count: 400_000, seed: 2)
        try clipboard.offer(png: second, uriList: "file:///pictures/b.png")
        try waitUntil("the owner holds the second offer") { clipboard.holdsLatestOffer }
        XCTAssertEqual([UInt8](try paste("image/png").output), second)
        XCTAssertEqual(try paste("UTF8_STRING").stdout, "file:///pictures/b.png")
    }

    func testAnotherProgramTakingTheClipboardEndsTheOfferHarmlessly() throws {
        let clipboard = try ImageClipboard(displayName: displayName)
        let png = Self.pngLike(count: 2_000)
        try clipboard.offer(png: png, uriList: uri)
        try waitUntil("the owner holds the clipboard") { clipboard.holdsLatestOffer }

        // `echo x | xclip -selection clipboard`, kept in the foreground: it serves until it loses the
        // clipboard in turn.
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        other.arguments = ["xclip", "-selection", "clipboard", "-quiet"]
        other.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": displayName]) { _, new in new }
        let input = Pipe()
        other.standardInput = input
        other.standardOutput = FileHandle.nullDevice
        other.standardError = FileHandle.nullDevice
        try other.run()
        defer { if other.isRunning { other.terminate() } }
        input.fileHandleForWriting.write(Data("x\n".utf8))
        try input.fileHandleForWriting.close()

        try waitUntil("the owner lets go") { !clipboard.holdsLatestOffer }
        XCTAssertEqual(try paste("UTF8_STRING").stdout, "x\n")

        // Offered again, the picture takes the clipboard back, and the other program, having lost it, ends.
        try clipboard.offer(png: png, uriList: uri)
        try waitUntil("the owner holds the clipboard again") { clipboard.holdsLatestOffer }
        XCTAssertEqual([UInt8](try paste("image/png").output), png)
        try waitUntil("xclip ends on losing the clipboard") { !other.isRunning }
    }

    func testAPasterThatVanishesHalfwayIsForgotten() throws {
        let clipboard = try ImageClipboard(displayName: displayName)
        let png = Self.pngLike(count: Self.beyondOneRequest)
        try clipboard.offer(png: png, uriList: uri)
        try waitUntil("the owner holds the clipboard") { clipboard.holdsLatestOffer }

        let requestor = try RawRequestor(displayName: displayName)
        XCTAssertEqual(requestor.convert("image/png", into: "PICTURE"), requestor.atom("PICTURE"))
        XCTAssertEqual(requestor.property("PICTURE", delete: false).type, requestor.atom("INCR"))
        XCTAssertEqual(clipboard.transfersUnderWay, 1)
        requestor.close()
        try waitUntil("the owner drops the transfer when the requestor's window goes") { clipboard.transfersUnderWay == 0 }
        XCTAssertEqual([UInt8](try paste("image/png").output), png, "the owner still serves others")
    }

    func testAPasterThatStopsTakingChunksIsDroppedAfterTheTimeout() throws {
        let clipboard = try ImageClipboard(displayName: displayName, transferTimeout: .milliseconds(300))
        let png = Self.pngLike(count: Self.beyondOneRequest)
        try clipboard.offer(png: png, uriList: uri)
        try waitUntil("the owner holds the clipboard") { clipboard.holdsLatestOffer }

        let requestor = try RawRequestor(displayName: displayName)
        defer { requestor.close() }
        XCTAssertEqual(requestor.convert("image/png", into: "PICTURE"), requestor.atom("PICTURE"))
        // Deleting the INCR property asks for the first chunk; that chunk is then never deleted.
        _ = requestor.property("PICTURE", delete: true)
        XCTAssertTrue(requestor.awaitNewValue(of: "PICTURE"), "the first chunk arrives")
        XCTAssertEqual(clipboard.transfersUnderWay, 1)
        try waitUntil("the stalled transfer is dropped", timeout: 5) { clipboard.transfersUnderWay == 0 }
        XCTAssertEqual([UInt8](try paste("image/png").output), png)
    }

    func testMULTIPLEConvertsEachPairAndMarksTheOnesItCannot() throws {
        let clipboard = try ImageClipboard(displayName: displayName)
        let png = Self.pngLike(count: Self.beyondOneRequest)
        try clipboard.offer(png: png, uriList: uri)
        try waitUntil("the owner holds the clipboard") { clipboard.holdsLatestOffer }

        let requestor = try RawRequestor(displayName: displayName)
        defer { requestor.close() }
        requestor.setAtomPairs("PAIRS", [("text/uri-list", "LIST"), ("application/x-nothing", "NOTHING"),
                                         ("TIMESTAMP", "TIME")])
        XCTAssertEqual(requestor.convert("MULTIPLE", into: "PAIRS"), requestor.atom("PAIRS"))
        XCTAssertEqual(requestor.atomPairs("PAIRS"), [requestor.atom("text/uri-list"), requestor.atom("LIST"),
                                                      requestor.atom("application/x-nothing"), 0,
                                                      requestor.atom("TIMESTAMP"), requestor.atom("TIME")])
        XCTAssertEqual(requestor.property("LIST", delete: true).bytes, Array("\(uri)\r\n".utf8))
        let time = requestor.property("TIME", delete: true)
        XCTAssertEqual(time.type, requestor.atom("INTEGER"))
        XCTAssertEqual(time.bytes.count, MemoryLayout<Int>.size, "one 32-bit item, which Xlib hands over as a long")

        // A large target inside MULTIPLE goes by INCR like any other.
        requestor.setAtomPairs("PAIRS", [("image/png", "PICTURE")])
        XCTAssertEqual(requestor.convert("MULTIPLE", into: "PAIRS"), requestor.atom("PAIRS"))
        XCTAssertEqual(requestor.receiveIncrementally("PICTURE"), png)

        // A request stamped before the owner took the clipboard is for an older owner's data.
        XCTAssertEqual(requestor.convert("image/png", into: "OLD", time: 1), 0)
    }

    func testWithoutAnXDisplayTheClipboardSaysItTakesTextOnly() {
        XCTAssertThrowsError(try ImageClipboard(environment: ["WAYLAND_DISPLAY": "wayland-0"])) { error in
            XCTAssertEqual(error as? ImageClipboardError,
                           .textOnly(reason: "a Wayland session without Xwayland (DISPLAY is not set)"))
            XCTAssertTrue("\(error)".hasPrefix("the clipboard takes text only here"), "\(error)")
        }
        XCTAssertThrowsError(try ImageClipboard(displayName: ":139")) { error in
            guard case .textOnly = error as? ImageClipboardError else { return XCTFail("\(error)") }
        }
    }

    func testAStoppedClipboardLetsGoAndRefusesOffers() throws {
        let clipboard = try ImageClipboard(displayName: displayName)
        try clipboard.offer(png: Self.pngLike(count: 10), uriList: uri)
        try waitUntil("the owner holds the clipboard") { clipboard.holdsLatestOffer }
        clipboard.stop()
        clipboard.stop()
        XCTAssertFalse(clipboard.holdsLatestOffer)
        XCTAssertThrowsError(try clipboard.offer(png: [1], uriList: "")) { XCTAssertEqual($0 as? ImageClipboardError, .ended) }
        XCTAssertNotEqual(try xclip(["-o", "-t", "image/png"]).status, 0, "nobody owns the clipboard")
    }

    func testTheDisplayGoingAwayEndsTheOwnerNotTheProcess() throws {
        let clipboard = try ImageClipboard(displayName: displayName)
        try clipboard.offer(png: Self.pngLike(count: 10), uriList: uri)
        try waitUntil("the owner holds the clipboard") { clipboard.holdsLatestOffer }
        server?.stop()
        try waitUntil("the owner ends") {
            (try? clipboard.offer(png: [1], uriList: "")) == nil
        }
        XCTAssertThrowsError(try clipboard.offer(png: [1], uriList: "")) { XCTAssertEqual($0 as? ImageClipboardError, .ended) }
        XCTAssertFalse(clipboard.holdsLatestOffer)
    }

    // MARK: Helpers

    private func xclip(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run("xclip", ["-selection", "clipboard"] + arguments, environment: ["DISPLAY": displayName])
    }

    /// What `xclip -selection clipboard -t target -o` pastes; fails the test when it cannot.
    private func paste(_ target: String, file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess {
        let result = try xclip(["-t", target, "-o"])
        XCTAssertEqual(result.status, 0, "xclip -t \(target): \(result.stderr)", file: file, line: line)
        return result
    }

    private func waitUntil(_ what: String, timeout: TimeInterval = 5, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw TimedOut(what: what) }
            usleep(5_000)
        }
    }

    private struct TimedOut: Error, CustomStringConvertible {
        let what: String
        var description: String { "timed out waiting until \(what)" }
    }

    /// Larger than the biggest request an X server takes (16 MiB with BIG-REQUESTS): it goes by INCR.
    private static let beyondOneRequest = 20_000_000

    /// A PNG signature and then noise that no compression shortens, the same for the same seed.
    private static func pngLike(count: Int, seed: UInt64 = 7) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var words = [UInt64](repeating: 0, count: (count + 7) / 8)
        for index in words.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            words[index] = state
        }
        var bytes = words.withUnsafeBytes { Array($0.prefix(count)) }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes.replaceSubrange(0..<min(count, signature.count), with: signature.prefix(count))
        return bytes
    }
}

/// A pasting program written out request by request (ICCCM section 2.4): it asks the CLIPBOARD's owner to
/// convert a target into a property of its own window, and reads and deletes that property as it likes.
private final class RawRequestor {
    private var display: OpaquePointer?
    private let window: CX11.Window

    init(displayName: String) throws {
        guard let display = XOpenDisplay(displayName) else { throw XCTSkip("cannot connect to Xvfb \(displayName)") }
        self.display = display
        window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        XSelectInput(display, window, Int(PropertyChangeMask))
        XSync(display, 0)
    }

    deinit { close() }

    /// Destroys the window and disconnects, as a program that quits does.
    func close() {
        guard let display else { return }
        XDestroyWindow(display, window)
        XCloseDisplay(display)
        self.display = nil
    }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    /// Asks for `target` into `property`: the property the owner's SelectionNotify names, 0 when it refuses,
    /// nil when it does not answer in five seconds.
    func convert(_ target: String, into property: String, time: Time = 0) -> Atom? {
        XConvertSelection(display, atom("CLIPBOARD"), atom(target), atom(property), window, time)
        XFlush(display)
        guard let event = nextEvent(where: { $0.type == SelectionNotify }) else { return nil }
        return event.xselection.property
    }

    /// The property's type and bytes (format 32 items as Xlib hands them over: one long each).
    func property(_ name: String, delete: Bool) -> (type: Atom, bytes: [UInt8]) {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, remaining: UInt = 0
        var value: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, atom(name), 0, Int(Int32.max / 4), delete ? 1 : 0, Atom(AnyPropertyType),
                                 &type, &format, &count, &remaining, &value) == Success, let value else { return (type, []) }
        defer { XFree(value) }
        let size = format == 32 ? Int(count) * MemoryLayout<Int>.size : Int(count) * Int(format) / 8
        return (type, Array(UnsafeBufferPointer(start: value, count: size)))
    }

    func setAtomPairs(_ name: String, _ pairs: [(target: String, property: String)]) {
        let atoms = pairs.flatMap { [Int(bitPattern: atom($0.target)), Int(bitPattern: atom($0.property))] }
        atoms.withUnsafeBytes {
            _ = XChangeProperty(display, window, atom(name), atom("ATOM_PAIR"), 32, PropModeReplace,
                                $0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(atoms.count))
        }
        XSync(display, 0)
    }

    func atomPairs(_ name: String) -> [Atom] {
        property(name, delete: true).bytes.withUnsafeBytes { Array($0.bindMemory(to: Atom.self)) }
    }

    /// Reads an INCR transfer to its end: deletes the property, takes each chunk as it comes (deleting it
    /// asks for the next), until the empty one.
    func receiveIncrementally(_ name: String) -> [UInt8]? {
        guard property(name, delete: true).type == atom("INCR") else { return nil }
        var received: [UInt8] = []
        while true {
            guard awaitNewValue(of: name) else { return nil }
            let chunk = property(name, delete: true).bytes
            if chunk.isEmpty { return received }
            received += chunk
        }
    }

    /// Waits for the owner to write the property.
    func awaitNewValue(of name: String) -> Bool {
        let property = atom(name)
        return nextEvent(where: { $0.type == PropertyNotify && $0.xproperty.state == PropertyNewValue
                                  && $0.xproperty.atom == property }) != nil
    }

    private func nextEvent(where matches: (XEvent) -> Bool) -> XEvent? {
        let deadline = Date().addingTimeInterval(5)
        var event = XEvent()
        while Date() < deadline {
            while XPending(display) > 0 {
                XNextEvent(display, &event)
                if matches(event) { return event }
            }
            usleep(2_000)
        }
        return nil
    }
}
