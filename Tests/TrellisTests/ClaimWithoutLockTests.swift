import Testing
import Trellis
import TrellisTestSupport

// Docs/DESIGN.md, "Claimed without the lock": a singleton nobody else asks for is claimed and
// published without the coordinator's lock; a lookup that would wait for it, or a close, makes
// its owner finish under the lock. These tests race exactly those meetings, for many rounds.

/// A singleton with nothing to inject, which counts its makings and its disposals.
private final class Counted: Disposable, Sendable {
    let made: ConcurrencyCounter
    let disposed = ConcurrencyCounter()
    init(made: ConcurrencyCounter) {
        self.made = made
        made.increment()
    }

    func dispose() { disposed.increment() }
}

private final class AppClock: Sendable {}

/// A handler with properties: made under the lock's steps (it has something to inject), its
/// properties' singletons made without it.
private final class RequestHandler {
    @Inject var user: Counted
    @Inject var cart: Counted
    @Inject var clock: AppClock
}

private struct ClockApp: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { AppClock() }
    }
}

/// A request's context: two counted singletons and a handler that injects them.
private struct CountedRequest: ObjectFactory {
    let userMade = ConcurrencyCounter()
    let cartMade = ConcurrencyCounter()
    let made = Guarded<[Counted]>([])

    var definitions: Definitions {
        createSingleton("user") { [userMade, made] in
            let user = Counted(made: userMade)
            made.withLock { $0.append(user) }
            return user
        }
        createSingleton("cart") { [cartMade, made] in
            let cart = Counted(made: cartMade)
            made.withLock { $0.append(cart) }
            return cart
        }
        createSingleton("handler") { RequestHandler() }
    }
}

/// Six counted singletons a lookup makes one after another while a close races it.
private struct SixCounted: ObjectFactory {
    let made = Guarded<[Counted]>([])
    static let keys = (0..<6).map { "counted\($0)" }

    var definitions: Definitions {
        for key in Self.keys {
            createSingleton(key) { [made] in
                let object = Counted(made: ConcurrencyCounter())
                made.withLock { $0.append(object) }
                return object
            }
        }
    }
}

/// A counted singleton with a property of its own: injected without the lock when nobody else
/// asks for it meanwhile.
private final class CountedHolder: Disposable, @unchecked Sendable {
    // Safe: `part` is written once, by the injection, before the holder is published, and
    // only read after; `disposed` is atomic.
    // Three properties: a longer injection, for the close to meet more often.
    @Inject var part: Counted
    @Inject("part") var second: Counted
    @Inject("part") var third: Counted
    let disposed = ConcurrencyCounter()

    func dispose() { disposed.increment() }
}

/// Six holders of one part, which a lookup makes one after another while a close races it.
private struct SixHolders: ObjectFactory {
    let made = Guarded<[Counted]>([])
    let holders = Guarded<[CountedHolder]>([])
    static let keys = (0..<6).map { "holder\($0)" }

    var definitions: Definitions {
        for key in Self.keys {
            createSingleton(key) { [holders] in
                let holder = CountedHolder()
                holders.withLock { $0.append(holder) }
                return holder
            }
        }
        createSingleton("part") { [made] in
            let object = Counted(made: ConcurrencyCounter())
            made.withLock { $0.append(object) }
            return object
        }
    }
}

@Suite("Singletons claimed without the lock")
struct ClaimWithoutLockTests {
    /// Two threads share each request context: whichever claims a singleton first makes it
    /// without the lock, the other waits for it (turning the first into a locked owner) or finds
    /// it made. Each singleton is made once, both threads get the same objects, and the close
    /// disposes each once.
    @Test func requestContextsSharedByTwoThreadsMakeEachSingletonOnce() throws {
        let app = try ApplicationContext(ClockApp())
        let clock = try app.object("clock", as: AppClock.self)
        let rounds = 150
        let pairs = 4
        let requests = (0..<rounds * pairs).map { _ in CountedRequest() }
        let contexts = try requests.map { try ApplicationContext($0, parent: app) }
        let start = ConcurrencyBarrier(parties: pairs * 2)
        let seen = Guarded<[Int: Set<ObjectIdentifier>]>([:])
        let problems = Guarded<[String]>([])

        let finished = ConcurrencyThreads.run(pairs * 2) { thread in
            for round in 0..<rounds {
                start.arriveAndWait()
                let request = round * pairs + thread / 2
                do {
                    // One thread of the pair starts from the handler, the other from a property.
                    let handler = try contexts[request].object("handler", as: RequestHandler.self)
                    let user = try contexts[request].object("user", as: Counted.self)
                    if handler.user !== user { problems.withLock { $0.append("request \(request): two users") } }
                    if handler.clock !== clock { problems.withLock { $0.append("request \(request): another clock") } }
                    _ = seen.withLock { $0[request, default: []].insert(ObjectIdentifier(handler)) }
                } catch {
                    problems.withLock { $0.append("request \(request): \(error)") }
                }
            }
        }
        try #require(finished, "threads did not finish: a lookup deadlocked")
        #expect(problems.value.isEmpty)
        for (request, context) in contexts.enumerated() {
            #expect(seen.value[request]?.count == 1, "request \(request): the handler was made more than once")
            #expect(requests[request].userMade.value == 1 && requests[request].cartMade.value == 1, "request \(request): made \(requests[request].userMade.value) users, \(requests[request].cartMade.value) carts")
            try context.close()
            for object in requests[request].made.value {
                #expect(object.disposed.value == 1, "request \(request): disposed \(object.disposed.value) times")
            }
        }
    }

    /// A close races a lookup making six singletons, for many rounds: a singleton published
    /// before the close looked is disposed by the close, one finished after it by the lookup
    /// that made it (which then gets `contextClosed`); none is left undisposed, none disposed
    /// twice, and no lookup that began after the close returned gets an object.
    @Test func aCloseRacingLookupsDisposesEverySingletonTheyMadeOnce() throws {
        for round in 0..<300 {
            let factory = SixCounted()
            _ = try raceCloseWithLookups(of: SixCounted.keys, as: Counted.self, in: ApplicationContext(factory), round: round)
            for object in factory.made.value {
                #expect(object.disposed.value == 1, "round \(round): a singleton was disposed \(object.disposed.value) times")
            }
        }
    }

    /// `aCloseRacingLookupsDisposesEverySingletonTheyMadeOnce` for singletons with properties,
    /// injected without the lock: a close that meets one being injected waits for it or leaves
    /// it to its lookup. Every holder a lookup got, and the part, is disposed once; a holder
    /// finished after the close is disposed by its lookup, one whose injection the close made
    /// fail was never made (Docs/Lifecycle.md) and is not: none twice. None is handed out
    /// after the close returned.
    @Test func aCloseRacingLookupsOfSingletonsWithPropertiesDisposesEachOnce() throws {
        for round in 0..<1_000 {
            let factory = SixHolders()
            let got = try raceCloseWithLookups(of: SixHolders.keys, as: CountedHolder.self, in: ApplicationContext(factory), round: round)
            for holder in factory.holders.value {
                if got.contains(ObjectIdentifier(holder)) {
                    #expect(holder.disposed.value == 1, "round \(round): a holder handed out was disposed \(holder.disposed.value) times")
                } else {
                    #expect(holder.disposed.value <= 1, "round \(round): a holder was disposed \(holder.disposed.value) times")
                }
            }
            for part in factory.made.value {
                #expect(part.disposed.value == 1, "round \(round): a part was disposed \(part.disposed.value) times")
            }
        }
    }

    /// One thread closes `context` while another looks up `keys` one after another; checks that
    /// no lookup begun after the close returned got an object, and returns the objects the
    /// lookups got.
    private func raceCloseWithLookups<T: AnyObject>(of keys: [String], as _: T.Type, in context: ApplicationContext, round: Int) throws -> Set<ObjectIdentifier> {
        let start = ConcurrencyBarrier(parties: 2)
        let closeReturned = ConcurrencyFlag()
        let late = Guarded<[String]>([])
        let got = Guarded<Set<ObjectIdentifier>>([])
        let finished = ConcurrencyThreads.run(2) { thread in
            start.arriveAndWait()
            if thread == 0 {
                try? context.close()
                closeReturned.set()
                return
            }
            for key in keys {
                let wasClosed = closeReturned.isSet
                do throws(ContextError) {
                    let object = try context.object(key, as: T.self)
                    _ = got.withLock { $0.insert(ObjectIdentifier(object)) }
                    if wasClosed { late.withLock { $0.append(key) } }
                } catch {
                    guard case .contextClosed = error else {
                        late.withLock { $0.append("\(key): \(error)") }
                        continue
                    }
                }
            }
        }
        try #require(finished, "round \(round): threads did not finish")
        #expect(late.value.isEmpty, "round \(round): after close() returned, lookups got \(late.value)")
        return got.value
    }
}
