import DrumlinValues

extension Schema {
    /// Checks the schema against Realm's rules and Drumlin's own, reporting every problem at once.
    ///
    /// Works on schemas built in code as well as parsed ones (`init(json:)` runs the same checks).
    /// The problems are thrown as one `.schema` error whose message is
    /// `Schema validation failed due to the following errors:` followed by `\n- <problem>` per
    /// problem. Realm's rules keep realm-core's wording, with `'Class.property'` written with public
    /// names; Drumlin's additions (reserved `_drumlin` names, name lengths, names that differ only in
    /// case, defaults) are worded in the same style. `docs/schema.md` lists them all.
    public func validate() throws(DrumlinError) {
        var problems: [String] = []
        collectValidationProblems(into: &problems, alreadyReported: ReportedDeclarations())
        if !problems.isEmpty { throw Schema.validationFailure(listing: problems) }
    }

    /// The one error a schema with problems fails with. A NUL inside a name is shown as `\0` so the
    /// message survives C strings.
    static func validationFailure(listing problems: [String]) -> DrumlinError {
        var message = "Schema validation failed due to the following errors:"
        for problem in problems {
            message += "\n- "
            message += problem
        }
        if message.utf8.contains(0) {
            var escaped = ""
            for scalar in message.unicodeScalars {
                if scalar == "\u{0}" { escaped += "\\0" } else { escaped.unicodeScalars.append(scalar) }
            }
            message = escaped
        }
        return DrumlinError(.schema, message)
    }

    /// Appends the problems of this schema to `problems`, skipping those the JSON grammar already
    /// reported. The embedded-cycle check runs only when nothing else is wrong (as in Realm): it
    /// relies on every link target existing.
    func collectValidationProblems(into problems: inout [String], alreadyReported: ReportedDeclarations) {
        var classes: [ExactName: ObjectSchema] = [:]
        for objectSchema in objectSchemas where classes[ExactName(objectSchema.name)] == nil {
            classes[ExactName(objectSchema.name)] = objectSchema
        }
        problems += classNameProblems()
        for objectSchema in objectSchemas {
            problems += objectProblems(objectSchema, classes: classes, alreadyReported: alreadyReported)
        }
        if problems.isEmpty {
            problems += embeddedCycleProblems(classes: classes)
        }
    }

    // MARK: - Object level (realm-core ObjectSchema::validate)

    private func objectProblems(_ objectSchema: ObjectSchema, classes: [ExactName: ObjectSchema],
                                alreadyReported: ReportedDeclarations) -> [String] {
        let className = objectSchema.name
        var problems = Schema.nameProblems(of: objectSchema)

        // O1: stored names unique; O2: aliases (public names that differ from the stored name)
        // unique; O3: no alias equal to another property's stored name.
        let storedNames = objectSchema.properties.map(\.storedName)
        let aliased = objectSchema.properties.filter { $0.name != $0.storedName }
        for name in Schema.duplicates(in: storedNames) where !name.isEmpty {  // empty names have their own message
            problems.append("Property '\(name)' appears more than once in the schema for type '\(className)'.")
        }
        for alias in Schema.duplicates(in: aliased.map(\.name)) {
            problems.append("Alias '\(alias)' appears more than once in the schema for type '\(className)'.")
        }
        var reportedAliases: Set<String> = []
        for property in aliased where storedNames.contains(property.name) && reportedAliases.insert(property.name).inserted {
            problems.append("Property '\(className).\(property.storedName)' has an alias '\(property.name)' that conflicts with a property of the same name.")
        }
        problems += Schema.caseClashProblems(of: objectSchema)

        var primaryKeyProperty: Property?
        for property in objectSchema.properties {
            problems += Schema.nameProblems(of: property, in: objectSchema)
            if property.isPrimaryKey {
                // P6
                if let first = primaryKeyProperty {
                    problems.append("Properties '\(property.name)' and '\(first.name)' are both marked as the primary key of '\(className)'.")
                } else {
                    primaryKeyProperty = property
                }
            }
            problems += propertyProblems(property, in: objectSchema, classes: classes, alreadyReported: alreadyReported)
            problems += defaultValueProblems(property, in: objectSchema)
        }
        problems += Schema.primaryKeyFlagProblems(of: objectSchema)

        if objectSchema.primaryKey != nil && objectSchema.kind == .embedded {
            // O4
            problems.append("Embedded object type '\(className)' cannot have a primary key.")
        }
        if let primaryKey = objectSchema.primaryKey, objectSchema.property(named: primaryKey) == nil,
           !alreadyReported.contains(className: className, propertyName: primaryKey) {
            // O5
            problems.append("Specified primary key '\(className).\(primaryKey)' does not exist.")
        }
        return problems
    }

    // MARK: - Property level (realm-core validate_property)

    private func propertyProblems(_ property: Property, in objectSchema: ObjectSchema, classes: [ExactName: ObjectSchema],
                                  alreadyReported: ReportedDeclarations) -> [String] {
        var problems: [String] = []
        let path = "\(objectSchema.name).\(property.name)"
        let word = property.validationTypeWord

        // P1
        if property.type == .linkingObjects && (property.collection == .set || property.collection == .dictionary) {
            problems.append("Linking Objects property '\(path)' must be an array.")
        }
        // P2-P4: nullability.
        let isListOrSet = property.collection == .list || property.collection == .set
        if property.isOptional && ((isListOrSet && property.type == .object) || property.type == .linkingObjects) {
            problems.append("Property '\(path)' of type '\(word)' cannot be nullable.")
        } else if property.type == .object && !property.isOptional && !isListOrSet {
            problems.append("Property '\(path)' of type 'object' must be nullable.")
        } else if property.type == .mixed && !property.isOptional {
            problems.append("Property '\(path)' of type 'Mixed' must be nullable.")
        }
        // P5
        if property.isPrimaryKey && !(property.collection == .single && property.type.isPrimaryKeyType) {
            problems.append("Property '\(path)' of type '\(word)' cannot be made the primary key.")
        }
        // P7 (a primary key's index is implied, and P5 already covers a bad primary key type).
        let isIndexable = property.type.isIndexable
            && (property.collection == .single || (property.collection == .list && property.type == .string))
        if property.index == .general && !property.isPrimaryKey && !isIndexable {
            problems.append("Property '\(path)' of type '\(word)' cannot be indexed.")
        }
        if property.index == .fullText {
            if property.isPrimaryKey {
                problems.append("Primary key '\(path)' cannot be full-text indexed.")
            } else if property.type != .string || property.collection != .single {
                problems.append("Property '\(path)' of type '\(word)' cannot be full-text indexed.")
            }
        }
        if property.isCounter {
            if property.type != .int || property.collection != .single {
                problems.append("Property '\(path)' of type '\(word)' cannot be a counter.")
            } else if property.isPrimaryKey {
                problems.append("Primary key '\(path)' cannot be a counter.")
            }
        }
        // P8, P9
        let origin = property.originProperty ?? ""
        if property.type != .linkingObjects && !origin.isEmpty {
            problems.append("Property '\(path)' of type '\(word)' cannot have an origin property name.")
        } else if property.type == .linkingObjects && origin.isEmpty {
            problems.append("Property '\(path)' of type '\(word)' must have an origin property name.")
        }
        // P10
        let objectType = property.objectType ?? ""
        guard property.type == .object || property.type == .linkingObjects else {
            if !objectType.isEmpty {
                problems.append("Property '\(path)' of type '\(property.validationTypeString)' cannot have an object type.")
            }
            return problems
        }
        // P11-P13
        guard let target = classes[ExactName(objectType)] else {
            problems.append("Property '\(path)' of type '\(word)' has unknown object type '\(objectType)'")
            return problems
        }
        if property.collection == .set && target.kind == .embedded {
            problems.append("Set property '\(path)' cannot contain embedded object type '\(objectType)'. Set semantics are not applicable to embedded objects.")
            return problems
        }
        if target.kind == .asymmetric {
            problems.append("Property '\(path)' of type '\(word)' cannot be a link to an asymmetric object.")
            return problems
        }
        // P14-P16: the origin of a linkingObjects property is a link back to this class.
        guard property.type == .linkingObjects, !origin.isEmpty else { return problems }
        let originPath = "\(objectType).\(origin)"
        if let originProperty = target.property(named: origin) {
            if originProperty.type != .object {
                problems.append("Property '\(originPath)' declared as origin of linking objects property '\(path)' is not a link")
            } else if originProperty.objectType != objectSchema.name {
                problems.append("Property '\(originPath)' declared as origin of linking objects property '\(path)' links to type '\(originProperty.objectType ?? "")'")
            }
        } else if !alreadyReported.contains(className: objectType, propertyName: origin) {
            problems.append("Property '\(originPath)' declared as origin of linking objects property '\(path)' does not exist")
        }
        return problems
    }

    /// Links, collections and linkingObjects take no default; scalar defaults must type-check
    /// (`defaultValueProblem` knows the Extended JSON forms of every type).
    private func defaultValueProblems(_ property: Property, in objectSchema: ObjectSchema) -> [String] {
        guard property.defaultValue != nil else { return [] }
        if property.collection != .single || property.type == .object || property.type == .linkingObjects {
            return ["Property '\(objectSchema.name).\(property.name)' of type '\(property.validationTypeWord)' cannot have a default value."]
        }
        if let problem = defaultValueProblem(property, in: objectSchema) {
            return [problem]
        }
        return []
    }

    // MARK: - Schema level (realm-core Schema::validate)

    /// S2: a cycle made only of embedded types could never be created (each embedded object needs
    /// a parent that already exists). Reported once per embedded type on such a cycle, with the
    /// shortest path back to itself, e.g. `'A.toB.toA'`.
    private func embeddedCycleProblems(classes: [ExactName: ObjectSchema]) -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for start in objectSchemas where start.kind == .embedded && seen.insert(start.name).inserted {
            var queue: [(objectSchema: ObjectSchema, path: String)] = [(start, start.name)]
            var visited: Set<String> = [start.name]
            var head = 0
            search: while head < queue.count {
                let (current, path) = queue[head]
                head += 1
                for property in current.properties where property.type == .object {
                    guard let target = property.objectType.flatMap({ classes[ExactName($0)] }), target.kind == .embedded else { continue }
                    let nextPath = path + "." + property.name
                    if target.name == start.name {
                        problems.append("Cycles containing embedded objects are not currently supported: '\(nextPath)'")
                        break search
                    }
                    if visited.insert(target.name).inserted {
                        queue.append((target, nextPath))
                    }
                }
            }
        }
        return problems
    }

    /// Each value that occurs more than once, in the order its second occurrence appears.
    private static func duplicates(in names: [String]) -> [String] {
        // Byte for byte: names in two Unicode normalizations are two names (as in Realm and SQLite).
        var seen: Set<ExactName> = []
        var reported: Set<ExactName> = []
        var result: [String] = []
        for name in names where !seen.insert(ExactName(name)).inserted && reported.insert(ExactName(name)).inserted {
            result.append(name)
        }
        return result
    }
}

extension Property {
    /// realm-core's `string_for_property_type`: the collection word for collections, else the
    /// element type's word (`linking objects` however it is represented).
    var validationTypeWord: String {
        type == .linkingObjects ? "linking objects" : realmTypeName
    }

    /// realm-core's `Property::type_string()` for a value that is not a link: `int`, `array<int>`,
    /// `set<string>`, `dictionary<string, int>`.
    var validationTypeString: String {
        switch collection {
        case .single: type.realmName
        case .list: "array<\(type.realmName)>"
        case .set: "set<\(type.realmName)>"
        case .dictionary: "dictionary<string, \(type.realmName)>"
        }
    }
}
