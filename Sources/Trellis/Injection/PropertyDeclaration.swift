/// Where an `@Inject` property is declared, as its wrapper's initialiser sees it: enough to learn
/// the property's name later (a wrapper cannot know its own name).
@usableFromInline
struct PropertyDeclaration: @unchecked Sendable {
    // Safe: immutable; `StaticString`s and a metatype.
    let file: StaticString
    let line: UInt
    /// `#function` at the declaration: the declaring type's name.
    let owner: StaticString
    /// `Inject<Value>`, to tell apart fields of different types.
    let wrapper: Any.Type

    @usableFromInline
    init(file: StaticString, line: UInt, owner: StaticString, wrapper: Any.Type) {
        self.file = file
        self.line = line
        self.owner = owner
        self.wrapper = wrapper
        PropertyNames.note(self)
    }

    var site: String { "\(file):\(line)" }
}
