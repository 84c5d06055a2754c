import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Aggregates, SUBQUERY, full-text search and geospatial containment.
extension QueryCompiler {
    // MARK: Aggregates

    mutating func aggregate(_ keyPath: Query.KeyPath, _ op: Query.AggregateOperator, _ propertyName: String?,
                            _ quantifier: Query.Quantifier?, _ object: ObjectRef, _ range: Query.SourceRange) throws(DrumlinError) -> Operand {
        func result(_ sql: String, _ kind: Kind) -> Operand {
            Operand(sql: sql, kind: kind, source: nil, quantifier: nil, range: range, owner: nil, property: nil)
        }
        // `@links.@count`: every incoming link, from every class and property.
        if case .allBacklinks? = keyPath.components.last?.kind {
            guard op == .count else { throw error("Only @count applies to @links", at: range) }
            let prefix = Query.KeyPath(Array(keyPath.components.dropLast()), range: keyPath.range)
            var target = object
            // After a to-many path (`dogs.@links.@count`) the counts of the elements are added up.
            var elements: Source?
            if !prefix.components.isEmpty {
                let operand = try path(prefix, object, quantifier: quantifier)
                guard case .link(let info) = operand.kind else {
                    throw error("@links needs an object, not '\(text.utf8Slice(prefix.range))'", at: range)
                }
                target = ObjectRef(info: info, key: operand.sql, alias: nil)
                elements = operand.source
            }
            var counts: [String] = []
            for (origin, index) in target.info.incoming {
                let property = origin.property(index)
                if let table = origin.collectionTables[index] {
                    counts.append("(SELECT count(*) FROM \(table.name) WHERE value = \(target.key))")
                } else {
                    counts.append("(SELECT count(*) FROM \(origin.table) WHERE \(quoted(property.storedName)) = \(target.key))")
                }
            }
            var total = result(counts.isEmpty ? "0" : "(" + counts.joined(separator: " + ") + ")", .count)
            if let elements {
                // Realm sums the counts of the elements (`items.@links.@count`, each element as
                // often as the path reaches it); a quantifier compares each element's own count.
                guard quantifier == nil else {
                    total.source = elements
                    total.quantifier = quantifier
                    return total
                }
                return result("(SELECT coalesce(sum(\(total.sql)), 0) FROM \(elements.from) WHERE \(elements.condition))", .count)
            }
            return total
        }
        // `links.numbers.@max` through a to-many path: one aggregate per linked object, as Realm
        // (the values are then compared by the quantifier, ANY when none is written).
        if propertyName == nil, keyPath.components.count > 1, case .property(let last)? = keyPath.components.last?.kind {
            let prefix = Query.KeyPath(Array(keyPath.components.dropLast()), range: keyPath.range)
            let owner = try path(prefix, object, quantifier: nil)
            if case .link(let target) = owner.kind, let source = owner.source,
               let index = target.propertyIndex(last), target.collectionTables[index] != nil, target.targets[index] == nil {
                let single = Query.KeyPath([keyPath.components[keyPath.components.count - 1]], range: keyPath.range)
                var inner = try aggregate(single, op, nil, nil, ObjectRef(info: target, key: owner.sql, alias: nil), range)
                inner.source = source
                inner.quantifier = quantifier
                return inner
            }
        }
        var components = keyPath.components
        if let propertyName { components.append(Query.PathComponent(.property(propertyName), range: keyPath.range)) }
        let operand = try path(Query.KeyPath(components, range: keyPath.range), object, quantifier: nil)
        let name = text.utf8Slice(keyPath.range) + (propertyName.map { ".\($0)" } ?? "")

        guard let source = operand.source else {
            switch (op, operand.kind) {
            case (.count, .scalar(.string)), (.count, .scalar(.data)):
                return result("length(\(operand.sql))", .count)
            case (.count, .link):
                // A to-one link counts as a list of at most one object, as in Realm.
                return result("(CASE WHEN \(operand.sql) IS NULL THEN 0 ELSE 1 END)", .count)
            case (.count, .mixed(let type)):
                // A collection's size, a string's or binary's length.
                return result(Self.mixedSize(operand.sql, type), .count)
            default:
                throw error("Operation '.\(op.rawValue)' cannot apply to property '\(name)' because it is not a list", at: range)
            }
        }
        let from = "FROM \(source.from) WHERE \(source.condition)"
        if op == .count { return result("(SELECT count(*) \(from))", .count) }
        var value = operand.sql
        var kind: Kind = operand.kind
        switch operand.kind {
        case .scalar(let type):
            let allowed: [PropertyType] = op == .min || op == .max ? [.int, .float, .double, .decimal128, .date] : [.int, .float, .double, .decimal128]
            guard allowed.contains(type) else {
                throw error("Operation '.\(op.rawValue)' cannot apply to property '\(name)' of type '\(type.rawValue)'", at: range)
            }
            if type == .decimal128 {
                let code = ["sum": 0, "avg": 1, "min": 2, "max": 3][String(op.rawValue.dropFirst())] ?? 0
                let sql = op == .sum ? "coalesce(drumlin_decagg(\(code), \(value)), '0')" : "drumlin_decagg(\(code), \(value))"
                return result("(SELECT \(sql) \(from))", .scalar(.decimal128))
            }
        case .mixed(let type) where op == .min || op == .max:
            // Realm orders mixed values across types: bool, numbers, strings and binary, dates,
            // ObjectId, UUID, links; nulls and collections take no part.
            let rank = "(CASE \(type) WHEN 2 THEN 0 WHEN 1 THEN 1 WHEN 6 THEN 1 WHEN 7 THEN 1 WHEN 8 THEN 1 WHEN 3 THEN 2 WHEN 4 THEN 2 WHEN 5 THEN 3 WHEN 9 THEN 4 WHEN 11 THEN 5 WHEN 10 THEN 6 END)"
            let number = "(CASE WHEN \(type) = 8 THEN CAST(\(value) AS REAL) WHEN \(type) IN (6, 7) THEN drumlin_num(\(value)) ELSE \(value) END)"
            let direction = op == .min ? "ASC" : "DESC"
            let pick = "\(from) AND \(rank) IS NOT NULL ORDER BY \(rank) \(direction), \(number) \(direction) LIMIT 1"
            return result("(SELECT \(value) \(pick))", .mixed(type: "(SELECT \(type) \(pick))"))
        case .mixed(let type):
            // Realm adds the numbers of a mixed collection as decimals, leaving out NaN (a
            // Decimal128 NaN as a double NaN) and every non-number, and so does the average.
            let number = "(CASE WHEN \(type) IN (1, 8) THEN \(value) WHEN \(type) IN (6, 7) THEN drumlin_num(\(value)) END)"
            switch op {
            case .sum: return result("(SELECT coalesce(drumlin_decagg(0, \(number)), '0') \(from))", .scalar(.decimal128))
            case .avg: return result("(SELECT drumlin_decagg(1, \(number)) \(from))", .scalar(.decimal128))
            default:
                value = "(CASE WHEN \(type) IN (1, 6, 7) THEN drumlin_num(\(value)) WHEN \(type) = 8 THEN CAST(\(value) AS REAL) END)"
                kind = .scalar(.double)
            }
        default:
            throw error("Operation '.\(op.rawValue)' cannot apply to '\(name)': name a property of the linked objects (e.g. '.\(op.rawValue).price')", at: range)
        }
        switch op {
        case .sum: return result("(SELECT coalesce(sum(\(value)), 0) \(from))", kind)
        case .avg: return result("(SELECT avg(\(value)) \(from))", .scalar(.double))
        case .min: return result("(SELECT min(\(value)) \(from))", kind)
        case .max: return result("(SELECT max(\(value)) \(from))", kind)
        case .count: return result("(SELECT count(*) \(from))", .count)
        }
    }

    // MARK: SUBQUERY

    mutating func subquery(_ collection: Query.KeyPath, _ variable: String, _ predicate: Query.Predicate,
                           _ object: ObjectRef, _ range: Query.SourceRange) throws(DrumlinError) -> Operand {
        let operand = try path(collection, object, quantifier: nil)
        let name = text.utf8Slice(collection.range)
        guard let source = operand.source else {
            throw error("A subquery must operate on a list property, not '\(name)'", at: collection.range)
        }
        guard case .link(let target) = operand.kind else {
            throw error("A subquery can not operate on a list of primitive values (property '\(name)')", at: collection.range)
        }
        let row = alias("s")
        let saved = variables[variable]
        variables[variable] = ObjectRef(info: target, key: "\(row).\(target.keyColumn)", alias: row)
        defer { variables[variable] = saved }
        let condition = try compile(predicate, ObjectRef(info: target, key: "\(row).\(target.keyColumn)", alias: row))
        let sql = "(SELECT count(*) FROM \(source.from) JOIN \(target.table) AS \(row) ON \(row).\(target.keyColumn) = \(operand.sql) WHERE \(source.condition) AND (\(condition)))"
        return Operand(sql: sql, kind: .count, source: nil, quantifier: nil, range: range, owner: nil, property: nil)
    }

    // MARK: TEXT

    mutating func fullText(_ comparison: Query.Comparison, _ object: ObjectRef) throws(DrumlinError) -> String {
        guard case .keyPath(let keyPath, _) = comparison.lhs.kind else {
            throw error("TEXT needs a full-text indexed property on the left", at: comparison.lhs.range)
        }
        let lhs = try path(keyPath, object, quantifier: nil)
        guard let property = lhs.property, let owner = lhs.owner, property.index == .fullText else {
            throw error("Column has no fulltext index: '\(text.utf8Slice(keyPath.range))' is not a full-text indexed string property", at: comparison.lhs.range)
        }
        let search: String
        let rhs = try operand(comparison.rhs, object)
        switch rhs.kind {
        case .constant(.string(let s)): search = s
        default: throw error("TEXT needs a string on the right", at: comparison.rhs.range)
        }
        // The search is compiled into FTS5 phrases.
        dependsOnValue(of: rhs)
        let (include, exclude) = try Self.ftsTerms(search, error: { error($0, at: comparison.rhs.range) })
        let table = quoted(FullText.tableName(owner.info, property))
        var conditions: [String] = []
        if !include.isEmpty {
            conditions.append("\(owner.key) IN (SELECT rowid FROM \(table) WHERE \(table) MATCH \(bind(.string(include.joined(separator: " AND ")))))")
        }
        if !exclude.isEmpty {
            conditions.append("\(owner.key) NOT IN (SELECT rowid FROM \(table) WHERE \(table) MATCH \(bind(.string(exclude.joined(separator: " OR ")))))")
        }
        return conditions.joined(separator: " AND ")
    }

    /// Realm's search terms as FTS5 phrases: every term required, `word*` a prefix, `-word` excluded.
    static func ftsTerms(_ search: String, error: (String) -> DrumlinError) throws(DrumlinError) -> ([String], [String]) {
        var include: [String] = [], exclude: [String] = []
        var includedWords = Set<String>(), excludedWords = Set<String>()
        for raw in search.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            var word = String(raw)
            let negated = word.hasPrefix("-")
            if negated { word.removeFirst() }
            let prefix = word.hasSuffix("*")
            if prefix { word.removeLast() }
            guard !word.isEmpty else { continue }
            let phrase = "\"" + word.replacing("\"", with: "\"\"") + "\"" + (prefix ? "*" : "")
            if negated { exclude.append(phrase); excludedWords.insert(word.lowercased()) } else { include.append(phrase); includedWords.insert(word.lowercased()) }
        }
        if include.isEmpty && exclude.isEmpty { throw error("A full-text search needs at least one term") }
        if let both = includedWords.intersection(excludedWords).first {
            throw error("A full-text search cannot both include and exclude '\(both)'")
        }
        return (include, exclude)
    }

    // MARK: GEOWITHIN

    mutating func geoWithin(_ comparison: Query.Comparison, _ object: ObjectRef) throws(DrumlinError) -> String {
        guard case .keyPath(let keyPath, let quantifier) = comparison.lhs.kind else {
            throw error("GEOWITHIN needs a geo point property on the left", at: comparison.lhs.range)
        }
        let point = try path(keyPath, object, quantifier: quantifier)
        guard case .link(let target) = point.kind, let (_, coordinatesIndex) = target.geoPointIndices,
              let coordinates = target.collectionTables[coordinatesIndex] else {
            throw error("GEOWITHIN needs a geo point property (an embedded type with 'type' and 'coordinates'), not '\(text.utf8Slice(keyPath.range))'", at: comparison.lhs.range)
        }
        let shape = try geoShape(comparison.rhs, object)
        let bound = bind(.string(shape))
        let within = try quantified(point) { (compiler, element) throws(DrumlinError) in
            let lon = "(SELECT drumlin_num(c.value) FROM \(coordinates.name) AS c WHERE c.owner = \(element.sql) AND c.position = 0)"
            let lat = "(SELECT drumlin_num(c.value) FROM \(coordinates.name) AS c WHERE c.owner = \(element.sql) AND c.position = 1)"
            return "coalesce(drumlin_geo(\(lon), \(lat), \(bound)), 0) = 1"
        }
        if point.quantifier == .allElements, let source = point.source {
            // Realm: ALL needs at least one point (an empty list is not within anything).
            return "(EXISTS (SELECT 1 FROM \(source.from) WHERE \(source.condition)) AND \(within))"
        }
        return within
    }

    /// The shape as the JSON `drumlin_geo` reads, after checking coordinates and rings.
    mutating func geoShape(_ expression: Query.Expression, _ object: ObjectRef) throws(DrumlinError) -> String {
        let range = expression.range
        func number(_ coordinate: Query.GeoCoordinate) throws(DrumlinError) -> Double {
            switch coordinate.kind {
            case .number(let d): return d
            case .argument(let i):
                isValueDependent = true   // checked, then written into the shape's JSON
                switch try argument(i, at: coordinate.range) {
                case .int(let v): return Double(v)
                case .double(let v): return v
                case .float(let v): return Double(v)
                default: throw error("A geo coordinate argument must be a number", at: coordinate.range)
                }
            }
        }
        func point(_ p: Query.GeoPoint) throws(DrumlinError) -> (Double, Double) {
            let lon = try number(p.longitude), lat = try number(p.latitude)
            guard (-180...180).contains(lon), (-90...90).contains(lat) else {
                throw error("Invalid geo point [\(lon), \(lat)]: longitude must be in [-180, 180] and latitude in [-90, 90]", at: p.range)
            }
            return (lon, lat)
        }
        func text(_ p: (Double, Double)) -> String { "[\(p.0),\(p.1)]" }
        switch expression.kind {
        case .geoBox(let sw, let ne):
            return "{\"box\":[\(text(try point(sw))),\(text(try point(ne)))]}"
        case .geoCircle(let center, let radius):
            let r = try number(radius)
            guard r >= 0, r.isFinite else { throw error("A geoCircle radius must be a non-negative number of radians", at: radius.range) }
            return "{\"circle\":[\(text(try point(center))),\(r)]}"
        case .geoPolygon(let rings):
            var ringTexts: [String] = []
            for ring in rings {
                var points: [(Double, Double)] = []
                for p in ring { points.append(try point(p)) }
                guard points.count >= 4, let first = points.first, let last = points.last, first == last else {
                    throw error("A geoPolygon ring needs at least 4 points and must be closed (first point == last point)", at: range)
                }
                ringTexts.append("[" + points.map(text).joined(separator: ",") + "]")
            }
            return "{\"polygon\":[\(ringTexts.joined(separator: ","))]}"
        case .argument(let i):
            isValueDependent = true   // checked, then bound as the shape's JSON
            let value = try argument(i, at: range)
            if case .string(let written) = value, GeoShape(text: written) == nil,
               let shape = try? QueryParser.parseGeoShape(written) {
                // A shape written as in a query (`"geoCircle([0.3, 0.3], 1)"`), as Realm accepts.
                switch shape.kind {
                case .geoBox, .geoCircle, .geoPolygon: return try geoShape(shape, object)
                default: break
                }
            }
            guard case .string(let shape) = value, let parsed = GeoShape(text: shape) else {
                throw error("A geo shape argument must be a shape such as {\"box\": [[lon, lat], [lon, lat]]}, {\"circle\": [[lon, lat], radians]} or {\"polygon\": [[[lon, lat], ...]]}", at: range)
            }
            // The same checks as a shape written in the query.
            func inRange(_ lon: Double, _ lat: Double) -> Bool { (-180...180).contains(lon) && (-90...90).contains(lat) }
            switch parsed.kind {
            case let .box(west, south, east, north):
                guard inRange(west, south), inRange(east, north) else {
                    throw error("Invalid geo point in the geoBox argument: longitude must be in [-180, 180] and latitude in [-90, 90]", at: range)
                }
            case let .circle(lon, lat, radius):
                guard inRange(lon, lat) else { throw error("Invalid geoCircle argument: the center is out of range", at: range) }
                guard radius >= 0, radius.isFinite else { throw error("A geoCircle radius must be a non-negative number of radians", at: range) }
            case .polygon(let rings):
                for ring in rings {
                    guard ring.count >= 4, let first = ring.first, let last = ring.last, first == last,
                          ring.allSatisfy({ inRange($0.0, $0.1) }) else {
                        throw error("A geoPolygon ring needs at least 4 points in range and must be closed (first point == last point)", at: range)
                    }
                }
            }
            return shape
        default:
            throw error("GEOWITHIN needs geoBox, geoCircle, geoPolygon or an argument", at: range)
        }
    }
}
