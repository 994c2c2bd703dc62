/// What a lazy property's first read looks up: the one step of both first reads, which differ
/// only in how they look the key up (block or await). Not nested in `LazyInjection`, which
/// would make it generic, its metadata looked up at every first read.
enum LazyTarget {
    /// `key` answers in `context`'s chain; the dependency edge is recorded.
    case found(context: ApplicationContext, key: String)
    /// Nothing answers to `key`: the default, `nil` of an optional, or an error.
    case missing(key: String)
}
