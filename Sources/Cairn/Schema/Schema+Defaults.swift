/// Checks a property's `default` at open, with the same conversion a create applies.
func defaultValueProblem(_ property: Property, in objectSchema: ObjectSchema) -> String? {
    guard let json = property.defaultValue else { return nil }
    let label = "'\(objectSchema.name).\(property.name)'"
    let value: Value
    do throws(CairnError) {
        value = try ExtendedJSON.mixedValue(json)
    } catch {
        return "Default value for property \(label) is invalid: \(error.message)"
    }
    let info = ClassInfo(index: 0, schema: ObjectSchema(name: objectSchema.name, properties: [property]))
    do throws(CairnError) {
        _ = try DefaultCoercion.coerce(value, info)
    } catch {
        return "Default value for property \(label) does not match its type: \(error.message)"
    }
    return nil
}

/// Type-checks a default without a database (the schema is validated before one exists).
enum DefaultCoercion {
    static func coerce(_ value: Value, _ info: ClassInfo) throws(CairnError) -> Value {
        try Database.coerceValue(value, info, 0)
    }
}
