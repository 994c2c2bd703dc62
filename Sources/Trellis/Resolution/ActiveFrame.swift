/// The frame of an async closure that is running: a call made on a context from inside it,
/// without its resolver, is nested in that frame.
struct ActiveFrame: Sendable {
    let resolution: Resolution
    let depth: Int
}
