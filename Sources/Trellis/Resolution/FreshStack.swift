/// Runs a deep resolution on a new thread with a fresh stack, so that no chain of definitions,
/// however long, can overflow the stack of the thread that asked (secondary threads on Apple
/// platforms have 512 KiB).
///
/// The asking thread blocks until the new one is done, and the new thread continues the asker's
/// `Resolution`: the path, cycle detection and "who is making this singleton" all stay the same,
/// exactly as if the call had not moved. Called when `StackBudget` says the asker's stack is
/// nearly used up, which is measured in bytes, so it holds in release, debug and sanitizer builds.
enum FreshStack {
    /// Stack size of the fresh threads: many levels of any build, plus the reserve.
    static let stackSize = 4 << 20

    /// `body`'s result, computed on a fresh thread that continues `resolution`.
    ///
    /// What the asker's thread or task tells the engine and the closures goes with it: the
    /// current context it binds (`withCurrent`), and that a wait there would hold a thread of the
    /// pool or the main actor. (A closure on the new thread sees no task: `Task.isCancelled` and
    /// task-locals other than the current context read as outside any task.)
    static func run<R>(continuing resolution: Resolution, _ body: (Resolution, ThreadState) throws(ContextError) -> R) throws(ContextError) -> R {
        var result: Result<R, ContextError>?
        let binding = CurrentContext.$bound.get()
        let forTask = Resolution.isInTask
        let forMainActor = Resolution.holdsMainActor
        withoutActuallyEscaping(body) { body in
            // The asker blocks until the new thread ends, which orders everything the new thread
            // wrote before the asker reads `result`.
            let ran = NewThread.runAndWait(stackSize: stackSize) {
                let thread = ThreadState.current
                thread.standsInForTask = forTask
                thread.standsInForMainActor = forMainActor
                CurrentContext.$bound.withValue(binding) {
                    do throws(ContextError) {
                        result = .success(try thread.runningSynchronously(resolution) { () throws(ContextError) -> R in try body(resolution, thread) })
                    } catch {
                        result = .failure(error)
                    }
                }
            }
            if !ran {
                // No thread could be made: go on here rather than fail.
                let thread = ThreadState.current
                do throws(ContextError) { result = .success(try body(resolution, thread)) } catch { result = .failure(error) }
            }
        }
        return try result!.get()
    }
}
