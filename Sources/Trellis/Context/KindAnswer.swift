/// What one definition answers a lookup by type (`DefinitionKind`): whether its objects are of
/// the type asked for.
///
/// Not nested in the generic `DefinitionKind<T>`: a nested type is generic too, and the runtime
/// looked its metadata up for every answer (the library's code is not specialised for the type).
enum KindAnswer {
    /// No object of the definition is of the type.
    case no
    /// Its objects are of the type; the value (of the type) when it is a singleton (made now if
    /// it was not), or a type probe's instance that needs nothing more.
    case yes(Any?)
    /// Not known now (a prototype an outer lookup is making): left out, and nothing cached.
    case unknown
}
