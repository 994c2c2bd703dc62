/// One disposal that `close(timeout:)` waits for at most a while: it runs in an unstructured
/// task (a synchronous one on a thread of its own), so it can be left running, and the close waits for whichever ends first, the disposal
/// or the deadline (a sleep of the timeout, `DisposalBound`).
///
/// A child task could not be left behind: a task group waits for all its children before it
/// returns, so the hanging disposal would hold the close after all.
enum BoundedDisposal {
    /// How one disposal ended.
    enum Ending: Sendable {
        /// It returned, or threw (the error's description).
        case finished(failure: String?)
        case timedOut
    }

    /// Runs `dispose` in an unstructured task and waits for it until `deadline` returns (it is
    /// cancelled once the disposal ends first).
    static func run(until deadline: @escaping @Sendable () async -> Void, _ dispose: @escaping @Sendable () async throws -> Void) async -> Ending {
        let watch = Watch()
        Task {
            do {
                try await dispose()
                watch.end(.finished(failure: nil))
            } catch {
                watch.end(.finished(failure: "\(error)"))
            }
        }
        return await wait(for: watch, until: deadline)
    }

    /// Runs a synchronous `dispose` on a thread of its own and waits for it until `deadline`
    /// returns. Not in a task: a `dispose()` that blocks (a socket that does not drain) and is
    /// left running would hold a thread of the cooperative pool, which has one per core, and a
    /// few of them would stall every task of the process, the close's own timeouts included.
    static func run(until deadline: @escaping @Sendable () async -> Void, blocking dispose: @escaping @Sendable () throws -> Void) async -> Ending {
        let watch = Watch()
        let body: @Sendable () -> Void = {
            do {
                try dispose()
                watch.end(.finished(failure: nil))
            } catch {
                watch.end(.finished(failure: "\(error)"))
            }
        }
        // No thread to be had: run it in a task, as an async disposal runs.
        if !NewThread.detach(body) { Task { body() } }
        return await wait(for: watch, until: deadline)
    }

    /// Whichever ends first: what `watch` watches, or `deadline`.
    ///
    /// The deadline runs in a task of its own, which the close's cancellation does not reach: a
    /// close runs to its end in a cancelled task too (an app's shutdown often is one), each
    /// disposal still bounded by the timeout, never by the cancellation (which would leave the
    /// rest disposed out of order while one still runs). The deadline's task is ended once the
    /// disposal ends first.
    static func wait(for watch: Watch, until deadline: @escaping @Sendable () async -> Void) async -> Ending {
        let timer = Task {
            await deadline()
            watch.end(.timedOut)
        }
        let ending = await watch.wait()
        timer.cancel()
        return ending
    }

    /// The end of one disposal, awaited by at most one waiter, who may stop waiting (cancelled).
    final class Watch: Sendable {
        private enum State {
            case running
            case waiting(Resumption<Ending>)
            case ended(Ending)
        }

        private let state = Locked(State.running)

        /// Records how the disposal (or the wait, `.timedOut`) ended, resuming the waiter.
        /// Only the first end counts.
        func end(_ ending: Ending) {
            let waiter = state.withLock { state -> Resumption<Ending>? in
                switch state {
                case .running:
                    state = .ended(ending)
                    return nil
                case let .waiting(task):
                    state = .ended(ending)
                    return task
                case .ended:
                    return nil
                }
            }
            waiter?.resume(returning: ending)
        }

        /// How the disposal ended, or `.timedOut` once the deadline passed (`wait(for:until:)`).
        func wait() async -> Ending {
            await Resumption<Ending>.suspend { task in
                let ended = state.withLock { state -> Ending? in
                    if case let .ended(ending) = state { return ending }
                    state = .waiting(task)
                    return nil
                }
                if let ended { task.resume(returning: ended) }
            }
        }
    }
}
