/// Where a walk up a context's chain for a name stopped (`ApplicationContext.walk`).
enum ChainStop {
    /// Definition `index` of `context`, `levels` parents up from the context the walk is for.
    case found(Unretained<ApplicationContext>, index: Int, levels: Int)
    /// `context` is closed, and no context before it answered.
    case closed(Unretained<ApplicationContext>)
    /// No context on the chain answers.
    case missing
}
