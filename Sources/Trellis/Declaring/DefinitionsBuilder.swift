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

    /// Concatenates the statements of a body in order: a body of more than sixteen (fewer take
    /// the overloads below, which move each statement's group in instead of copying it).
    public static func buildBlock(_ components: Definitions...) -> Definitions {
        Definitions.joined(components)
    }

    /// A body of two to ten statements, its groups moved in: the variadic form gathers them into
    /// an array first (an allocation per body, and a copy of every group into it). A body of
    /// single definitions, the usual one, is an array literal of them (`Definitions.single()`).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle {
            return Definitions([c0.single(), c1.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count)
        joined.append(c0)
        joined.append(c1)
        return joined.joined()
    }

    /// A body of two to ten statements, its groups moved in: the variadic form gathers them into
    /// an array first (an allocation per body, and a copy of every group into it). A body of
    /// single definitions, the usual one, is an array literal of them (`Definitions.single()`).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        return joined.joined()
    }

    /// A body of two to ten statements, its groups moved in: the variadic form gathers them into
    /// an array first (an allocation per body, and a copy of every group into it). A body of
    /// single definitions, the usual one, is an array literal of them (`Definitions.single()`).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        return joined.joined()
    }

    /// A body of two to ten statements, its groups moved in: the variadic form gathers them into
    /// an array first (an allocation per body, and a copy of every group into it). A body of
    /// single definitions, the usual one, is an array literal of them (`Definitions.single()`).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        return joined.joined()
    }

    /// A body of two to ten statements, its groups moved in: the variadic form gathers them into
    /// an array first (an allocation per body, and a copy of every group into it). A body of
    /// single definitions, the usual one, is an array literal of them (`Definitions.single()`).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        return joined.joined()
    }

    /// A body of two to ten statements, its groups moved in: the variadic form gathers them into
    /// an array first (an allocation per body, and a copy of every group into it). A body of
    /// single definitions, the usual one, is an array literal of them (`Definitions.single()`).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        return joined.joined()
    }

    /// A body of two to ten statements, its groups moved in: the variadic form gathers them into
    /// an array first (an allocation per body, and a copy of every group into it). A body of
    /// single definitions, the usual one, is an array literal of them (`Definitions.single()`).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle && c7.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single(), c7.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count + c7.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        joined.append(c7)
        return joined.joined()
    }

    /// A body of two to ten statements, its groups moved in: the variadic form gathers them into
    /// an array first (an allocation per body, and a copy of every group into it). A body of
    /// single definitions, the usual one, is an array literal of them (`Definitions.single()`).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle && c7.isSingle && c8.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single(), c7.single(), c8.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count + c7.count + c8.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        joined.append(c7)
        joined.append(c8)
        return joined.joined()
    }

    /// A body of two to ten statements, its groups moved in: the variadic form gathers them into
    /// an array first (an allocation per body, and a copy of every group into it). A body of
    /// single definitions, the usual one, is an array literal of them (`Definitions.single()`).
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions, _ c9: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle && c7.isSingle && c8.isSingle && c9.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single(), c7.single(), c8.single(), c9.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count + c7.count + c8.count + c9.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        joined.append(c7)
        joined.append(c8)
        joined.append(c9)
        return joined.joined()
    }

    /// A body of eleven to sixteen statements, its groups moved in, as for two to ten: a request's
    /// factory of a dozen definitions is evaluated for every context made of it.
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions, _ c9: consuming Definitions, _ c10: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle && c7.isSingle && c8.isSingle && c9.isSingle && c10.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single(), c7.single(), c8.single(), c9.single(), c10.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count + c7.count + c8.count + c9.count + c10.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        joined.append(c7)
        joined.append(c8)
        joined.append(c9)
        joined.append(c10)
        return joined.joined()
    }

    /// A body of eleven to sixteen statements, its groups moved in, as for two to ten: a request's
    /// factory of a dozen definitions is evaluated for every context made of it.
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions, _ c9: consuming Definitions, _ c10: consuming Definitions, _ c11: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle && c7.isSingle && c8.isSingle && c9.isSingle && c10.isSingle && c11.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single(), c7.single(), c8.single(), c9.single(), c10.single(), c11.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count + c7.count + c8.count + c9.count + c10.count + c11.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        joined.append(c7)
        joined.append(c8)
        joined.append(c9)
        joined.append(c10)
        joined.append(c11)
        return joined.joined()
    }

    /// A body of eleven to sixteen statements, its groups moved in, as for two to ten: a request's
    /// factory of a dozen definitions is evaluated for every context made of it.
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions, _ c9: consuming Definitions, _ c10: consuming Definitions, _ c11: consuming Definitions, _ c12: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle && c7.isSingle && c8.isSingle && c9.isSingle && c10.isSingle && c11.isSingle && c12.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single(), c7.single(), c8.single(), c9.single(), c10.single(), c11.single(), c12.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count + c7.count + c8.count + c9.count + c10.count + c11.count + c12.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        joined.append(c7)
        joined.append(c8)
        joined.append(c9)
        joined.append(c10)
        joined.append(c11)
        joined.append(c12)
        return joined.joined()
    }

    /// A body of eleven to sixteen statements, its groups moved in, as for two to ten: a request's
    /// factory of a dozen definitions is evaluated for every context made of it.
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions, _ c9: consuming Definitions, _ c10: consuming Definitions, _ c11: consuming Definitions, _ c12: consuming Definitions, _ c13: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle && c7.isSingle && c8.isSingle && c9.isSingle && c10.isSingle && c11.isSingle && c12.isSingle && c13.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single(), c7.single(), c8.single(), c9.single(), c10.single(), c11.single(), c12.single(), c13.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count + c7.count + c8.count + c9.count + c10.count + c11.count + c12.count + c13.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        joined.append(c7)
        joined.append(c8)
        joined.append(c9)
        joined.append(c10)
        joined.append(c11)
        joined.append(c12)
        joined.append(c13)
        return joined.joined()
    }

    /// A body of eleven to sixteen statements, its groups moved in, as for two to ten: a request's
    /// factory of a dozen definitions is evaluated for every context made of it.
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions, _ c9: consuming Definitions, _ c10: consuming Definitions, _ c11: consuming Definitions, _ c12: consuming Definitions, _ c13: consuming Definitions, _ c14: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle && c7.isSingle && c8.isSingle && c9.isSingle && c10.isSingle && c11.isSingle && c12.isSingle && c13.isSingle && c14.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single(), c7.single(), c8.single(), c9.single(), c10.single(), c11.single(), c12.single(), c13.single(), c14.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count + c7.count + c8.count + c9.count + c10.count + c11.count + c12.count + c13.count + c14.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        joined.append(c7)
        joined.append(c8)
        joined.append(c9)
        joined.append(c10)
        joined.append(c11)
        joined.append(c12)
        joined.append(c13)
        joined.append(c14)
        return joined.joined()
    }

    /// A body of eleven to sixteen statements, its groups moved in, as for two to ten: a request's
    /// factory of a dozen definitions is evaluated for every context made of it.
    public static func buildBlock(_ c0: consuming Definitions, _ c1: consuming Definitions, _ c2: consuming Definitions, _ c3: consuming Definitions, _ c4: consuming Definitions, _ c5: consuming Definitions, _ c6: consuming Definitions, _ c7: consuming Definitions, _ c8: consuming Definitions, _ c9: consuming Definitions, _ c10: consuming Definitions, _ c11: consuming Definitions, _ c12: consuming Definitions, _ c13: consuming Definitions, _ c14: consuming Definitions, _ c15: consuming Definitions) -> Definitions {
        if c0.isSingle && c1.isSingle && c2.isSingle && c3.isSingle && c4.isSingle && c5.isSingle && c6.isSingle && c7.isSingle && c8.isSingle && c9.isSingle && c10.isSingle && c11.isSingle && c12.isSingle && c13.isSingle && c14.isSingle && c15.isSingle {
            return Definitions([c0.single(), c1.single(), c2.single(), c3.single(), c4.single(), c5.single(), c6.single(), c7.single(), c8.single(), c9.single(), c10.single(), c11.single(), c12.single(), c13.single(), c14.single(), c15.single()])
        }
        var joined = Definitions.Joiner(capacity: c0.count + c1.count + c2.count + c3.count + c4.count + c5.count + c6.count + c7.count + c8.count + c9.count + c10.count + c11.count + c12.count + c13.count + c14.count + c15.count)
        joined.append(c0)
        joined.append(c1)
        joined.append(c2)
        joined.append(c3)
        joined.append(c4)
        joined.append(c5)
        joined.append(c6)
        joined.append(c7)
        joined.append(c8)
        joined.append(c9)
        joined.append(c10)
        joined.append(c11)
        joined.append(c12)
        joined.append(c13)
        joined.append(c14)
        joined.append(c15)
        return joined.joined()
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
