import DrumlinValues

/// "'Class.property'" for error messages, built only when a message needs it.
package struct Label: CustomStringConvertible {
    package let className: String
    package let propertyName: String
    package var description: String { "'\(className).\(propertyName)'" }

    package init(className: String, propertyName: String) {
        self.className = className
        self.propertyName = propertyName
    }
}

/// The conversions a write applies to a scalar before it is stored: what a property (or a
/// collection element) of a given type accepts, and the messages for what it refuses. Objects,
/// queries (primary-key arguments) and the schema (defaults, checked at open) share them.
package enum Coercion {
    // Numbers convert to another number type only where the value survives: a double into a
    // float keeps float precision (rounded) but must be within float range; an integer must be
    // exactly representable (floats hold integers exactly up to 2^24, doubles up to 2^53).

    package static func float(_ d: Double, _ label: @autoclosure () -> Label) throws(DrumlinError) -> Float {
        let f = Float(d)
        if d.isFinite && !f.isFinite {
            throw DrumlinError(.typeMismatch, "Property \(label()): \(d) is outside the float range (±3.4e38); use a double property.")
        }
        return f
    }

    package static func float(_ i: Int64, _ label: @autoclosure () -> Label) throws(DrumlinError) -> Float {
        let f = Float(i)
        guard Int64(exactly: f) == i else {
            throw DrumlinError(.typeMismatch, "Property \(label()): the integer \(i) cannot be stored as a float without changing it (floats hold integers exactly up to 16777216).")
        }
        return f
    }

    package static func double(_ i: Int64, _ label: @autoclosure () -> Label) throws(DrumlinError) -> Double {
        let d = Double(i)
        guard Int64(exactly: d) == i else {
            throw DrumlinError(.typeMismatch, "Property \(label()): the integer \(i) cannot be stored as a double without changing it (doubles hold integers exactly up to 9007199254740992).")
        }
        return d
    }

    /// Converts a value to what a property (or collection element) of `type` stores.
    package static func scalar(_ value: Value, _ type: PropertyType, optional: Bool, nested: Bool,
                               _ label: Label) throws(DrumlinError) -> Value {
        if case .null = value {
            if optional || type == .mixed { return .null }
            throw DrumlinError(.notNullable, "Invalid null value for non-nullable property \(label).")
        }
        func mismatch() -> DrumlinError {
            DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected \(type.rawValue), got \(value.typeName).")
        }
        switch (type, value) {
        case (.mixed, .link):
            // Checked (a live top-level object) when it is stored.
            return value
        case (.mixed, .list), (.mixed, .dictionary):
            guard nested else {
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): sets of mixed values hold scalars only, got \(value.typeName).")
            }
            return value
        case (.mixed, _): return value
        case (.bool, .bool), (.int, .int), (.double, .double), (.float, .float), (.decimal128, .decimal),
             (.string, .string), (.data, .data), (.date, .date), (.objectId, .objectId), (.uuid, .uuid):
            return value
        case (.int, .double(let d)) where d == d.rounded() && d.magnitude >= 0x1p63:
            throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): \(d) is outside the 64-bit integer range.")
        case (.float, .double(let d)): return .float(try float(d, label))
        case (.float, .int(let i)): return .float(try float(i, label))
        case (.double, .float(let f)): return .double(Double(f))
        case (.double, .int(let i)): return .double(try double(i, label))
        case (.decimal128, .int(let i)): return .decimal(Decimal128(i))
        case (.decimal128, .double(let d)):
            guard let decimal = Decimal128(exactly: d) else { throw mismatch() }
            return .decimal(decimal)
        default:
            throw mismatch()
        }
    }
}
