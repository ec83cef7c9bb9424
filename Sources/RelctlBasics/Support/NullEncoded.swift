/// An optional that a synthesized `Encodable` writes as `null` when absent, instead of leaving
/// the key out: contract documents (`notes --json`, `bump --json`) always carry every key.
@propertyWrapper
public struct NullEncoded<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
