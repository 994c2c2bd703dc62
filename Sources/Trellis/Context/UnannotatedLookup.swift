/// The result of a lookup that does not say what type it wants: a type with no values, so such a
/// line cannot compile.
///
/// `let x = try context.object("clock")` names no type for the generic lookup to return, and
/// Swift 6.3 answers it with "failed to produce diagnostic for expression" once `object` has
/// other overloads. The unavailable, non-generic `object(_:)` overloads returning this type
/// turn that into an error that says how to give the type.
public enum UnannotatedLookup {}
