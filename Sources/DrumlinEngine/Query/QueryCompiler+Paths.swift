import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Key paths: properties, to-one links (scalar subqueries), to-many paths (joins over side tables,
/// compared through EXISTS), backlinks, dictionary keys and values, list positions, and paths into
/// nested mixed collections.
extension QueryCompiler {
    /// A column of an object: read directly when its row is joined, else through its key.
    func column(_ object: ObjectRef, _ column: String) -> String {
        if let alias = object.alias { return "\(alias).\(column)" }
        if let chain = object.chain { return Self.chainColumn(chain, column) }
        return "(SELECT x.\(column) FROM \(object.info.table) AS x WHERE x.\(object.info.keyColumn) = \(object.key))"
    }

    /// How many to-one links one key path may follow.
    static let maximumLinkHops = 256
    /// Hops joined in one subquery (SQLite joins at most 64 tables); longer chains nest these.
    static let hopsPerSubquery = 48

    /// A column of the object at the end of `chain`: one subquery joining every hop (chains
    /// longer than `hopsPerSubquery` start from the key the first part reaches).
    static func chainColumn(_ chain: LinkChain, _ column: String) -> String {
        var base = chain.base
        var first = chain.first
        var steps = chain.steps[...]
        while steps.count > hopsPerSubquery {
            let part = Array(steps.prefix(hopsPerSubquery))
            base = chainColumn(LinkChain(base: base, first: first, steps: Array(part.dropLast())), part[part.count - 1].column)
            first = part[part.count - 1].info
            steps = steps.dropFirst(hopsPerSubquery)
        }
        var from = "\(first.table) AS h0"
        var previous = "h0"
        for (i, step) in steps.enumerated() {
            let alias = "h\(i + 1)"
            from += " JOIN \(step.info.table) AS \(alias) ON \(alias).\(step.info.keyColumn) = \(previous).\(step.column)"
            previous = alias
        }
        return "(SELECT \(previous).\(column) FROM \(from) WHERE h0.\(first.keyColumn) = \(base))"
    }

    func valueSQL(_ raw: String, _ type: PropertyType) -> String {
        type == .float || type == .double ? "drumlin_num(\(raw))" : raw
    }

    func resolveProperty(_ info: ClassInfo, _ name: String, _ range: Query.SourceRange) throws(DrumlinError) -> Int {
        guard let index = info.propertyIndex(name) else {
            throw error("'\(info.name)' has no property '\(name)'", at: range)
        }
        return index
    }

    mutating func path(_ keyPath: Query.KeyPath, _ start: ObjectRef, quantifier: Query.Quantifier?) throws(DrumlinError) -> Operand {
        var components = ArraySlice(try expandArguments(keyPath))
        var current = start
        var source: Source?
        let range = keyPath.range

        var sawCollection = false
        /// `grouped`: the join is a collection of values, compared one collection at a time when
        /// an earlier step already reached several (see `Source.groups`).
        func addSource(_ from: String, _ condition: String, order: String? = nil, grouped: Bool = false) {
            sawCollection = true
            if let existing = source {
                source = Source(from: existing.from + " JOIN " + from + " ON " + condition, condition: existing.condition,
                                order: existing.order + (order.map { [$0] } ?? []))
                if grouped {
                    source?.groups = Groups(from: existing.from, condition: existing.condition,
                                            elements: (from, condition, order.map { [$0] } ?? []))
                }
            } else {
                source = Source(from: from, condition: condition, order: order.map { [$0] } ?? [])
            }
        }
        /// ANY/ALL/NONE need a list somewhere along the path, as in Realm.
        func checkQuantifier() throws(DrumlinError) {
            if let quantifier, !sawCollection {
                throw error("The keypath following '\(quantifier.rawValue)' must contain a list ('\(text.utf8Slice(range))' does not)", at: range)
            }
        }

        if case .variable(let name)? = components.first?.kind {
            guard let bound = variables[name] else { throw error("The variable '$\(name)' is not defined", at: components.first?.range) }
            current = bound
            components = components.dropFirst()
            if components.isEmpty {
                try checkQuantifier(); return Operand(sql: current.key, kind: .link(current.info), source: nil, quantifier: quantifier, range: range, owner: nil, property: nil)
            }
        }

        while let component = components.popFirst() {
            let isLast = components.isEmpty
            switch component.kind {
            case .property(let name):
                let index = try resolveProperty(current.info, name, component.range)
                let property = current.info.property(index)
                if property.type == .linkingObjects {
                    let (origin, originIndex) = try database.backlinkOrigin(current.info, index)
                    current = try backlinkSource(origin, originIndex, current, add: { addSource($0, $1) })
                    if isLast {
                        try checkQuantifier(); return Operand(sql: current.key, kind: .link(origin), source: source, quantifier: quantifier, range: range, owner: nil, property: property)
                    }
                    continue
                }
                if property.isColumn {
                    let raw = column(current, quoted(property.storedName))
                    if property.type == .object {
                        guard let target = current.info.targets[index] else { throw error("Unknown link target", at: component.range) }
                        if isLast {
                            try checkQuantifier(); return Operand(sql: raw, kind: .link(target), source: source, quantifier: quantifier, range: range, owner: current, property: property)
                        }
                        // Followed through one join per hop (see LinkChain), not nested subqueries.
                        var chain = current.alias == nil ? current.chain ?? LinkChain(base: current.key, first: current.info, steps: []) : nil
                        chain?.steps.append((quoted(property.storedName), target))
                        if let chain, chain.steps.count >= Self.maximumLinkHops {  // the first hop, from a joined row, starts no chain
                            throw DrumlinError(.limit, "A key path may follow at most \(Self.maximumLinkHops) links to objects ('\(text.utf8Slice(range).prefix(80))...' follows more).")
                        }
                        current = ObjectRef(info: target, key: raw, alias: nil, chain: chain)
                        continue
                    }
                    if property.type == .mixed {
                        let typeSQL = column(current, quoted(ClassInfo.mixedTypeColumn(property)))
                        if !components.isEmpty { sawCollection = true }; try checkQuantifier(); return try mixedPath(raw, typeSQL, &components, source: source, quantifier: quantifier, range: range)
                    }
                    if let length = lengthOfElements(property.type, raw, &components) {
                        try checkQuantifier(); return Operand(sql: length, kind: .count, source: source, quantifier: quantifier, range: range, owner: current, property: property)
                    }
                    guard isLast else {
                        throw error("Property '\(current.info.name).\(property.name)' of type '\(property.type.rawValue)' has no properties (in '\(name).\(components.map(\.description).joined(separator: "."))')", at: component.range)
                    }
                    try checkQuantifier(); return Operand(sql: valueSQL(raw, property.type), kind: .scalar(property.type), source: source, quantifier: quantifier,
                                   range: range, owner: current, property: property)
                }
                // A collection property.
                guard let table = current.info.collectionTables[index] else { throw error("Unknown collection", at: component.range) }
                sawCollection = true
                let element = alias("l")
                let target = current.info.targets[index]
                var walked = false   // the dictionary's `[*]` / `@values`, read already
                if table.kind == .dictionary {
                    if let next = components.first {
                        var keySQL: String?
                        switch next.kind {
                        case .property("length") where components.count == 1 && (property.type == .string || property.type == .data):
                            break   // the length of each value (below), as Realm reads `.length`
                        case .property(let key), .key(let key): keySQL = bind(.string(key))
                        case .argument(let i):
                            guard case .string = try argument(i, at: next.range) else {
                                throw error("A dictionary key argument must be a string", at: next.range)
                            }
                            keySQL = bind(.argument(i))
                        case .keys:
                            components = components.dropFirst()
                            addSource("\(table.name) AS \(element)", "\(element).owner = \(current.key)", order: "\(element).key", grouped: true)
                            try checkQuantifier(); return Operand(sql: "\(element).key", kind: .scalar(.string), source: source, quantifier: quantifier, range: range, owner: nil, property: nil)
                        case .values, .all:
                            components = components.dropFirst()
                            walked = true
                        case .first, .last, .index:
                            // A dictionary has no order, so no positions (Realm's wording).
                            throw error("Property '\(current.info.name).\(property.name)' does not support index '\(next.description.dropFirst().dropLast())'", at: next.range)
                        default: break
                        }
                        if let keySQL {
                            components = components.dropFirst()
                            let value = "(SELECT d.value FROM \(table.name) AS d WHERE d.owner = \(current.key) AND d.key = \(keySQL))"
                            if let target {
                                if components.isEmpty {
                                    try checkQuantifier(); return Operand(sql: value, kind: .link(target), source: source, quantifier: quantifier, range: range, owner: nil, property: property)
                                }
                                current = ObjectRef(info: target, key: value, alias: nil)
                                continue
                            }
                            if let existing = source, target == nil {
                                // One value per object reached: each its own group.
                                source?.groups = Groups(from: existing.from, condition: existing.condition, elements: nil)
                            }
                            if table.isMixed {
                                let typeSQL = "(SELECT d.value_type FROM \(table.name) AS d WHERE d.owner = \(current.key) AND d.key = \(keySQL))"
                                if !components.isEmpty { sawCollection = true }; try checkQuantifier(); return try mixedPath(value, typeSQL, &components, source: source, quantifier: quantifier, range: range)
                            }
                            try checkQuantifier(); return Operand(sql: valueSQL(value, property.type), kind: .scalar(property.type), source: source, quantifier: quantifier, range: range, owner: nil, property: property)
                        }
                    }
                }
                // A position in a list: a single element.
                if table.kind == .list, let next = components.first,
                   let position = try listPosition(next, table, current.key) {
                    components = components.dropFirst()
                    if let target {
                        if components.isEmpty {
                            try checkQuantifier(); return Operand(sql: position.value, kind: .link(target), source: source, quantifier: quantifier, range: range, owner: nil, property: property)
                        }
                        current = ObjectRef(info: target, key: position.value, alias: nil)
                        continue
                    }
                    if table.isMixed {
                        if !components.isEmpty { sawCollection = true }; try checkQuantifier(); return try mixedPath(position.value, position.type, &components, source: source, quantifier: quantifier, range: range)
                    }
                    try checkQuantifier(); return Operand(sql: valueSQL(position.value, property.type), kind: .scalar(property.type), source: source, quantifier: quantifier, range: range, owner: nil, property: property)
                }
                if table.kind == .set, let next = components.first {
                    switch next.kind {
                    case .index, .first, .last:
                        throw error("'\(current.info.name).\(property.name)' is a set: sets have no positions", at: next.range)
                    default: break
                    }
                }
                if !walked, case .all? = components.first?.kind { components = components.dropFirst() }
                let order: String
                switch table.kind {
                case .list: order = "\(element).position"
                case .dictionary: order = "\(element).key"
                default: order = "\(element).value"
                }
                addSource("\(table.name) AS \(element)", "\(element).owner = \(current.key)", order: order, grouped: target == nil)
                if let target {
                    let row = alias("o")
                    if components.isEmpty {
                        try checkQuantifier(); return Operand(sql: "\(element).value", kind: .link(target), source: source, quantifier: quantifier, range: range, owner: nil, property: property)
                    }
                    addSource("\(target.table) AS \(row)", "\(row).\(target.keyColumn) = \(element).value")
                    current = ObjectRef(info: target, key: "\(row).\(target.keyColumn)", alias: row)
                    continue
                }
                if table.isMixed {
                    if components.count == 1, case .property("length")? = components.first?.kind, var elements = source {
                        // Realm's element lengths of a collection of mixed values: only its strings
                        // and binaries have one; its other elements are left out (not even null).
                        components = components.dropFirst()
                        elements.condition += " AND \(element).value_type IN (3, 4)"
                        elements.groups?.elements?.condition += " AND \(element).value_type IN (3, 4)"
                        try checkQuantifier(); return Operand(sql: Self.mixedSize("\(element).value", "\(element).value_type"), kind: .count, source: elements, quantifier: quantifier, range: range, owner: nil, property: property)
                    }
                    if !components.isEmpty { sawCollection = true }; try checkQuantifier(); return try mixedPath("\(element).value", "\(element).value_type", &components, source: source, quantifier: quantifier, range: range)
                }
                if let length = lengthOfElements(property.type, "\(element).value", &components, nullIsZero: true) {
                    try checkQuantifier(); return Operand(sql: length, kind: .count, source: source, quantifier: quantifier, range: range, owner: nil, property: property)
                }
                if let next = components.first {
                    throw error("Property '\(current.info.name).\(property.name)' has no property '\(next.description)'", at: component.range)
                }
                try checkQuantifier(); return Operand(sql: valueSQL("\(element).value", property.type), kind: .scalar(property.type), source: source, quantifier: quantifier, range: range, owner: nil, property: property)

            case .backlinks(let className, let propertyName):
                guard let origin = try? database.classInfo(className) else {
                    throw error("No object type '\(className)' for '@links.\(className).\(propertyName)'", at: component.range)
                }
                guard let originIndex = origin.propertyIndex(propertyName), origin.targets[originIndex] === current.info,
                      origin.property(originIndex).type == .object else {
                    throw error("No property '\(propertyName)' found in type '\(className)' which links to type '\(current.info.name)'", at: component.range)
                }
                current = try backlinkSource(origin, originIndex, current, add: { addSource($0, $1) })
                if isLast {
                    try checkQuantifier(); return Operand(sql: current.key, kind: .link(origin), source: source, quantifier: quantifier, range: range, owner: nil, property: nil)
                }
            default:
                throw error("Unexpected '\(component.description)' in key path", at: component.range)
            }
        }
        try checkQuantifier(); return Operand(sql: current.key, kind: .link(current.info), source: source, quantifier: quantifier, range: range, owner: nil, property: nil)
    }

    /// Joins the objects of `origin` that link to `target` through `origin.property(index)`.
    mutating func backlinkSource(_ origin: ClassInfo, _ index: Int, _ target: ObjectRef,
                                 add: (String, String) -> Void) throws(DrumlinError) -> ObjectRef {
        if origin.schema.kind == .asymmetric {
            throw error("Objects of asymmetric type '\(origin.name)' cannot be queried, not even through backlinks")
        }
        let property = origin.property(index)
        let row = alias("b")
        if let table = origin.collectionTables[index] {
            let element = alias("l")
            add("\(table.name) AS \(element)", "\(element).value = \(target.key)")
            add("\(origin.table) AS \(row)", "\(row).\(origin.keyColumn) = \(element).owner")
        } else {
            add("\(origin.table) AS \(row)", "\(row).\(quoted(property.storedName)) = \(target.key)")
        }
        return ObjectRef(info: origin, key: "\(row).\(origin.keyColumn)", alias: row)
    }

    /// `[n]`, `[FIRST]`, `[LAST]` on a list: scalar subqueries for the element's value and type.
    mutating func listPosition(_ component: Query.PathComponent, _ table: CollectionTable, _ owner: String) throws(DrumlinError) -> (value: String, type: String)? {
        let order: String
        switch component.kind {
        case .index(let i): order = "WHERE p.owner = \(owner) AND p.position = \(bind(.int(Int64(i))))"
        case .first: order = "WHERE p.owner = \(owner) ORDER BY p.position LIMIT 1"
        case .last: order = "WHERE p.owner = \(owner) ORDER BY p.position DESC LIMIT 1"
        default: return nil
        }
        return ("(SELECT p.value FROM \(table.name) AS p \(order))",
                table.isMixed ? "(SELECT p.value_type FROM \(table.name) AS p \(order))" : "")
    }

    /// Steps into nested collections of a mixed value.
    mutating func mixedPath(_ value: String, _ type: String, _ components: inout ArraySlice<Query.PathComponent>,
                            source: Source?, quantifier: Query.Quantifier?, range: Query.SourceRange) throws(DrumlinError) -> Operand {
        var value = value
        var type = type
        var source = source
        while let component = components.popFirst() {
            if case .property("length") = component.kind, components.isEmpty {
                // `.length` as Realm reads it on a mixed value: a string's or binary's length, a
                // nested collection's size.
                return Operand(sql: Self.mixedSize(value, type), kind: .count, source: source, quantifier: quantifier, range: range, owner: nil, property: nil)
            }
            let collection = "(CASE WHEN \(type) IN (12, 13) THEN \(value) END)"
            var condition: String?
            switch component.kind {
            case .index(let i): condition = "m.position = \(bind(.int(Int64(i)))) AND \(type) = 12"
            case .first: condition = "m.position = 0 AND \(type) = 12"
            case .last: condition = "m.position = (SELECT max(position) FROM _drumlin_mixed WHERE collection = \(collection)) AND \(type) = 12"
            case .key(let key), .property(let key): condition = "m.key = \(bind(.string(key))) AND \(type) = 13"
            case .argument(let i):
                switch try argument(i, at: component.range) {
                case .int: condition = "m.position = \(bind(.argument(i))) AND \(type) = 12"
                case .string: condition = "m.key = \(bind(.argument(i))) AND \(type) = 13"
                default: throw error("A mixed path argument must be an int or a string", at: component.range)
                }
            case .keys where components.isEmpty:
                // The keys of a nested dictionary, each an element.
                let element = alias("m")
                let from = "_drumlin_mixed AS \(element)"
                let correlation = "\(element).collection = (CASE WHEN \(type) = 13 THEN \(value) END)"
                if let existing = source {
                    source = Source(from: existing.from + " JOIN " + from + " ON " + correlation, condition: existing.condition,
                                    order: existing.order + ["\(element).key"],
                                    groups: Groups(from: existing.from, condition: existing.condition, elements: (from, correlation, ["\(element).key"])))
                } else {
                    source = Source(from: from, condition: correlation, order: ["\(element).key"])
                }
                return Operand(sql: "\(element).key", kind: .scalar(.string), source: source, quantifier: quantifier, range: range, owner: nil, property: nil)
            case .all, .values:
                let element = alias("m")
                let from = "_drumlin_mixed AS \(element)"
                let correlation = "\(element).collection = \(collection)"
                if let existing = source {
                    // Each nested collection reached is its own group (see `Source.groups`), as in Realm.
                    source = Source(from: existing.from + " JOIN " + from + " ON " + correlation, condition: existing.condition,
                                    order: existing.order + ["\(element).position"],
                                    groups: Groups(from: existing.from, condition: existing.condition, elements: (from, correlation, ["\(element).position"])))
                } else {
                    source = Source(from: from, condition: correlation, order: ["\(element).position"])
                }
                value = "\(element).value"
                type = "\(element).value_type"
                continue
            default:
                throw error("Unexpected '\(component.description)' in a path into a mixed value", at: component.range)
            }
            guard let condition else { continue }
            let scoped = condition.replacing("m.", with: "m.")
            let nestedValue = "(SELECT m.value FROM _drumlin_mixed AS m WHERE m.collection = \(collection) AND \(scoped))"
            let nestedType = "(SELECT m.value_type FROM _drumlin_mixed AS m WHERE m.collection = \(collection) AND \(scoped))"
            if case .property(let name) = component.kind, let followed = followMixedLink(value, type, name) {
                // `mixed.name`: a held link is followed to its target's property; a nested
                // dictionary is looked up by key, as before.
                value = "(CASE WHEN \(type) = 10 THEN \(followed.value) ELSE \(nestedValue) END)"
                type = "(CASE WHEN \(type) = 10 THEN \(followed.type) ELSE \(nestedType) END)"
            } else {
                value = nestedValue
                type = nestedType
            }
        }
        return Operand(sql: value, kind: .mixed(type: type), source: source, quantifier: quantifier, range: range, owner: nil, property: nil)
    }

    /// The value and type of property `name` of the object a mixed link (`value`, stored as
    /// '<key>:<stored class name>') points at, for every top-level class with a scalar or mixed
    /// column of that name; nil when no class has one. One step only: the result is a value.
    mutating func followMixedLink(_ value: String, _ type: String, _ name: String) -> (value: String, type: String)? {
        var values: [String] = []
        var types: [String] = []
        for info in database.classes where info.schema.kind == .topLevel {
            guard let index = info.propertyIndex(name) else { continue }
            let property = info.property(index)
            guard property.isColumn, property.type != .object else { continue }
            let className = bind(.string(info.schema.storedName))
            let row = "FROM \(info.table) AS x WHERE x.\(info.keyColumn) = CAST(\(value) AS INTEGER)"
            let column = "x.\(quoted(property.storedName))"
            let typeSQL = property.type == .mixed
                ? "x.\(quoted(ClassInfo.mixedTypeColumn(property)))"
                : "(CASE WHEN \(column) IS NULL THEN 0 ELSE \(ValueCodec.typeCode(property.type)) END)"
            values.append("WHEN \(className) THEN (SELECT \(column) \(row))")
            types.append("WHEN \(className) THEN (SELECT \(typeSQL) \(row))")
        }
        guard !values.isEmpty else { return nil }
        let target = "substr(\(value), instr(\(value), ':') + 1)"
        return ("(CASE \(target) \(values.joined(separator: " ")) END)", "(CASE \(target) \(types.joined(separator: " ")) END)")
    }

    /// `.length` after a string or binary element: the SQL of its length (consuming the
    /// component), or nil when the remaining path is not just `length`.
    /// With `nullIsZero` (the elements of a collection) a null element's length is 0, as Realm
    /// reads it.
    func lengthOfElements(_ type: PropertyType, _ value: String, _ components: inout ArraySlice<Query.PathComponent>,
                          nullIsZero: Bool = false) -> String? {
        guard components.count == 1, case .property("length")? = components.first?.kind,
              type == .string || type == .data else { return nil }
        components = components.dropFirst()
        return nullIsZero ? "coalesce(length(\(value)), 0)" : "length(\(value))"
    }

    /// The size of a mixed value: a nested collection's element count, a string's or binary's length.
    static func mixedSize(_ value: String, _ type: String) -> String {
        "(CASE WHEN \(type) IN (12, 13) THEN (SELECT count(*) FROM _drumlin_mixed WHERE collection = \(value)) WHEN \(type) = 3 THEN length(\(value)) WHEN \(type) = 4 THEN length(CAST(\(value) AS BLOB)) END)"
    }

    /// Replaces `$K0` key-path arguments by the path they hold.
    mutating func expandArguments(_ keyPath: Query.KeyPath) throws(DrumlinError) -> [Query.PathComponent] {
        var result: [Query.PathComponent] = []
        for component in keyPath.components {
            guard case .keyPathArgument(let i) = component.kind else { result.append(component); continue }
            isValueDependent = true   // the path it holds is compiled
            guard case .string(let path) = try argument(i, at: component.range) else {
                throw error("A key path argument ($K\(i)) must be a string", at: component.range)
            }
            for name in path.split(separator: ".") {
                result.append(Query.PathComponent(.property(String(name)), range: component.range))
            }
        }
        return result
    }
}

