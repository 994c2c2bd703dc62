import Foundation
import Testing
import Trellis
import TrellisTestSupport

// Docs/Injection.md, "Plain init and the current context": `ApplicationContext.current` and `withCurrent` (sync and async): a task-local binding
// that nests, is inherited by child tasks and not by detached tasks or threads.
//
// Nothing here sets the process-wide default (`setDefault`): those checks run in exit tests
// (CurrentContextDefaultTests.swift), each a process of its own. The checks here compare
// `current` with what it was outside any binding, never with `nil`, so they hold whatever the
// process-wide default is.

private struct BodyError: Error, Equatable {}

// MARK: - `current` and `withCurrent`

@Suite struct CurrentContextBindingTests {
    @Test func withCurrentBindsTheContextForItsBody() throws {
        let outside = ApplicationContext.current
        let a = try startTagged("A")
        let seen = Sync.withCurrent(a) { ApplicationContext.current }
        #expect(seen === a)
        #expect(ApplicationContext.current === outside)
    }

    @Test func withCurrentReturnsWhatItsBodyReturns() throws {
        let a = try startTagged("A")
        #expect(Sync.withCurrent(a) { 42 } == 42)
    }

    @Test func syncWithCurrentRethrowsAndUnbinds() throws {
        let outside = ApplicationContext.current
        let a = try startTagged("A")
        #expect(throws: BodyError()) {
            try Sync.withCurrent(a) { () throws -> Void in throw BodyError() }
        }
        #expect(ApplicationContext.current === outside)
    }

    @Test func asyncWithCurrentBindsAcrossSuspensionsAndReturns() async throws {
        let outside = ApplicationContext.current
        let a = try startTagged("A")
        let result = await a.withCurrent { () async -> String? in
            await Task.yield()
            let first = ApplicationContext.current
            await Task.yield()
            return first === a && ApplicationContext.current === a ? plainScreenTag() : "wrong binding"
        }
        #expect(result == "A")
        #expect(ApplicationContext.current === outside)
    }

    @Test func asyncWithCurrentRethrowsAndUnbinds() async throws {
        let outside = ApplicationContext.current
        let a = try startTagged("A")
        await #expect(throws: BodyError()) {
            try await a.withCurrent { () async throws -> Void in
                await Task.yield()
                throw BodyError()
            }
        }
        #expect(ApplicationContext.current === outside)
    }

    @Test func nestedBindingsInnerWinsAndOuterIsRestored() throws {
        let outside = ApplicationContext.current
        let a = try startTagged("A")
        let b = try startTagged("B")
        let seen = Sync.withCurrent(a) { () -> [String?] in
            var seen = [ApplicationContext.current?.name, plainScreenTag()]
            seen += Sync.withCurrent(b) { [ApplicationContext.current?.name, plainScreenTag()] }
            seen += [ApplicationContext.current?.name, plainScreenTag()]
            return seen
        }
        #expect(seen == ["TagA", "A", "TagB", "B", "TagA", "A"])
        #expect(ApplicationContext.current === outside)
    }

    @Test func nestedAsyncBindingsInnerWinsAndOuterIsRestoredAfterAThrow() async throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let seen = try await a.withCurrent { () async throws -> [String?] in
            let inner = await #expect(throws: BodyError.self) {
                try await b.withCurrent { () async throws -> Void in
                    #expect(ApplicationContext.current === b)
                    #expect(plainScreenTag() == "B")
                    throw BodyError()
                }
            }
            #expect(inner != nil)
            return [ApplicationContext.current?.name, plainScreenTag()]
        }
        #expect(seen == ["TagA", "A"])
    }

    @Test func theSameContextMayBeBoundTwice() throws {
        let a = try startTagged("A")
        let seen = Sync.withCurrent(a) { Sync.withCurrent(a) { ApplicationContext.current } }
        #expect(seen === a)
    }

    @Test func childTasksInheritTheBinding() async throws {
        let a = try startTagged("A")
        let seen = await a.withCurrent { () async -> [String?] in
            async let fromAsyncLet = childTaskTag()
            let fromGroup = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<8 { group.addTask { await childTaskTag() } }
                var tags: [String?] = []
                for await tag in group { tags.append(tag) }
                return tags
            }
            let fromThrowingGroup = try? await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask { await childTaskTag() }
                return try await group.next() ?? nil
            }
            let fromUnstructured = await Task { await childTaskTag() }.value
            return [await fromAsyncLet] + fromGroup + [fromThrowingGroup, fromUnstructured]
        }
        #expect(seen == Array(repeating: "A", count: 11))
    }

    @Test func grandchildTasksInheritTheInnermostBinding() async throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let seen = await a.withCurrent { () async -> [String?] in
            await withTaskGroup(of: [String?].self) { group in
                group.addTask {
                    await b.withCurrent { () async -> [String?] in
                        async let grandchild = childTaskTag()
                        return [await grandchild, await childTaskTag()]
                    }
                }
                group.addTask { [await childTaskTag()] }
                var all: [String?] = []
                for await tags in group { all += tags }
                return all.map { $0 ?? "nil" }.sorted()
            }
        }
        #expect(seen == ["A", "B", "B"])
    }

    @Test func aDetachedTaskDoesNotInheritTheBinding() async throws {
        let a = try startTagged("A")
        let (current, tag) = await a.withCurrent { () async -> (ApplicationContext?, String?) in
            await Task.detached { (ApplicationContext.current, plainScreenTag()) }.value
        }
        // Immune to a process-wide default: the detached task may see one, but never `a`.
        #expect(current !== a)
        #expect(tag != "A")
    }

    @Test func aThreadStartedInsideABindingDoesNotInheritIt() throws {
        let a = try startTagged("A")
        let seen = Guarded<(bound: Bool, tag: String?)?>(nil)
        let finished = Sync.withCurrent(a) { () -> Bool in
            ConcurrencyThreads.run(1) { _ in
                let bound = ApplicationContext.current === a
                let tag = plainScreenTag()
                seen.withLock { $0 = (bound, tag) }
            }
        }
        #expect(finished)
        let result = try #require(seen.value)
        #expect(!result.bound)
        #expect(result.tag != "A")
    }

    @Test func parallelTasksEachSeeOnlyTheirOwnBinding() async throws {
        let contexts = try (0..<16).map { try startTagged("\($0)") }
        let results = await withTaskGroup(of: (Int, [String?]).self) { group in
            for (index, context) in contexts.enumerated() {
                group.addTask {
                    await context.withCurrent { () async -> (Int, [String?]) in
                        var tags: [String?] = []
                        for _ in 0..<20 {
                            await Task.yield()
                            tags.append(plainScreenTag())
                        }
                        return (index, tags)
                    }
                }
            }
            var results: [Int: [String?]] = [:]
            for await (index, tags) in group { results[index] = tags }
            return results
        }
        for index in contexts.indices {
            #expect(results[index] == Array(repeating: "\(index)", count: 20))
        }
    }
}

/// Runs in a child task: the tag of a `CCScreen` made with its plain `init` there.
private func childTaskTag() async -> String? {
    await Task.yield()
    return plainScreenTag()
}
