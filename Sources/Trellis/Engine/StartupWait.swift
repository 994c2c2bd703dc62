/// A wait of a claim loop during a start, for `startupReport`'s `waited`: the making on top of
/// the waiting resolution (the definition whose closure or injection asked) waited from now
/// until `end`. Made with `Coordinator.lock` held, ended after it is released.
struct StartupWait {
    private let timeline: StartupTimeline
    /// Unretained: the waiting lookup keeps the context of its frames alive.
    private let context: Unretained<ApplicationContext>
    private let index: Int
    private let from: Duration

    /// `nil` when `resolution` collects no start-up report or makes nothing (a continuation
    /// waits for its parent's frame: the closure it continues asked).
    init?(_ resolution: Resolution) {
        guard let timeline = resolution.session.startup?.timeline else { return nil }
        let frame: Resolution.Frame
        if resolution.depth > 0 {
            frame = resolution.frames[resolution.depth - 1]
        } else if let parent = resolution.parent, resolution.attachDepth > 0 {
            frame = parent.frames[resolution.attachDepth - 1]
        } else {
            return nil
        }
        self.timeline = timeline
        context = frame.context
        index = frame.definition
        from = timeline.now
    }

    func end() {
        context.with { timeline.waited(index, of: $0, from: from) }
    }
}
