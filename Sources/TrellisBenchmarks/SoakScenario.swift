#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Trellis

// `soak` (issue 21): a server's life in one run. Request contexts are made, used every way the
// public API allows, and dropped; the resident memory must not grow. Not part of the default
// run (all scenarios): it checks memory, not speed, and adds about 20 s in release.

protocol SoakPlugin: AnyObject {}
final class SoakClock: SoakPlugin, Sendable {}
final class SoakStore: SoakPlugin, Disposable, Sendable {
    let clock: SoakClock
    init(clock: SoakClock) { self.clock = clock }
    func dispose() {}
}
final class SoakSession: SoakPlugin, Disposable, Sendable {
    let id: Int
    let store: SoakStore
    init(id: Int, store: SoakStore) {
        self.id = id
        self.store = store
    }
    func dispose() {}
}
final class SoakHandler: SoakPlugin, InjectionAware {
    @Inject var session: SoakSession
    @Inject var storage: SoakStore
    @Inject(.lazy) var clock: SoakClock
    func didInject(from context: ApplicationContext) {}
}
/// Made with its plain `init` (for `inject(into:)`, `withCurrent` and the default context).
final class SoakScreen {
    @Inject var session: SoakSession
    @Inject var storage: SoakStore
}

/// The application: three singletons (one eager) and a prototype, all plugins.
struct SoakAppFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("clock") { SoakClock() }
        createSingleton("store") { r in SoakStore(clock: try r.object("clock")) }.aliases("storage")
        createPrototype("probe") { SoakClock() }
    }
}

/// One request's context: a singleton holding the request's number, a prototype handler.
struct SoakRequestFactory: ObjectFactory {
    let id: Int
    var definitions: Definitions {
        createSingleton("session") { [id] r in SoakSession(id: id, store: try r.object("storage")) }
        createPrototype("handler") { SoakHandler() }
    }
}

private struct SoakFailure: Error {}

/// A request context whose start fails after making a singleton.
struct SoakFailingFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("session") { r in SoakSession(id: -1, store: try r.object("storage")) }
        createEagerSingleton("broken") { () throws -> SoakClock in throw SoakFailure() }
    }
}

/// A request context whose async start waits until it is cancelled.
struct SoakCancelledFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("fast") { () async -> SoakClock in SoakClock() }
        createEagerSingleton("slow") { () async throws -> SoakClock in
            while !Task.isCancelled { await Task.yield() }
            throw CancellationError()
        }
    }
}

/// Every synchronous operation on one request context, then `close()`.
private func synchronousRequest(_ id: Int, app: ApplicationContext, validating: Bool) {
    let request = try! ApplicationContext(SoakRequestFactory(id: id), parent: app)
    blackHole(try! request.object("session", as: SoakSession.self))
    blackHole(try! request.object("storage", as: SoakStore.self))
    blackHole(try! request.object("handler", as: SoakHandler.self))
    blackHole(try! request.object(of: SoakSession.self))
    blackHole(try! request.objects(of: (any SoakPlugin).self))
    blackHole(try! request.objects(of: AnyObject.self))
    let screen = SoakScreen()
    try! request.inject(into: screen)
    blackHole(screen.session)
    blackHole(request.description)
    blackHole(request.graph(.dot))
    blackHole(request.graph(.mermaid))
    blackHole(request.startupReport.description)
    request.withCurrent { blackHole(try! SoakScreen().$session.get()) }
    ApplicationContext.setDefault(request)
    blackHole(try! SoakScreen().$storage.get())
    ApplicationContext.setDefault(nil)
    if validating {
        precondition(ApplicationContext.validate(SoakRequestFactory(id: id), parent: app).problems.isEmpty)
        precondition(request.validate().problems.isEmpty)
        if (try? ApplicationContext(SoakFailingFactory(), parent: app)) != nil { fatalError("the failing start started") }
    }
    try! request.close()
}

/// Every async operation on one request context, then `close()`.
private func asyncRequest(_ id: Int, app: ApplicationContext, validating: Bool) async {
    let request = try! await ApplicationContext(SoakRequestFactory(id: id), parent: app)
    blackHole(try! await request.object("session", as: SoakSession.self))
    blackHole(try! await request.object("handler", as: SoakHandler.self))
    blackHole(try! await request.object(of: SoakSession.self))
    blackHole(try! await request.objects(of: (any SoakPlugin).self))
    let screen = SoakScreen()
    try! await request.inject(into: screen)
    blackHole(screen.storage)
    try! await request.withCurrent { blackHole(try await SoakScreen().$session.get()) }
    if validating {
        let reports = [await ApplicationContext.validate(SoakRequestFactory(id: id), parent: app), await request.validate()]
        precondition(reports.allSatisfy { $0.problems.isEmpty })
        if (try? await ApplicationContext(SoakFailingFactory(), parent: app)) != nil { fatalError("the failing start started") }
        let start = Task { try await ApplicationContext(SoakCancelledFactory(), parent: app) }
        start.cancel()
        if (try? await start.value) != nil { fatalError("the cancelled start started") }
    }
    try! await request.close()
}

/// The process's resident memory in bytes (Linux: /proc/self/statm, no Foundation); `nil`
/// where it cannot be read.
private func residentBytes() -> Int? {
    #if os(Linux)
    let file = open("/proc/self/statm", O_RDONLY)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count - 1) }
    guard count > 0 else { return nil }
    // "size resident shared …", in pages.
    let fields = buffer[0..<count].split(separator: UInt8(ascii: " "))
    guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return nil
    #endif
}

/// `soak`: `requests` request contexts (children of one application context), each doing
/// every public operation, synchronous and async: lookups by key, alias and type,
/// `object(of:)`, `objects(of:)`, `inject(into:)`, `description`, `graph`, `startupReport`,
/// `withCurrent`, `setDefault` then `setDefault(nil)`, and `close`. Every tenth request also
/// validates (static and instance, both forms) and makes a failed start (both forms) and a
/// cancelled async start: they build scratch contexts, the costliest operations by far. Prints
/// the resident memory after a warm-up of `warmUp` requests and at the end, and the growth.
/// `TRELLIS_SOAK_REQUESTS` in the environment changes the number of requests.
func soak(_ report: Report, warmUp: Int = 10_000) {
    let requests = getenv("TRELLIS_SOAK_REQUESTS").flatMap { Int(String(cString: $0)) } ?? 100_000
    guard residentBytes() != nil else {
        print("soak skipped: resident memory is read from /proc/self/statm (Linux only)")
        return
    }
    let app = try! ApplicationContext(SoakAppFactory())
    func run(_ range: Range<Int>) {
        for id in range {
            let validating = id.isMultiple(of: 10)
            synchronousRequest(id, app: app, validating: validating)
            blockingOn { await asyncRequest(id, app: app, validating: validating) }
        }
    }
    run(0..<warmUp)
    let afterWarmUp = residentBytes()!
    let start = ContinuousClock.now
    run(warmUp..<(warmUp + requests))
    let seconds = nanoseconds(since: start) / 1e9
    let atEnd = residentBytes()!
    report.row("soak", "requests", Double(requests), "requests", decimals: 0)
    report.row("soak", "seconds", seconds, "s")
    report.row("soak", "resident-after-warm-up", Double(afterWarmUp) / 1024, "KiB", decimals: 0)
    report.row("soak", "resident-at-end", Double(atEnd) / 1024, "KiB", decimals: 0)
    report.row("soak", "growth", Double(atEnd - afterWarmUp) / 1024, "KiB", decimals: 0)
    if atEnd - afterWarmUp > 1 << 20 { print("soak FAILED: resident memory grew by more than 1 MiB") }
}
