import Testing
import Trellis
import TrellisTesting
import TrellisTestSupport

// Hypo's `hypo_new:` in Trellis: the test makes its subject with the subject's plain `init`, sets
// the one collaborator it wants to control to a double, and lets the current context (the
// trait's) fill in every other `@Inject` property on first read.

protocol PaymentGateway: Sendable {
    func charge(_ cents: Int) -> Bool
}

final class CardGateway: PaymentGateway {
    func charge(_ cents: Int) -> Bool { cents > 0 }
}

/// A double that declines every charge and records the attempts.
final class DecliningGateway: PaymentGateway {
    private let attempts = Guarded<[Int]>([])
    var charged: [Int] { attempts.withLock { $0 } }
    func charge(_ cents: Int) -> Bool {
        attempts.withLock { $0.append(cents) }
        return false
    }
}

final class Receipts: Sendable {
    private let lines = Guarded<[String]>([])
    var printed: [String] { lines.withLock { $0 } }
    func print(_ line: String) { lines.withLock { $0.append(line) } }
}

/// The subject: its collaborators come from `@Inject` properties.
final class OrderDesk {
    @Inject var payments: any PaymentGateway
    @Inject var mailer: any ShopMailer
    @Inject var receipts: Receipts
    @Inject var currency: String = "EUR"

    func place(order: Int, cents: Int) -> Bool {
        guard payments.charge(cents) else {
            receipts.print("order \(order) declined")
            return false
        }
        mailer.send(order)
        receipts.print("order \(order): \(cents) \(currency)")
        return true
    }
}

struct DeskFactory: ObjectFactory {
    var definitions: Definitions {
        ShopFactory().definitions
        createSingleton("payments") { CardGateway() as any PaymentGateway }
        createSingleton("receipts") { Receipts() }
        createSingleton("currency") { "CHF" }
    }
}

@Suite struct HypoPatternTests {
    @Test(.context(DeskFactory()))
    func aPlainInitSubjectWithOneDoublePresetGetsTheRestFromTheContext() throws {
        let desk = OrderDesk()                     // hypo_new: the plain init
        let gateway = DecliningGateway()
        desk.payments = gateway                    // the one double, set before the first read

        #expect(!desk.place(order: 1, cents: 500))
        #expect(gateway.charged == [500])
        // Everything else came from the trait's context.
        let context = try #require(ApplicationContext.current)
        #expect(desk.receipts === (try context.object("receipts", as: Receipts.self)))
        #expect(desk.receipts.printed == ["order 1 declined"])
        #expect(desk.mailer.sent == [])
        #expect(desk.currency == "CHF")
    }

    @Test(.context(DeskFactory(), overriding: TaggedDoubles(tag: "recording")))
    func presetsAndOverridesCombine() throws {
        let desk = OrderDesk()
        desk.currency = "USD"                      // a preset replaces the context's value
        #expect(desk.place(order: 2, cents: 300))
        #expect(desk.mailer.tag == "recording")   // the override's double
        #expect(desk.mailer.sent == [2])
        #expect(desk.receipts.printed == ["order 2: 300 USD"])
    }

    @Test(.context(DeskFactory()), arguments: [100, 0])
    func eachArgumentsSubjectGetsItsOwnCollaborators(cents: Int) throws {
        let desk = OrderDesk()
        let placed = desk.place(order: cents, cents: cents)
        #expect(placed == (cents > 0))
        // The receipts singleton is this test case's: it holds only this order's line.
        #expect(desk.receipts.printed.count == 1)
    }
}
