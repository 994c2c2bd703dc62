/// A definition whose objects are `T`s; its value when it is a made singleton. Lives for one
/// lookup by type only (the cache keeps `TypeMatchPosition`s, which own nothing).
struct TypeMatch<T> {
    let context: ApplicationContext
    let index: Int
    let value: T?
}
