/// Implemented by `Inject` so a plan can find a wrapper's header, knowing only its metatype.
protocol InjectableField: SendableMetatype {
    /// Where `InjectHeader` lies inside the wrapper.
    static var headerOffset: Int { get }
}

extension Inject: InjectableField {
    static var headerOffset: Int { MemoryLayout<Self>.offset(of: \Self.header)! }
}
