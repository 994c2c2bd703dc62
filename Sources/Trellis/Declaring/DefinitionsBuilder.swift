/// The result builder of a factory's `definitions` and of every group of definitions.
///
/// Accepts `Definition` and `Definitions` expressions (so a group, or another factory's
/// `definitions`, nests), optionals, `if`/`else`, `switch` and `for`…`in`.
///
/// > Note: Type-checking one builder body grows faster than linearly with its length. Keep a
/// > body to about 50 definitions and split larger factories into groups in extensions.
@resultBuilder
public enum DefinitionsBuilder {
    /// One definition.
    public static func buildExpression(_ definition: consuming Definition) -> Definitions {
        Definitions(definition)
    }

    /// A group of definitions, e.g. another factory's `definitions`.
    public static func buildExpression(_ definitions: consuming Definitions) -> Definitions {
        definitions
    }

    /// A definition that may be absent.
    public static func buildExpression(_ definition: consuming Definition?) -> Definitions {
        definition.map(Definitions.init) ?? Definitions()
    }

    /// A group that may be absent.
    public static func buildExpression(_ definitions: consuming Definitions?) -> Definitions {
        definitions ?? Definitions()
    }

    /// A body of one statement (a `for` loop's body, a branch): passed on as it is.
    public static func buildBlock(_ component: consuming Definitions) -> Definitions {
        component
    }

    /// Concatenates the statements of a body in order.
    public static func buildBlock(_ components: Definitions...) -> Definitions {
        Definitions.joined(components)
    }

    /// A body of two to ten statements, its groups moved in: the variadic form copies each into
    /// its array and destroys the original (a retain and a release of every definition's maker).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions) -> Definitions {
        Definitions.joined(consuming: [c0, c1])
    }

    /// A body of two to ten statements, its groups moved in: the variadic form copies each into
    /// its array and destroys the original (a retain and a release of every definition's maker).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions) -> Definitions {
        Definitions.joined(consuming: [c0, c1, c2])
    }

    /// A body of two to ten statements, its groups moved in: the variadic form copies each into
    /// its array and destroys the original (a retain and a release of every definition's maker).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions) -> Definitions {
        Definitions.joined(consuming: [c0, c1, c2, c3])
    }

    /// A body of two to ten statements, its groups moved in: the variadic form copies each into
    /// its array and destroys the original (a retain and a release of every definition's maker).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions) -> Definitions {
        Definitions.joined(consuming: [c0, c1, c2, c3, c4])
    }

    /// A body of two to ten statements, its groups moved in: the variadic form copies each into
    /// its array and destroys the original (a retain and a release of every definition's maker).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions) -> Definitions {
        Definitions.joined(consuming: [c0, c1, c2, c3, c4, c5])
    }

    /// A body of two to ten statements, its groups moved in: the variadic form copies each into
    /// its array and destroys the original (a retain and a release of every definition's maker).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions) -> Definitions {
        Definitions.joined(consuming: [c0, c1, c2, c3, c4, c5, c6])
    }

    /// A body of two to ten statements, its groups moved in: the variadic form copies each into
    /// its array and destroys the original (a retain and a release of every definition's maker).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions) -> Definitions {
        Definitions.joined(consuming: [c0, c1, c2, c3, c4, c5, c6, c7])
    }

    /// A body of two to ten statements, its groups moved in: the variadic form copies each into
    /// its array and destroys the original (a retain and a release of every definition's maker).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions) -> Definitions {
        Definitions.joined(consuming: [c0, c1, c2, c3, c4, c5, c6, c7, c8])
    }

    /// A body of two to ten statements, its groups moved in: the variadic form copies each into
    /// its array and destroys the original (a retain and a release of every definition's maker).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions, _ c9: consuming Definitions) -> Definitions {
        Definitions.joined(consuming: [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9])
    }

    /// An `if` without `else`.
    public static func buildOptional(_ component: consuming Definitions?) -> Definitions {
        component ?? Definitions()
    }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first component: consuming Definitions) -> Definitions { component }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second component: consuming Definitions) -> Definitions { component }

    /// The iterations of a `for`…`in`, concatenated in order.
    public static func buildArray(_ components: consuming [Definitions]) -> Definitions {
        Definitions.joined(consuming: components)
    }

    /// An `if #available` branch.
    public static func buildLimitedAvailability(_ component: consuming Definitions) -> Definitions { component }
}
