// Builder bodies of every length the builder has an overload for (2 to 16 statements), each
// statement a single definition: the body is joined as one array literal of them
// (Docs/Performance.md, "What every context pays for itself"). Definition `k<i>` makes `i`; the
// scopes cycle through the three, so a definition moved to another position shows as a wrong
// key, value or scope.

import Trellis

struct BodyOf2Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
    }
}

struct BodyOf3Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
    }
}

struct BodyOf4Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
    }
}

struct BodyOf5Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
    }
}

struct BodyOf6Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
    }
}

struct BodyOf7Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
    }
}

struct BodyOf8Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
        createPrototype("k7") { 7 }
    }
}

struct BodyOf9Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
        createPrototype("k7") { 7 }
        createEagerSingleton("k8") { 8 }
    }
}

struct BodyOf10Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
        createPrototype("k7") { 7 }
        createEagerSingleton("k8") { 8 }
        createSingleton("k9") { 9 }
    }
}

struct BodyOf11Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
        createPrototype("k7") { 7 }
        createEagerSingleton("k8") { 8 }
        createSingleton("k9") { 9 }
        createPrototype("k10") { 10 }
    }
}

struct BodyOf12Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
        createPrototype("k7") { 7 }
        createEagerSingleton("k8") { 8 }
        createSingleton("k9") { 9 }
        createPrototype("k10") { 10 }
        createEagerSingleton("k11") { 11 }
    }
}

struct BodyOf13Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
        createPrototype("k7") { 7 }
        createEagerSingleton("k8") { 8 }
        createSingleton("k9") { 9 }
        createPrototype("k10") { 10 }
        createEagerSingleton("k11") { 11 }
        createSingleton("k12") { 12 }
    }
}

struct BodyOf14Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
        createPrototype("k7") { 7 }
        createEagerSingleton("k8") { 8 }
        createSingleton("k9") { 9 }
        createPrototype("k10") { 10 }
        createEagerSingleton("k11") { 11 }
        createSingleton("k12") { 12 }
        createPrototype("k13") { 13 }
    }
}

struct BodyOf15Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
        createPrototype("k7") { 7 }
        createEagerSingleton("k8") { 8 }
        createSingleton("k9") { 9 }
        createPrototype("k10") { 10 }
        createEagerSingleton("k11") { 11 }
        createSingleton("k12") { 12 }
        createPrototype("k13") { 13 }
        createEagerSingleton("k14") { 14 }
    }
}

struct BodyOf16Definitions: ObjectFactory {
    var definitions: Definitions {
        createSingleton("k0") { 0 }
        createPrototype("k1") { 1 }
        createEagerSingleton("k2") { 2 }
        createSingleton("k3") { 3 }
        createPrototype("k4") { 4 }
        createEagerSingleton("k5") { 5 }
        createSingleton("k6") { 6 }
        createPrototype("k7") { 7 }
        createEagerSingleton("k8") { 8 }
        createSingleton("k9") { 9 }
        createPrototype("k10") { 10 }
        createEagerSingleton("k11") { 11 }
        createSingleton("k12") { 12 }
        createPrototype("k13") { 13 }
        createEagerSingleton("k14") { 14 }
        createSingleton("k15") { 15 }
    }
}

/// Every factory above, with its number of definitions.
let bodiesOfEveryLength: [(factory: any ObjectFactory, count: Int)] = [
    (BodyOf2Definitions(), 2),
    (BodyOf3Definitions(), 3),
    (BodyOf4Definitions(), 4),
    (BodyOf5Definitions(), 5),
    (BodyOf6Definitions(), 6),
    (BodyOf7Definitions(), 7),
    (BodyOf8Definitions(), 8),
    (BodyOf9Definitions(), 9),
    (BodyOf10Definitions(), 10),
    (BodyOf11Definitions(), 11),
    (BodyOf12Definitions(), 12),
    (BodyOf13Definitions(), 13),
    (BodyOf14Definitions(), 14),
    (BodyOf15Definitions(), 15),
    (BodyOf16Definitions(), 16),
]
