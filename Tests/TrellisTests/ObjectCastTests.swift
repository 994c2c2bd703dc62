import Testing
import TrellisTestSupport
@testable import Trellis

// A class's instances cast to another type are cast by a template learned from the first
// (Docs/DESIGN.md, "A class instance as a protocol, without the runtime"): every later cast must
// give the same value the runtime would, for every kind of target, and hold nothing.

private protocol Named: AnyObject { var name: String { get } }
private protocol Numbered { var number: Int { get } }
private protocol Both: Named, Numbered {}
private class Paper {}
private final class Letter: Paper, Both {
    let name: String
    let number: Int
    init(_ number: Int) { self.number = number; name = "letter \(number)" }
}
private final class Parcel: Named {
    let name = "parcel"
}
private final class Stone {}
/// Cast only by the threads test, so its first cast races.
private protocol Sealed: AnyObject { var seal: Int { get } }
private final class Envelope: Sealed, Sendable {
    let seal: Int
    init(_ seal: Int) { self.seal = seal }
}
private final class Mishap: Error {}

private func same(_ first: AnyObject?, _ second: AnyObject?) -> Bool { first === second }

/// `object` cast to `T` by `ObjectCast`, or `nil` when it is not a `T`.
private func cast<T>(_ object: AnyObject, to _: T.Type) -> T? {
    ValueSlot.withTemporary(for: T.self) { slot -> T? in
        ObjectCast.cast(object, to: T.self, into: slot) == .failed ? nil : slot.move(as: T.self)
    }
}

private final class CastRefs {
    weak var letter: Letter?
}

private struct CastFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("letter") { Letter(7) }
        createPrototype("desk") { CastDesk() }
    }
}

private final class CastDesk {
    @Inject("letter") var named: any Named
    @Inject("letter") var numbered: any Numbered
    @Inject("letter") var both: any Both
    @Inject("letter") var paper: Paper
}

@Suite struct ObjectCastTests {
    @Test func everyKindOfTargetGivesTheObjectItselfAfterTheFirstCast() throws {
        for number in 0..<4 {
            let letter = Letter(number)
            let named = try #require(cast(letter, to: (any Named).self))
            let numbered = try #require(cast(letter, to: (any Numbered).self))
            let both = try #require(cast(letter, to: (any Both).self))
            let composed = try #require(cast(letter, to: (Paper & Named).self))
            let paper = try #require(cast(letter, to: Paper.self))
            let object = try #require(cast(letter, to: AnyObject.self))
            let any = try #require(cast(letter, to: Any.self))
            let optional = try #require(cast(letter, to: (any Named)?.self))
            #expect(same(named, letter) && named.name == "letter \(number)")
            #expect(same(numbered as? Letter, letter) && numbered.number == number)
            #expect(same(both, letter) && both.number == number && both.name == "letter \(number)")
            #expect(same(composed, letter) && composed.name == "letter \(number)")
            #expect(same(paper, letter))
            #expect(same(object, letter))
            #expect(same(any as? Letter, letter))
            #expect(optional?.name == "letter \(number)")
        }
    }

    @Test func aCastThatBoxesTheObjectIsMadeEveryTimeAndStillGivesIt() throws {
        for _ in 0..<3 {
            let mishap = Mishap()
            let error = try #require(cast(mishap, to: (any Error).self))
            #expect(same(error as? Mishap, mishap))
        }
    }

    @Test func instancesOfTwoClassesTakingTurnsAreEachTheirOwn() throws {
        for round in 0..<6 {
            let object: AnyObject = round % 2 == 0 ? Letter(round) : Parcel()
            let named = try #require(cast(object, to: (any Named).self))
            #expect(same(named, object))
            #expect(named.name == (round % 2 == 0 ? "letter \(round)" : "parcel"))
        }
    }

    @Test func anObjectThatIsNotOfTheTypeIsNotCastTheSecondTimeEither() {
        for _ in 0..<2 {
            #expect(cast(Stone(), to: (any Named).self) == nil)
            #expect(cast(Parcel(), to: (any Numbered).self) == nil)
            #expect(cast(Parcel(), to: Paper.self) == nil)
        }
    }

    @Test func whatACastLearnedKeepsNoObjectAlive() {
        let refs = CastRefs()
        for number in 0..<3 {
            {
                let letter = Letter(number)
                refs.letter = letter
                _ = cast(letter, to: (any Both).self)
                _ = cast(letter, to: (any Numbered).self)
            }()
            #expect(refs.letter == nil)
        }
    }

    @Test func threadsCastingANewPairAtOnceEachGetTheirOwnObject() {
        let failures = ConcurrencyCounter()
        let finished = ConcurrencyThreads.run(4) { thread in
            for round in 0..<200 {
                let envelope = Envelope(thread * 1_000 + round)
                guard let sealed = cast(envelope, to: (any Sealed).self), same(sealed, envelope), sealed.seal == envelope.seal else {
                    failures.increment()
                    continue
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)
    }

    @Test func aPrototypeInjectedAsEveryKindOfTargetIsItsOwnObjectEachTime() throws {
        let context = try ApplicationContext(CastFactory())
        for _ in 0..<3 {
            let desk = try context.object("desk", as: CastDesk.self)
            #expect(desk.named.name == "letter 7")
            #expect(desk.numbered.number == 7)
            #expect(desk.both.number == 7)
            #expect(desk.paper is Letter)
            #expect(!same(desk.named, desk.both))
        }
    }
}
