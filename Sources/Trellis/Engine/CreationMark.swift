/// What a singleton's making reads before its closure runs (`Coordinator.mark`), to tell after
/// it what may have happened meanwhile.
struct CreationMark {
    /// `Coordinator.latestSequence`: a group stamped later than this gave out an early
    /// reference since.
    let sequence: UInt64
    /// How many early references the process had handed out.
    let earlyReferences: UInt64
}
