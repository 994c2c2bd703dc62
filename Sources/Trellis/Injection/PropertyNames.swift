import Synchronization

/// How the first read of a property of an object made with its plain `init` learns the property's
/// name (its key, unless the wrapper names one). In order:
/// 1. the name recorded for its declaration site when any object of the type was injected by a
///    context or by `inject(into:)` (the injection plan knows each field's name and reads each
///    wrapper's declaration site);
/// 2. the declaring type, found by its name (`#fileID`'s module and `#function`, which is the
///    type's name at a property declaration; works for top-level, non-private types): its one
///    `@Inject` field of the property's type, or, with several, the one declared in the same order
///    as this declaration's line among theirs.
/// `nil` otherwise: the caller then falls back to the property's type, or says to give the key.
enum PropertyNames {
    /// The property a wrapper's storage label stands for: `_mailer` gives `mailer`. A raw
    /// identifier's label comes back from reflection in its backticks (`` `_db.url` ``), which
    /// are not part of the name, and with each space as a no-break space (U+00A0: the compiler's
    /// metadata spells it so), which is.
    static func property(ofStorageLabel label: some StringProtocol) -> String {
        var name = Substring(label)
        let isRaw = name.count > 2 && name.first == "`" && name.last == "`"
        if isRaw { name = name.dropFirst().dropLast() }
        if name.hasPrefix("_") { name = name.dropFirst() }
        return isRaw ? String(name.map { $0 == "\u{A0}" ? " " : $0 }) : String(name)
    }

    /// The property a key path to a wrapper's storage names (`\Owner._mailer` gives `mailer`;
    /// a raw identifier's may hold dots, in its backticks).
    static func property(ofKeyPath path: AnyKeyPath) -> String? {
        let description = String(describing: path)
        if description.last == "`", let open = description.dropLast().lastIndex(of: "`") {
            return property(ofStorageLabel: description[open...])
        }
        return description.split(separator: ".").last.map { property(ofStorageLabel: $0) }
    }

    /// The declarations of one type's fields of one wrapper type.
    private struct Group: Hashable {
        let file: String
        let owner: String
        let wrapper: ObjectIdentifier

        init(_ declaration: PropertyDeclaration) {
            file = "\(declaration.file)"
            owner = "\(declaration.owner)"
            wrapper = ObjectIdentifier(declaration.wrapper)
        }
    }

    private struct State {
        /// Declaration (`Site`) → property name; `""` when two properties share the
        /// declaration (declared on one line, in one type, of one type): then it is not known.
        var names: [Site: String] = [:]
        /// The declaration lines seen per declaring type and wrapper type.
        var lines: [Group: Set<UInt>] = [:]
        /// Plans whose names were learned already.
        var learned: Set<ObjectIdentifier> = []
    }

    /// Where a property is declared, as far as its declaration tells: its site, the simple name
    /// of the type declaring it (`#function` there), its wrapper type. The site alone is not
    /// enough: two types, or two properties, can be declared on one line.
    private struct Site: Hashable {
        let file: String
        let line: UInt
        let owner: String
        let wrapper: ObjectIdentifier
    }

    private static let state = Locked(State())

    /// Signatures of declarations noted already, so that noting one again (every object of the
    /// type noting each of its properties) is one atomic load, without a lock or a string.
    /// Two sites sharing a slot only cost the loser a trip through the lock.
    // Safe: allocated once, never freed, and only ever accessed through the atomics it holds.
    nonisolated(unsafe) private static let noted: HeapBuffer<Atomic<UInt>> = {
        let slots = HeapBuffer<Atomic<UInt>>(count: 512)
        for slot in slots.indices { slots.initialize(slot, to: Atomic(0)) }
        return slots
    }()

    static func note(_ declaration: PropertyDeclaration) {
        var signature = UInt(bitPattern: declaration.file.utf8Start) &* 0x9E37_79B9_7F4A_7C15
        signature ^= UInt(declaration.line) &* 0xC2B2_AE3D_27D4_EB4F
        signature ^= UInt(bitPattern: Int(bitPattern: ObjectIdentifier(declaration.wrapper))) &* 0x1656_67B1_9E37_79F9
        // The declaring type too: two types declared on one line each note their lines.
        let owner = declaration.owner
        signature ^= (owner.hasPointerRepresentation ? UInt(bitPattern: owner.utf8Start) : UInt(owner.unicodeScalar.value)) &* 0x27D4_EB2F_1656_67C5
        signature |= 1
        let slot = Int((signature >> 7) & 511)
        if noted[slot].load(ordering: .relaxed) == signature { return }
        let group = Group(declaration)
        state.withLock { _ = $0.lines[group, default: []].insert(declaration.line) }
        noted[slot].store(signature, ordering: .relaxed)
    }

    /// Records the declaration site of each field of an object of `plan`'s type (its `fields`),
    /// once per type.
    @inline(__always)
    static func learn(from plan: InjectionPlan, in fields: ObjectFields) {
        guard !plan.fields.isEmpty, !plan.namesLearned.load(ordering: .relaxed) else { return }
        learnOnce(from: plan, in: fields)
    }

    @inline(never)
    private static func learnOnce(from plan: InjectionPlan, in fields: ObjectFields) {
        guard state.withLock({ !$0.learned.contains(plan.typeID) }) else { return plan.namesLearned.store(true, ordering: .relaxed) }
        let owner = simpleName(of: plan.typeName)
        var found: [(Site, String)] = []
        for field in plan.fields {
            let header = fields[headerAt: field.headerOffset]
            found.append((Site(file: "\(header.file)", line: header.line, owner: owner, wrapper: field.wrapper), field.property))
        }
        state.withLock { state in
            state.learned.insert(plan.typeID)
            for (site, name) in found {
                // Two properties one declaration could be: neither name can be told from it.
                if let known = state.names[site], known != name {
                    state.names[site] = ""
                } else {
                    state.names[site] = name
                }
            }
        }
        plan.namesLearned.store(true, ordering: .relaxed)
    }

    /// What `#function` says at a property declaration of the type named `qualified`: its simple
    /// name, without its generic arguments or the types it is nested in (which may be generic:
    /// `App.Outer<Swift.Int>.Form` is `Form`).
    static func simpleName(of qualified: String) -> String {
        var depth = 0
        var plain = ""
        for character in qualified {
            switch character {
            case "<": depth += 1
            case ">": depth -= 1
            default: if depth == 0 { plain.append(character) }
            }
        }
        return String(plain.split(separator: ".").last ?? plain[...])
    }

    /// The property's name, if it can be learned.
    static func name(of declaration: PropertyDeclaration) -> String? {
        let group = Group(declaration)
        let site = Site(file: "\(declaration.file)", line: declaration.line, owner: "\(declaration.owner)", wrapper: ObjectIdentifier(declaration.wrapper))
        let (known, lines) = state.withLock { ($0.names[site], $0.lines[group] ?? []) }
        if let known { return known.isEmpty ? nil : known }
        guard let type = declaringType(of: declaration) else { return nil }
        var inherited: Set<Int> = []
        if let someClass = type as? AnyClass, let superclass = Runtime.superclass(of: someClass) {
            inherited = Set(InjectionPlan.of(superclass).fields.map(\.offset))
        }
        let candidates = InjectionPlan.of(type).fields.filter { !inherited.contains($0.offset) && $0.wrapper == ObjectIdentifier(declaration.wrapper) }
        if candidates.count == 1 { return candidates[0].property }
        // Several of one type: stored properties initialise, and are laid out, in declaration
        // order, so the k-th line seen is the k-th field.
        let ordered = lines.sorted()
        guard ordered.count == candidates.count, let position = ordered.firstIndex(of: declaration.line) else { return nil }
        return candidates.sorted { $0.offset < $1.offset }[position].property
    }

    /// The declaring type's name as an error names a type (`String(reflecting:)`, as for an
    /// object a context made), when it can be found; its simple name otherwise.
    static func ownerName(of declaration: PropertyDeclaration) -> String {
        declaringType(of: declaration).map { String(reflecting: $0) } ?? "\(declaration.owner)"
    }

    /// The type declaring the property: a top-level, non-private type of the module `#fileID`
    /// names. By its qualified name, which the runtime resolves for classes; else by its mangled
    /// name as a struct, an enum or a class (on Linux a qualified name finds classes only).
    private static func declaringType(of declaration: PropertyDeclaration) -> Any.Type? {
        guard let module = "\(declaration.file)".split(separator: "/").first.map(String.init) else { return nil }
        let owner = "\(declaration.owner)"
        if let type = Runtime.type(named: "\(module).\(owner)") { return type }
        // Mangled names spell identifiers as length and bytes; other identifiers (non-ASCII,
        // nested types) are beyond this fallback.
        guard module.utf8.allSatisfy({ $0 < 0x80 }), owner.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: ".") }) else { return nil }
        let prefix = "\(module.utf8.count)\(module)\(owner.utf8.count)\(owner)"
        for kind in ["V", "O", "C"] {
            if let type = Runtime.type(named: prefix + kind) { return type }
        }
        return nil
    }
}
