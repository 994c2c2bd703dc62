/// How long `close(timeout:)` waits for each disposal: `wait(key)` returns when the wait for
/// `key`'s disposal is over (it sleeps for `timeout`), and is cancelled if the disposal ends
/// first; `wait(nil)` bounds the wait for a close already under way. `timeout` is what a
/// ``DisposalTimedOut`` reports.
///
/// A function rather than a duration so that tests end each wait when they choose, not when a
/// clock does: on a loaded machine a disposal that returns at once may not even be scheduled
/// within a short timeout.
struct DisposalBound: Sendable {
    let timeout: Duration
    let wait: @Sendable (_ key: String?) async -> Void
}
