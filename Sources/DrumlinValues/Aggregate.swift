/// Realm's aggregates over a numeric (or, for min and max, date) property, as `Results.aggregate`
/// takes them and `DecimalArithmetic` computes them exactly for decimal128 values.
public enum Aggregate: String, Sendable {
    case min, max, sum, avg
}
