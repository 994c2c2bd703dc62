import Testing
import Trellis
import TrellisTestSupport

// Docs/RunningAService.md ("Weak singletons").

/// A model shared by whoever holds it; counts how often it was made.
private final class Cart: Disposable, Sendable {
    let serial: Int
    let store: String
    let disposed: DisposalLog
    init(serial: Int, store: String, disposed: DisposalLog) {
        self.serial = serial
        self.store = store
        self.disposed = disposed
    }
    func dispose() { disposed.record("cart") }
}

private struct CartFactory: ObjectFactory {
    let made = ConcurrencyCounter()
    let disposed = DisposalLog()

    var definitions: Definitions {
        createSingleton("store") { "main store" }
        createWeakSingleton("cart") { [made, disposed] r in
            made.increment()
            return Cart(serial: made.value, store: try r.object("store"), disposed: disposed)
        }
        createWeakSingleton("asyncCart") { [made, disposed] () async in
            await Task.yield()
            made.increment()
            return Cart(serial: made.value, store: "async", disposed: disposed)
        }
    }
}

@Test func aWeakSingletonIsTheSameObjectWhileHeld() throws {
    let factory = CartFactory()
    let app = try ApplicationContext(factory)
    let first: Cart = try app.object("cart")
    let second: Cart = try app.object("cart")
    #expect(first === second)
    #expect(first.store == "main store")
    #expect(factory.made.value == 1)
}

@Test func aWeakSingletonIsMadeAgainAfterItWasFreed() throws {
    let factory = CartFactory()
    let app = try ApplicationContext(factory)
    var held: Cart? = try app.object("cart")
    let freed = ConcurrencyWeak(held!, "cart")
    #expect(held?.serial == 1)
    held = nil
    #expect(freed.object == nil)
    let again: Cart = try app.object("cart")
    #expect(again.serial == 2)
    #expect(factory.made.value == 2)
}

@Test func anAsyncWeakSingletonIsSharedWithSynchronousLookupsWhileAlive() async throws {
    let factory = CartFactory()
    let app = try await ApplicationContext(factory)
    #expect(syncError { try Sync.object(app, "asyncCart", as: Cart.self) } == .requiresAwait(key: "asyncCart", path: ["asyncCart"]))
    let held: Cart = try await app.object("asyncCart")
    #expect(try Sync.object(app, "asyncCart", as: Cart.self) === held)
    #expect(try await app.object("asyncCart", as: Cart.self) === held)
}

@Test func closeDoesNotDisposeAWeakSingleton() throws {
    let factory = CartFactory()
    let app = try ApplicationContext(factory)
    let cart: Cart = try app.object("cart")
    try app.close()
    #expect(factory.disposed.keys.isEmpty)
    #expect(cart.serial == 1)
}

/// A weak singleton whose closure holds until the test opens `release`.
private struct HeldCartFactory: ObjectFactory {
    let entered = ConcurrencyLatch(count: 1)
    let release = ConcurrencyLatch(count: 1)
    let disposed = DisposalLog()

    var definitions: Definitions {
        createWeakSingleton("cart") { [entered, release, disposed] in
            entered.countDown()
            release.wait()
            return Cart(serial: 1, store: "main store", disposed: disposed)
        }
    }
}

@Test func closeDoesNotDisposeAWeakSingletonBeingMadeWhenItBegan() async throws {
    // The lookup that made it gets contextClosed; the context never owned it, so it is released,
    // not disposed (Docs/RunningAService.md).
    let factory = HeldCartFactory()
    let app = try Sync.start(factory)
    let error = Guarded<ContextError?>(nil)
    let done = ConcurrencyThreads.start(1) { _ in
        error.withLock { $0 = syncError { try Sync.object(app, "cart", as: Cart.self) } }
    }
    try #require(factory.entered.wait())
    try Sync.close(app)
    factory.release.countDown()
    try #require(await opensInTime(done))
    #expect(error.value == .contextClosed(context: "HeldCartFactory", key: "cart"))
    #expect(factory.disposed.keys.isEmpty)
}

@Test func descriptionShowsWeakAndWhetherItIsAlive() throws {
    let app = try ApplicationContext(CartFactory())
    let row = { app.description.split(separator: "\n").first { $0.hasPrefix("cart ") }.map(String.init) ?? "" }
    #expect(row().contains("weak"))
    #expect(row().contains("not alive"))
    let cart: Cart = try app.object("cart")
    #expect(row().contains("alive") && !row().contains("not alive"))
    withExtendedLifetime(cart) {}
}

private final class Screen: @unchecked Sendable {
    // Unchecked: written once, by the context, before the screen is shared.
    @Inject var cart: Cart
}

private struct ScreenFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("screen") { Screen() }
    }
}

@Test func aWeakSingletonIsInjectedLikeASingleton() throws {
    let app = try ApplicationContext(CartFactory())
    let screens = try ApplicationContext(ScreenFactory(), parent: app)
    let first: Screen = try screens.object("screen")
    let second: Screen = try screens.object("screen")
    #expect(first.cart === second.cart)
}

@Test func aWeakSingletonIsMadeOnceWhileHeldByManyThreads() throws {
    let factory = CartFactory()
    let app = try ApplicationContext(factory)
    let threads = 8, rounds = 5
    let barrier = ConcurrencyBarrier(parties: threads)
    let seen = Guarded<[Int: Set<Int>]>([:])
    #expect(ConcurrencyThreads.run(threads) { _ in
        for round in 0..<rounds {
            barrier.arriveAndWait()
            var held: [Cart] = []
            for _ in 0..<20 { if let cart = try? app.object("cart", as: Cart.self) { held.append(cart) } }
            seen.withLock { $0[round, default: []].formUnion(held.map(\.serial)) }
            // Everyone holds the round's cart until all have looked it up.
            barrier.arriveAndWait()
            held = []
        }
    })
    // One cart per round: made once while held, made again after every holder let go.
    #expect(seen.value.values.allSatisfy { $0.count == 1 })
    #expect(factory.made.value == rounds)
}

@Test func theLastHolderLettingGoDuringALookupIsSafe() throws {
    let factory = CartFactory()
    let app = try ApplicationContext(factory)
    let failures = ConcurrencyCounter()
    let barrier = ConcurrencyBarrier(parties: 4)
    #expect(ConcurrencyThreads.run(4) { _ in
        barrier.arriveAndWait()
        for _ in 0..<300 {
            // Looked up and dropped at once: the object is freed while others look it up.
            guard let cart = try? app.object("cart", as: Cart.self), cart.store == "main store" else {
                failures.increment()
                continue
            }
        }
    })
    #expect(failures.value == 0)
    #expect(factory.made.value >= 1)
}

@Test func anAsyncWeakSingletonIsMadeOnceWhileHeldByManyTasks() async throws {
    let factory = CartFactory()
    let app = try await ApplicationContext(factory)
    let carts = await withTaskGroup(of: Cart?.self) { group in
        for _ in 0..<16 { group.addTask { try? await app.object("asyncCart", as: Cart.self) } }
        var carts: [Cart] = []
        for await cart in group { if let cart { carts.append(cart) } }
        return carts
    }
    #expect(carts.count == 16)
    #expect(Set(carts.map(ObjectIdentifier.init)).count == 1)
    #expect(factory.made.value == 1)
}
