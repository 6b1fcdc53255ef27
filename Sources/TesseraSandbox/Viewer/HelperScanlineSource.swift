#if canImport(Glibc)
import Glibc
#endif
import CTesseraSandbox
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// The tile cutter's rows read in a decode helper: a rows exchange (see `tessera_sandbox.h`) on one helper
/// taken from the pool for the cut's whole length. The helper runs `ScanlineSources.open` and the row
/// readers, the code `--decode-in-process` runs here, and writes the rows into a memfd this side maps;
/// the socket carries only the fixed messages.
///
/// The memfd holds two halves of rows. While the cutter copies rows out of one half and reduces and
/// encodes them, the helper already decodes the next rows into the other: each half is asked for again
/// as soon as its rows are copied out. Each wait for a half has the pool's time limit, so the watchdog
/// bounds a band, not a whole cut, and polls `isCancelled`, so a cancelled cut stops within a moment.
///
/// A helper that dies or runs out of time gives the cutter `.decoderFailed` and is replaced. An exchange
/// left with rows still being decoded (a cancelled cut, a cut whose output failed) ends by killing its
/// helper and starting another, since the helper may be deep in a decode; one that ends at its last row
/// or after the helper's refusal hands its helper back. Used by one thread, as every `ScanlineSource`.
final class HelperScanlineSource: ScanlineSource {
    let width: Int, height: Int, isGrayscale: Bool, hasAlpha: Bool
    let colourSpace: ColourSpace
    private let pool: DecodeHelperPool
    /// Nil once the exchange is over.
    private var helper: DecodeHelperProcess?
    private let memory: UnsafeRawPointer
    private let mappedBytes: Int
    private let rowsPerHalf: Int, halfBytes: Int
    private let isCancelled: (@Sendable () -> Bool)?
    /// The image's path, for the log.
    private let name: String
    private struct Rows { var half: Int, first: Int, count: Int }
    /// Rows asked for and not yet arrived, oldest first (the helper answers in order).
    private var asked: [Rows] = []
    /// The arrived half rows are copied out of.
    private var current: Rows?
    /// The next row handed to the cutter, and the first row not asked for yet.
    private var nextRow = 0, nextAsked = 0
    /// The helper refused rows: it refuses every later request of the exchange at once.
    private var refused = false
    /// The helper runs below the viewer's priority: no process can raise its own priority back, so at the
    /// exchange's end it is replaced rather than handed back.
    private var lowered = false

    /// Opens `file` in a helper of `pool`; the cutter's reasons come back as they would in process.
    ///
    /// A cut at the pool's own priority (`tessera tile`'s, whose one helper warms up the image's format)
    /// tries any helper first: one that did not warm up the file's format refuses it unread, and is
    /// stopped, and the exchange goes to one that serves every format. A cut below it (the viewer's, of a
    /// giant image) takes a helper that serves every format at once, leaving the first helper, warmed up
    /// for the image opened, to the decodes the user waits for.
    static func open(_ file: ImageFile, pool: DecodeHelperPool, pixelLimitForWholeDecode: Int,
                     priority: WorkerPriority = .normal,
                     isCancelled: (@Sendable () -> Bool)?) throws(TileCutError.Reason) -> HelperScanlineSource {
        let triesAnyHelper = priority == pool.configuration.priority
        let helper: DecodeHelperProcess
        do { helper = try pool.borrow(servingEveryFormat: !triesAnyHelper) } catch { throw .decoderFailed(error) }
        if let source = try open(file, on: helper, pool: pool, pixelLimitForWholeDecode: pixelLimitForWholeDecode,
                                 priority: priority, isCancelled: isCancelled) {
            return source
        }
        if isCancelled?() == true { throw .cancelled }
        let everyFormat: DecodeHelperProcess
        do { everyFormat = try pool.borrow() } catch { throw .decoderFailed(error) }
        // A helper that serves every format refuses no format unread.
        return try open(file, on: everyFormat, pool: pool, pixelLimitForWholeDecode: pixelLimitForWholeDecode,
                        priority: priority, isCancelled: isCancelled)!
    }

    /// The exchange on `helper`, or nil when the helper did not warm up the file's format (it is stopped).
    private static func open(_ file: ImageFile, on helper: DecodeHelperProcess, pool: DecodeHelperPool,
                             pixelLimitForWholeDecode: Int, priority: WorkerPriority,
                             isCancelled: (@Sendable () -> Bool)?) throws(TileCutError.Reason) -> HelperScanlineSource? {
        // A pool whose helpers already run at this priority gets its helper back as it lent it.
        let lowered = priority != pool.configuration.priority && priority.apply(toProcess: helper.pid)
        let timeLimit = pool.configuration.timeLimit
        if let failure = helper.awaitReady(timeLimit: timeLimit) {
            pool.replace(helper, failedOn: file.path, failure)
            throw .decoderFailed(failure)
        }
        let (request, tail) = DecodeHelperRowsWire.opening(pixelLimit: pixelLimitForWholeDecode, name: file.path)
        guard file.withDescriptor({ helper.send(request, tail: tail, descriptor: $0) }) else {
            let failure = helper.death()
            pool.replace(helper, failedOn: file.path, failure)
            throw .decoderFailed(failure)
        }
        switch helper.receive(timeLimit: timeLimit, isCancelled: isCancelled) {
        case .failed(let failure):
            pool.replace(helper, failedOn: file.path, failure)
            throw .decoderFailed(failure)
        case .cancelled:
            pool.replace(helper)
            throw .cancelled
        case .reply(let reply, let memfd):
            defer { if memfd >= 0 { close(memfd) } }
            if reply.status == DecodeHelperWire.formatNotLoadedStatus, !helper.servesEveryFormat {
                helper.terminate()
                return nil
            }
            guard reply.status == 0 else {
                // A refused opening is no exchange: the helper waits for the next request.
                if lowered { pool.replace(helper) } else { pool.giveBack(helper) }
                throw DecodeHelperRowsWire.reason(from: reply)
            }
            let source: HelperScanlineSource
            do {
                source = try HelperScanlineSource(pool: pool, helper: helper, reply: reply, memfd: memfd, name: file.path,
                                                  isCancelled: isCancelled)
                source.lowered = lowered
            } catch {
                pool.replace(helper)
                throw error
            }
            try source.ask(half: 0)
            try source.ask(half: 1)
            return source
        }
    }

    /// Maps the rows memfd of an opening's reply, trusting no size the helper sent beyond what the memfd
    /// holds.
    private init(pool: DecodeHelperPool, helper: DecodeHelperProcess, reply: tessera_decode_reply, memfd: Int32,
                 name: String, isCancelled: (@Sendable () -> Bool)?) throws(TileCutError.Reason) {
        func broken(_ why: String) -> TileCutError.Reason { .decoderFailed(.unavailable(why)) }
        guard reply.width > 0, reply.height > 0, let halfBytes = DecodeHelperRowsWire.halfBytes(width: Int(reply.width)) else {
            throw broken("the helper's rows have no size")
        }
        var st = stat()
        let (needed, overflow) = (2 * halfBytes).addingReportingOverflow(Int(reply.profile_length))
        // Sealed against shrinking: the helper cannot pull pages out from under this mapping.
        guard memfd >= 0, tessera_memfd_cannot_shrink(memfd) != 0, fstat(memfd, &st) == 0, !overflow,
              Int(st.st_size) >= needed else {
            throw broken("the helper's rows memfd does not match its reply")
        }
        guard let memory = mmap(nil, needed, PROT_READ, MAP_SHARED, memfd, 0), memory != MAP_FAILED else {
            throw .unreadable(POSIXFiles.errorText(errno))
        }
        self.memory = UnsafeRawPointer(memory)
        mappedBytes = needed
        let profile = Array(UnsafeRawBufferPointer(start: memory + 2 * halfBytes, count: Int(reply.profile_length)))
        width = Int(reply.width)
        height = Int(reply.height)
        isGrayscale = reply.grayscale != 0
        hasAlpha = reply.alpha != 0
        colourSpace = DecodeHelperRowsWire.colourSpace(of: reply, profile: profile)
        rowsPerHalf = DecodeHelperRowsWire.rowsPerHalf(width: width)
        self.halfBytes = halfBytes
        self.pool = pool
        self.helper = helper
        self.isCancelled = isCancelled
        self.name = name
    }

    deinit {
        if let helper {
            if !lowered && endedCleanly(helper) { pool.giveBack(helper) } else { pool.replace(helper) }
        }
        munmap(UnsafeMutableRawPointer(mutating: memory), mappedBytes)
    }

    /// Ends an exchange the cutter left before its end. Rows asked for and not read may still be decoding
    /// (then the helper is not waited for: false); after a refusal they are refused at once, and the end,
    /// before the last row, checks nothing.
    private func endedCleanly(_ helper: DecodeHelperProcess) -> Bool {
        guard asked.isEmpty || refused else { return false }
        for _ in asked {
            guard case .reply(_, let fd) = helper.receive(timeLimit: pool.configuration.timeLimit) else { return false }
            if fd >= 0 { close(fd) }
        }
        guard helper.send(DecodeHelperRowsWire.end),
              case .reply(_, let fd) = helper.receive(timeLimit: pool.configuration.timeLimit) else { return false }
        if fd >= 0 { close(fd) }
        return true
    }

    func readRows(into first: UnsafeMutableRawPointer, stride: Int, count: Int) throws(TileCutError.Reason) {
        guard nextRow + count <= height else { throw .corrupt("read past the last row") }
        let rowBytes = width * 4
        var done = 0
        while done < count {
            let rows: Rows
            if let current { rows = current } else { rows = try receive() }
            let n = min(count - done, rows.first + rows.count - nextRow)
            let from = memory + rows.half * halfBytes + (nextRow - rows.first) * rowBytes
            if stride == rowBytes {
                (first + done * stride).copyMemory(from: from, byteCount: n * rowBytes)
            } else {
                for i in 0..<n { (first + (done + i) * stride).copyMemory(from: from + i * rowBytes, byteCount: rowBytes) }
            }
            nextRow += n
            done += n
            if nextRow == rows.first + rows.count {
                current = nil
                try ask(half: rows.half)
            } else {
                current = rows
            }
        }
    }

    /// Ends the exchange: after the last row the helper checks the rest of the file (a JPEG that lost its
    /// tail is truncated), and the helper goes back to the pool.
    func finish() throws(TileCutError.Reason) {
        guard let helper else { throw .decoderFailed(.unavailable("the exchange is over")) }
        guard asked.isEmpty else { throw .corrupt("finished before the last row") }
        guard helper.send(DecodeHelperRowsWire.end) else { throw fail(helper.death()) }
        switch helper.receive(timeLimit: pool.configuration.timeLimit, isCancelled: isCancelled) {
        case .failed(let failure): throw fail(failure)
        case .cancelled:
            // The helper is checking the file's end: it is not waited for.
            self.helper = nil
            pool.replace(helper)
            throw .cancelled
        case .reply(let reply, let fd):
            if fd >= 0 { close(fd) }
            self.helper = nil
            if lowered { pool.replace(helper) } else { pool.giveBack(helper) }
            if reply.status != 0 { throw DecodeHelperRowsWire.reason(from: reply) }
        }
    }

    /// Asks for the rows after those asked for so far, into `half`, if any are left.
    private func ask(half: Int) throws(TileCutError.Reason) {
        guard nextAsked < height, let helper else { return }
        let rows = Rows(half: half, first: nextAsked, count: min(rowsPerHalf, height - nextAsked))
        guard helper.send(DecodeHelperRowsWire.rows(count: rows.count, half: half)) else { throw fail(helper.death()) }
        asked.append(rows)
        nextAsked += rows.count
    }

    /// Waits for the oldest rows asked for.
    private func receive() throws(TileCutError.Reason) -> Rows {
        guard let helper, let rows = asked.first else { throw .corrupt("read past the last row") }
        switch helper.receive(timeLimit: pool.configuration.timeLimit, isCancelled: isCancelled) {
        case .failed(let failure): throw fail(failure)
        case .cancelled: throw .cancelled
        case .reply(let reply, let fd):
            if fd >= 0 { close(fd) }
            asked.removeFirst()
            guard reply.status == 0 else {
                refused = true
                throw DecodeHelperRowsWire.reason(from: reply)
            }
            return rows
        }
    }

    /// The helper died: the exchange is over and the pool replaces it.
    private func fail(_ failure: DecodeHelperFailure) -> TileCutError.Reason {
        if let helper {
            self.helper = nil
            pool.replace(helper, failedOn: name, failure)
        }
        return .decoderFailed(failure)
    }
}
