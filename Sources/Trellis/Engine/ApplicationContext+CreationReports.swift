/// What the making of an object tells about it, from wherever the making runs (a prototype's
/// `Creation`, a singleton's slot, a closure, a lookup by type).
extension ApplicationContext {
    /// Tells the start-up collector that definition `index` was made while an eager singleton was.
    @inline(never)
    func noteStartup(_ index: Int, _ resolution: Resolution) {
        resolution.session.startup?.made(index, of: self, isEager: resolution.isStartingEager(framesAbove: 1))
    }

    /// Tells the start-up collector that definition `index` is about to be made.
    @inline(never)
    func noteStartupBegan(_ index: Int, _ resolution: Resolution) {
        resolution.session.startup?.began(index, of: self, isEager: resolution.isStartingEager(framesAbove: 0))
    }

    /// The error of a synchronous lookup that would have to make async definition `index`.
    @inline(never)
    func requiresAwait(_ index: Int, _ resolution: Resolution?) -> ContextError {
        let key = key(at: index)
        return .requiresAwait(key: key, path: (resolution?.path ?? []) + [key])
    }
}
