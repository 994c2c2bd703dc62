/// Where a lookup by type found a match: definition `index` of the context `levels` up the
/// asking context's parent chain (0: itself). Owns nothing.
struct TypeMatchPosition: Sendable {
    let levels: Int
    let index: Int
}
