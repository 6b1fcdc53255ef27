import Foundation
import Synchronization

/// `count` results of `work`, made on up to `width` threads of their own at once, in order: for calls that
/// mostly wait (network reads), which would hold a worker of the shared pools for as long. The calling thread
/// waits for them all.
package func sideBySide<Value: Sendable>(_ count: Int, width: Int = 6, _ work: @escaping @Sendable (Int) -> Value) -> [Value] {
    guard count > 1 else { return (0..<count).map(work) }
    let next = Mutex(0), results = Mutex([Int: Value]())
    let group = DispatchGroup()
    for _ in 0..<min(width, count) {
        group.enter()
        Thread.detachNewThread {
            while true {
                let index = next.withLock { index -> Int in
                    defer { index += 1 }
                    return index
                }
                guard index < count else { break }
                let value = work(index)
                results.withLock { $0[index] = value }
            }
            group.leave()
        }
    }
    group.wait()
    return results.withLock { results in (0..<count).map { results[$0]! } }
}
