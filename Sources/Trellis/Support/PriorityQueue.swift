/// A binary heap of integers that hands out the one ranked highest first: what the disposal
/// order takes next among the singletons ready to be disposed.
struct PriorityQueue {
    private var elements: [Int] = []
    /// Whether `lhs` is ranked lower than `rhs`.
    private let ranksBelow: (Int, Int) -> Bool

    init(ranksBelow: @escaping (Int, Int) -> Bool) {
        self.ranksBelow = ranksBelow
    }

    var isEmpty: Bool { elements.isEmpty }

    mutating func insert(_ element: Int) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard ranksBelow(elements[parent], elements[child]) else { break }
            elements.swapAt(parent, child)
            child = parent
        }
    }

    /// The element ranked highest, removed; `nil` when empty.
    mutating func popHighest() -> Int? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        let highest = elements[0]
        elements[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var top = parent
            if left < elements.count, ranksBelow(elements[top], elements[left]) { top = left }
            if right < elements.count, ranksBelow(elements[top], elements[right]) { top = right }
            guard top != parent else { break }
            elements.swapAt(parent, top)
            parent = top
        }
        return highest
    }
}
