#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import Trellis
import TrellisTestSupport

// Issue 10, point 5: a deep chain cannot overflow any stack, in debug, release and
// sanitizer builds, also when it is started from a thread with a 512 KiB stack (Apple
// platforms' secondary threads). A stack overflow is a crash, so every test runs its chain in
// an exit test: a regression fails the test instead of ending the whole test run. Each child
// process waits for its thread with the hang guard, so a deadlock fails too.

/// How deep the chains go.
private let deepChainLength = 10_000

/// Exit codes of the child processes, so a failure says what went wrong.
private enum DeepExit {
    static let noThread: Int32 = 10
    static let hung: Int32 = 11
    static let wrongResult: Int32 = 12
}

/// `n0 → n1 → … → n(length-1)` through creation closures, each object one more than the next;
/// the last ends the chain as `end` says. `pattern` picks the scope of every definition but the
/// head, which is `head`.
private struct DeepChainFactory: ObjectFactory {
    enum End: Sendable { case value, missingKey, cycleToStart, currentContext }
    enum Pattern: Sendable { case singletons, alternating }

    let length: Int
    var head = Scope.singleton
    var pattern = Pattern.singletons
    var end = End.value

    var definitions: Definitions {
        for index in 0..<(length - 1) {
            let make: @Sendable (Resolver) throws -> Int = { r in try r.object("n\(index + 1)", as: Int.self) + 1 }
            if index == 0 {
                switch head {
                case .eagerSingleton: createEagerSingleton("n0", make)
                // The chain's objects are `Int`s, which cannot be weak: no test asks for it.
                case .singleton, .weak: createSingleton("n0", make)
                case .prototype: createPrototype("n0", make)
                }
            } else if pattern == .alternating && !index.isMultiple(of: 2) {
                createPrototype("n\(index)", make)
            } else {
                createSingleton("n\(index)", make)
            }
        }
        switch end {
        case .value: createSingleton("n\(length - 1)") { 0 }
        case .missingKey: createSingleton("n\(length - 1)") { r in try r.object("missing", as: Int.self) }
        case .cycleToStart: createSingleton("n\(length - 1)") { r in try r.object("n0", as: Int.self) }
        // The deepest closure sees the current context the asker bound (0), or not (-length).
        case .currentContext: createSingleton("n\(length - 1)") { [length] in ApplicationContext.current == nil ? -length : 0 }
        }
    }
}

/// The context the closures of `DeepDirectChainFactory` call directly.
private final class DeepSlot: @unchecked Sendable {
    // Safe: written once before the first lookup, on the thread that then makes the lookups
    // (and the helper threads it joins).
    weak var context: ApplicationContext?
}

/// `n0 → n1 → …` where every closure calls the context directly, not through its resolver:
/// each level is a nested lookup of its own.
private struct DeepDirectChainFactory: ObjectFactory {
    let length: Int
    let slot: DeepSlot

    var definitions: Definitions {
        for index in 0..<(length - 1) {
            createSingleton("n\(index)") { [slot] () throws -> Int in
                guard let context = slot.context else { return -1 }
                return try context.object("n\(index + 1)", as: Int.self) + 1
            }
        }
        createSingleton("n\(length - 1)") { 0 }
    }
}

/// One definition: the root of a chain of nested contexts, found through all of them.
private struct DeepChainRootFactory: ObjectFactory {
    var definitions: Definitions { createSingleton("root") { 7 } }
}

/// `count` contexts nested under a root, each holding its parent: the innermost, and the root
/// held weakly.
private func deepNestedContexts(_ count: Int) -> (innermost: ApplicationContext?, root: WeakBox)? {
    guard var context = try? ApplicationContext(DeepChainRootFactory()) else { return nil }
    let root = WeakBox(context)
    for _ in 0..<count {
        guard let child = try? ApplicationContext(DeepChainRootFactory(), parent: context) else { return nil }
        context = child
    }
    return (context, root)
}

/// A weak reference to a context.
private final class WeakBox: @unchecked Sendable {
    // Safe: written once in init, read by the thread that made it.
    weak var value: ApplicationContext?
    init(_ value: ApplicationContext) { self.value = value }
}

/// Runs `body` on a thread with a 512 KiB stack in this (child) process and exits the process
/// with a distinct code when the thread could not run or did not finish; returns what `body`
/// returned.
private func onSecondaryThread<R: Sendable>(_ body: @escaping @Sendable () -> R) -> R {
    let outcome = Guarded<R?>(nil)
    let finished = ConcurrencyStackThread.run(stackSize: ConcurrencyStackThread.secondaryStackSize) {
        let value = body()
        outcome.withLock { $0 = value }
    }
    guard finished else { exit(DeepExit.hung) }
    guard let value = outcome.value else { exit(DeepExit.noThread) }
    return value
}

/// The lookup's value or its error's description.
private func lookUp(_ context: ApplicationContext, _ key: String) -> Result<Int, ContextError> {
    do throws(ContextError) {
        return .success(try context.object(key, as: Int.self))
    } catch {
        return .failure(error)
    }
}

/// Recursion using about 1 KB of stack per level (temporary allocations up to 1 KiB are on the stack), which the optimiser cannot remove.
@inline(never)
private func deepChainRecurse(_ levels: Int) -> Int {
    guard levels > 0 else { return 0 }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1000) { buffer in
        buffer.initialize(repeating: UInt8(truncatingIfNeeded: levels))
        return Int(buffer[levels % 1000]) + deepChainRecurse(levels - 1)
    }
}

@Suite("Deep chains on small stacks")
struct DeepChainTests {
    @Test func theTestsSecondaryThreadReallyHasASmallStack() async {
        // The control: 5 MB of plain recursion overflows the thread the tests below use, so
        // their passing means the library moved the chain, not that the thread was large.
        await #expect(processExitsWith: .failure) {
            _ = onSecondaryThread { deepChainRecurse(5000) }
        }
    }

    @Test func tenThousandNestedContextsHeldOnlyByTheLastAreFreedOnA512KiBThread() async {
        // Each context holds its parent: dropping the last frees all ten thousand, one after the
        // other, not by each freeing the next (Docs/Lifecycle.md, "What a context keeps alive").
        await #expect(processExitsWith: .success) {
            let freed = onSecondaryThread { () -> Bool in
                guard var nested = deepNestedContexts(deepChainLength) else { return false }
                let root = nested.root
                guard (try? nested.innermost?.object("root", as: Int.self)) == 7, root.value != nil else { return false }
                nested.innermost = nil
                return root.value == nil
            }
            guard freed else { exit(DeepExit.wrongResult) }
        }
    }

    @Test func tenThousandDeepChainOfLazySingletonsResolvesFromA512KiBThread() async {
        await #expect(processExitsWith: .success) {
            let result = onSecondaryThread { () -> Result<Int, ContextError> in
                do throws(ContextError) {
                    let context = try ApplicationContext(DeepChainFactory(length: deepChainLength))
                    return lookUp(context, "n0")
                } catch {
                    return .failure(error)
                }
            }
            guard case .success(deepChainLength - 1) = result else { exit(DeepExit.wrongResult) }
        }
    }

    @Test func theDeepestClosureOfATenThousandDeepChainSeesTheCurrentContextTheAskerBound() async {
        // Docs/Injection.md: `withCurrent` binds the context for everything its body makes, at any
        // depth (the chain continues on threads with fresh stacks, which bind it too).
        await #expect(processExitsWith: .success) {
            let result = onSecondaryThread { () -> Result<Int, ContextError> in
                do throws(ContextError) {
                    let context = try ApplicationContext(DeepChainFactory(length: deepChainLength, end: .currentContext))
                    return context.withCurrent { lookUp(context, "n0") }
                } catch {
                    return .failure(error)
                }
            }
            guard case .success(deepChainLength - 1) = result else { exit(DeepExit.wrongResult) }
        }
    }

    @Test func tenThousandDeepChainStartedByAnEagerSingletonStartsOnA512KiBThread() async {
        await #expect(processExitsWith: .success) {
            let result = onSecondaryThread { () -> Result<Int, ContextError> in
                do throws(ContextError) {
                    // The start itself makes the whole chain.
                    let context = try ApplicationContext(DeepChainFactory(length: deepChainLength, head: .eagerSingleton))
                    guard context.startupReport.entries.map(\.key) == ["n0"] else { return .success(-1) }
                    return lookUp(context, "n0")
                } catch {
                    return .failure(error)
                }
            }
            guard case .success(deepChainLength - 1) = result else { exit(DeepExit.wrongResult) }
        }
    }

    @Test func tenThousandDeepChainOfSingletonsAndPrototypesResolvesFromA512KiBThread() async {
        await #expect(processExitsWith: .success) {
            let result = onSecondaryThread { () -> Result<Int, ContextError> in
                do throws(ContextError) {
                    let context = try ApplicationContext(DeepChainFactory(length: deepChainLength, head: .prototype, pattern: .alternating))
                    // Twice: the second time the singletons are made, the prototypes are not.
                    let first = lookUp(context, "n0")
                    guard case .success = first else { return first }
                    return lookUp(context, "n0")
                } catch {
                    return .failure(error)
                }
            }
            guard case .success(deepChainLength - 1) = result else { exit(DeepExit.wrongResult) }
        }
    }

    @Test func tenThousandDeepChainOfDirectCallsOnTheContextResolvesFromA512KiBThread() async {
        await #expect(processExitsWith: .success) {
            let result = onSecondaryThread { () -> Result<Int, ContextError> in
                do throws(ContextError) {
                    let slot = DeepSlot()
                    let context = try ApplicationContext(DeepDirectChainFactory(length: deepChainLength, slot: slot))
                    slot.context = context
                    return lookUp(context, "n0")
                } catch {
                    return .failure(error)
                }
            }
            guard case .success(deepChainLength - 1) = result else { exit(DeepExit.wrongResult) }
        }
    }

    @Test func missingKeyAtTheBottomOfATenThousandDeepChainReportsTheWholePathOnA512KiBThread() async {
        await #expect(processExitsWith: .success) {
            let result = onSecondaryThread { () -> Result<Int, ContextError> in
                do throws(ContextError) {
                    let context = try ApplicationContext(DeepChainFactory(length: deepChainLength, end: .missingKey))
                    return lookUp(context, "n0")
                } catch {
                    return .failure(error)
                }
            }
            let expectedPath = (0..<deepChainLength).map { "n\($0)" } + ["missing"]
            guard case let .failure(error) = result, case let .noSuchObject(key, _, path) = error,
                  key == "missing", path == expectedPath else { exit(DeepExit.wrongResult) }
        }
    }

    @Test func cycleClosingATenThousandDeepChainIsACircularDependencyOnA512KiBThread() async {
        await #expect(processExitsWith: .success) {
            let result = onSecondaryThread { () -> Result<Int, ContextError> in
                do throws(ContextError) {
                    let context = try ApplicationContext(DeepChainFactory(length: deepChainLength, end: .cycleToStart))
                    return lookUp(context, "n0")
                } catch {
                    return .failure(error)
                }
            }
            let expectedPath = (0..<deepChainLength).map { "n\($0)" } + ["n0"]
            guard case let .failure(error) = result, error == .circularDependency(path: expectedPath) else { exit(DeepExit.wrongResult) }
        }
    }

    @Test func validatingATenThousandDeepChainOnA512KiBThreadFindsNoProblem() async {
        await #expect(processExitsWith: .success) {
            let problems = onSecondaryThread { () -> Int in
                ApplicationContext.validate(DeepChainFactory(length: deepChainLength, pattern: .alternating)).problems.count
            }
            guard problems == 0 else { exit(DeepExit.wrongResult) }
        }
    }
}
