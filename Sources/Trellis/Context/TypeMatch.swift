/// A definition whose objects are the type a lookup by type asked for; its value (of that type)
/// when it is a made singleton, or a type probe's instance that needs nothing more. Lives for one
/// lookup by type only (the cache keeps `TypeMatchPosition`s, which own nothing).
///
/// Not generic over the type: the runtime looked the metadata of `TypeMatch<T>` (and of its
/// arrays) up on every use in the library's unspecialised code, about a third of a lookup by type
/// in a fresh child context.
struct TypeMatch {
    let context: ApplicationContext
    let index: Int
    let value: Any?
}
