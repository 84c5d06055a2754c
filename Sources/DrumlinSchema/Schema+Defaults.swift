import DrumlinValues

/// Checks a property's `default` at open, with the same conversion a create applies.
func defaultValueProblem(_ property: Property, in objectSchema: ObjectSchema) -> String? {
    guard let json = property.defaultValue else { return nil }
    let label = "'\(objectSchema.name).\(property.name)'"
    do throws(DrumlinError) {
        let value = try ExtendedJSON.mixedValue(json)
        _ = try Coercion.scalar(value, property.type, optional: property.isOptional,
                                nested: property.type == .mixed, Label(className: objectSchema.name, propertyName: property.name))
    } catch {
        return "Default value for property \(label) does not match its type: \(error.message)"
    }
    return nil
}
