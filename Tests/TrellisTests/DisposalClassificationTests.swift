import Testing
import Trellis

// Docs/Lifecycle.md, "Closing": a singleton is disposed when a cast to the protocol finds it
// disposable — an optional through the object it wraps, an `AnyHashable` through its base — and a
// type adopting neither protocol is never disposed. The answer for a type is kept per type, so
// these pin every kind of value a close classifies without a cast, and the ones it must cast.

/// A disposable value that can be wrapped in an `AnyHashable`.
private struct HashableToken: Disposable, Hashable, Sendable {
    let key: String
    let log: DisposalLog
    func dispose() { log.record(key) }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
    func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

/// A disposable enum: value types of every kind adopt the protocol.
private enum DisposableChoice: Disposable, Sendable {
    case only(DisposalLog)
    func dispose() { if case let .only(log) = self { log.record("choice") } }
}

/// A struct adopting neither protocol, whose field is disposable: a close does not look inside.
private struct PlainHolder: Sendable {
    let probe: DisposableProbe
}

private struct WrappedValuesFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "Wrapped" }

    var definitions: Definitions {
        createSingleton("optionalProbe") { [log] in DisposableProbe("optionalProbe", log: log) as DisposableProbe? }
        createSingleton("nestedOptional") { [log] in DisposableProbe("nestedOptional", log: log) as DisposableProbe?? }
        createSingleton("noneProbe") { nil as DisposableProbe? }
        createSingleton("hashed") { [log] in AnyHashable(HashableToken(key: "hashed", log: log)) }
        createSingleton("choice") { [log] in DisposableChoice.only(log) }
        createSingleton("holder") { [log] in PlainHolder(probe: DisposableProbe("inHolder", log: log)) }
        createSingleton("asDisposable") { [log] in HashableToken(key: "asDisposable", log: log) as any Disposable }
        createSingleton("asAny") { [log] in HashableToken(key: "asAny", log: log) as Any }
        createSingleton("asHashable") { [log] in HashableToken(key: "asHashable", log: log) as any Hashable & Sendable }
        createSingleton("number") { 42 }
        createSingleton("pair") { (1, "two") }
    }
}

@Suite("Close: what a cast to the disposal protocols finds")
struct DisposalClassificationTests {
    /// Makes every singleton of the factory, twice over in two contexts (the second close reads
    /// what the first learned of each type), and returns what each close disposed.
    private func disposedByTwoCloses() throws -> [[String]] {
        var rounds: [[String]] = []
        for _ in 0..<2 {
            let log = DisposalLog()
            let context = try ApplicationContext(WrappedValuesFactory(log: log))
            _ = try context.object("optionalProbe", as: DisposableProbe?.self)
            _ = try context.object("nestedOptional", as: DisposableProbe??.self)
            _ = try context.object("noneProbe", as: DisposableProbe?.self)
            _ = try context.object("hashed", as: AnyHashable.self)
            _ = try context.object("choice", as: DisposableChoice.self)
            _ = try context.object("holder", as: PlainHolder.self)
            _ = try context.object("asDisposable", as: (any Disposable).self)
            _ = try context.object("asAny", as: Any.self)
            _ = try context.object("asHashable", as: (any Hashable & Sendable).self)
            _ = try context.object("number", as: Int.self)
            _ = try context.object("pair", as: (Int, String).self)
            try context.close()
            rounds.append(log.keys.sorted())
        }
        return rounds
    }

    @Test func singletonsMadeAsOptionalsAreDisposedThroughTheObjectTheyWrap() throws {
        for disposed in try disposedByTwoCloses() {
            #expect(disposed.contains("optionalProbe"))
            #expect(disposed.contains("nestedOptional"))
        }
    }

    @Test func anAnyHashableSingletonIsDisposedThroughItsBase() throws {
        for disposed in try disposedByTwoCloses() {
            #expect(disposed.contains("hashed"))
        }
    }

    @Test func aDisposableEnumSingletonIsDisposed() throws {
        for disposed in try disposedByTwoCloses() {
            #expect(disposed.contains("choice"))
        }
    }

    @Test func aValueDeclaredAsAnExistentialIsDisposedThroughWhatItHolds() throws {
        // Its declared type (`any Disposable`, `Any`, `any Hashable & Sendable`) says nothing of
        // the value it holds: the close casts the value.
        for disposed in try disposedByTwoCloses() {
            #expect(disposed.contains("asDisposable"))
            #expect(disposed.contains("asAny"))
            #expect(disposed.contains("asHashable"))
        }
    }

    @Test func valuesAdoptingNeitherProtocolAreNotDisposedNorLookedInto() throws {
        for disposed in try disposedByTwoCloses() {
            #expect(disposed == ["asAny", "asDisposable", "asHashable", "choice", "hashed", "nestedOptional", "optionalProbe"])
        }
    }

    @Test func aStructSingletonAdoptingNeitherProtocolLeavesTheAsyncCloseUnchanged() async throws {
        let log = DisposalLog()
        let context = try await ApplicationContext(WrappedValuesFactory(log: log))
        _ = try await context.object("holder", as: PlainHolder.self)
        _ = try await context.object("hashed", as: AnyHashable.self)
        try await context.close()
        #expect(log.keys == ["hashed"])
    }
}
