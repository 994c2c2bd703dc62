import Synchronization
import Testing
import Trellis
import TrellisTestSupport

// The small app the trait tests use: a shop whose mailer tests replace with recording doubles.

protocol ShopMailer: Sendable {
    /// Which factory made it: "production", or the tag of a double.
    var tag: String { get }
    func send(_ message: Int)
    var sent: [Int] { get }
}

final class ProductionMailer: ShopMailer {
    let tag = "production"
    private let outbox = Guarded<[Int]>([])
    func send(_ message: Int) { outbox.withLock { $0.append(message) } }
    var sent: [Int] { outbox.withLock { $0 } }
}

/// A double that records what it sends.
final class RecordingMailer: ShopMailer {
    let tag: String
    private let outbox = Guarded<[Int]>([])
    init(tag: String) { self.tag = tag }
    func send(_ message: Int) { outbox.withLock { $0.append(message) } }
    var sent: [Int] { outbox.withLock { $0 } }
}

/// A number no other context gets: each context makes its own token at start.
final class ContextToken: Sendable {
    private static let next = Atomic<Int>(0)
    let number = ContextToken.next.add(1, ordering: .relaxed).newValue
}

/// State a test changes: a fresh context has it untouched.
final class Scratchpad: Sendable {
    private let claimed = Atomic<Bool>(false)
    /// `true` for the first caller only.
    func claim() -> Bool { claimed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged }
}

/// Disposed when its context closes.
final class ShopResource: Disposable, Sendable {
    private let disposals = Atomic<Int>(0)
    var disposeCount: Int { disposals.load(ordering: .relaxed) }
    func dispose() { disposals.add(1, ordering: .relaxed) }
}

/// Made by the tests with its plain `init`: its properties resolve from the test's context.
final class CheckoutFlow {
    @Inject var mailer: any ShopMailer
    @Inject var token: ContextToken
    @Inject var scratchpad: Scratchpad

    func confirm(_ order: Int) { mailer.send(order) }
}

struct ShopFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("token") { ContextToken() }
        createSingleton("mailer") { ProductionMailer() as any ShopMailer }
        createSingleton("scratchpad") { Scratchpad() }
        createSingleton("resource") { ShopResource() }
        createPrototype("checkout") { CheckoutFlow() }
    }
}

/// Replaces the mailer with a recording double carrying `tag`.
struct TaggedDoubles: ObjectFactory {
    let tag: String
    var definitions: Definitions {
        createSingleton("mailer") { [tag] in RecordingMailer(tag: tag) as any ShopMailer }
    }
}

/// Every context token a test case saw, to prove no two test cases share a context.
enum SeenTokens {
    private static let numbers = Guarded<Set<Int>>([])

    /// `true` if no other test case recorded `number` before.
    static func recordFirst(_ number: Int) -> Bool {
        numbers.withLock { $0.insert(number).inserted }
    }
}

/// The checks every test case using the trait makes: a context is current, fresh (no other test
/// case has seen its token, its scratchpad is untouched), the mailer is the double tagged `tag`,
/// and what the test sends is all the double has seen, also after other tests ran in between.
func expectOwnFreshContext(tag: String, argument: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let context = try #require(ApplicationContext.current, sourceLocation: sourceLocation)
    let flow = CheckoutFlow()
    #expect(SeenTokens.recordFirst(flow.token.number), "another test case used this context", sourceLocation: sourceLocation)
    #expect(flow.scratchpad.claim(), "another test case changed this context", sourceLocation: sourceLocation)
    #expect(flow.mailer.tag == tag, sourceLocation: sourceLocation)
    flow.confirm(argument)
    for _ in 0..<3 { await Task.yield() }    // let the other test cases interleave
    let later = CheckoutFlow()
    later.confirm(argument)
    #expect(later.mailer.sent == [argument, argument], sourceLocation: sourceLocation)
    #expect(ApplicationContext.current === context, sourceLocation: sourceLocation)
}
