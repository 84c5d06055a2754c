import DrumlinValues

/// Naming rules: Realm's unique class names, and Drumlin's own rules, which come from storing each
/// class as an SQLite table and each property as a column:
///
/// - names cannot be empty or contain NUL (SQLite and C strings end at NUL); any other character,
///   quotes, `;`, spaces and emoji included, is accepted verbatim because identifiers are always
///   quoted and never spliced into SQL;
/// - names starting with `_drumlin` (in any letter case) are reserved for Drumlin's internal tables
///   and columns;
/// - stored class names are at most 57 UTF-8 bytes and stored property names at most 63, Realm's
///   limits, so a schema that opens here also fits Realm's;
/// - SQLite identifiers are case-insensitive (ASCII), so stored names may not differ only in case.
extension Schema {
    static let reservedPrefix = "_drumlin"
    static let maximumStoredClassNameBytes = 57
    static let maximumStoredPropertyNameBytes = 63

    /// S1 (unique public class names) and distinct stored (table) names, ignoring ASCII case.
    func classNameProblems() -> [String] {
        var problems: [String] = []
        for (index, objectSchema) in objectSchemas.enumerated() {
            let earlier = objectSchemas[..<index]
            if earlier.contains(where: { $0.name.isSameName(objectSchema.name) }) {
                problems.append("Type '\(objectSchema.name)' appears more than once in the schema.")
                continue
            }
            let folded = Schema.asciiLowercased(objectSchema.storedName)
            guard let other = earlier.first(where: { Schema.asciiLowercased($0.storedName).isSameName(folded) }) else { continue }
            if other.storedName.isSameName(objectSchema.storedName) {
                problems.append("Name clash: types '\(other.name)' and '\(objectSchema.name)' are both stored as '\(objectSchema.storedName)'.")
            } else {
                problems.append("Name clash: the stored names of types '\(other.name)' ('\(other.storedName)') and '\(objectSchema.name)' ('\(objectSchema.storedName)') differ only in letter case; SQLite names are case-insensitive.")
            }
        }
        return problems
    }

    /// SQLite's default SQLITE_MAX_COLUMN: a table has at most this many columns.
    static let maximumStoredColumns = 2000

    /// A class's own names: public and stored.
    static func nameProblems(of objectSchema: ObjectSchema) -> [String] {
        let name = objectSchema.name
        let stored = objectSchema.storedName
        var problems: [String] = []
        if name.isEmpty {
            problems.append("Empty name: type names cannot be empty.")
        } else if name.utf8.contains(0) {
            problems.append("Invalid name: type '\(name)' contains a NUL character.")
        } else if isReserved(name) {
            problems.append("Reserved name: type '\(name)' starts with '\(reservedPrefix)', which is reserved for Drumlin's internal use.")
        }
        if stored != name {
            if stored.isEmpty {
                problems.append("Empty name: the stored name (mapTo) of type '\(name)' is empty.")
            } else if stored.utf8.contains(0) {
                problems.append("Invalid name: the stored name '\(stored)' of type '\(name)' contains a NUL character.")
            } else if isReserved(stored) {
                problems.append("Reserved name: the stored name '\(stored)' of type '\(name)' starts with '\(reservedPrefix)', which is reserved for Drumlin's internal use.")
            }
        }
        if !stored.isEmpty, asciiLowercased(stored).hasPrefix("sqlite_") {
            problems.append("Reserved name: the stored name '\(stored)' of type '\(name)' starts with 'sqlite_', which SQLite reserves for its own tables.")
        }
        let columns = objectSchema.properties.reduce(1) { count, property in
            count + (property.isColumn ? (property.type == .mixed ? 2 : 1) : 0)
        }
        if columns > maximumStoredColumns {
            problems.append("Too many properties: type '\(name)' needs \(columns) stored columns; SQLite allows at most \(maximumStoredColumns) in a table (each property takes one, a mixed property two, plus the object key).")
        }
        if stored.utf8.count > maximumStoredClassNameBytes {
            problems.append("Name too long: the stored name of type '\(name)' is \(stored.utf8.count) UTF-8 bytes; the limit is \(maximumStoredClassNameBytes).")
        }
        return problems
    }

    /// A property's own names: public and stored.
    static func nameProblems(of property: Property, in objectSchema: ObjectSchema) -> [String] {
        let path = "\(objectSchema.name).\(property.name)"
        let stored = property.storedName
        var problems: [String] = []
        if property.name.isEmpty {
            problems.append("Empty name: type '\(objectSchema.name)' has a property with an empty name.")
        } else if property.name.utf8.contains(0) {
            problems.append("Invalid name: property '\(path)' contains a NUL character.")
        } else if isReserved(property.name) {
            problems.append("Reserved name: property '\(path)' starts with '\(reservedPrefix)', which is reserved for Drumlin's internal use.")
        }
        if stored != property.name {
            if stored.isEmpty {
                problems.append("Empty name: the stored name (mapTo) of property '\(path)' is empty.")
            } else if stored.utf8.contains(0) {
                problems.append("Invalid name: the stored name '\(stored)' of property '\(path)' contains a NUL character.")
            } else if isReserved(stored) {
                problems.append("Reserved name: the stored name '\(stored)' of property '\(path)' starts with '\(reservedPrefix)', which is reserved for Drumlin's internal use.")
            }
        }
        if stored.utf8.count > maximumStoredPropertyNameBytes {
            problems.append("Name too long: the stored name of property '\(path)' is \(stored.utf8.count) UTF-8 bytes; the limit is \(maximumStoredPropertyNameBytes).")
        }
        return problems
    }

    /// Stored property names of one class that differ only in ASCII case (exact duplicates are
    /// Realm's "appears more than once").
    static func caseClashProblems(of objectSchema: ObjectSchema) -> [String] {
        var problems: [String] = []
        let properties = objectSchema.properties
        for (index, property) in properties.enumerated() {
            let folded = asciiLowercased(property.storedName)
            let earlier = properties[..<index]
            guard !earlier.contains(where: { $0.storedName.isSameName(property.storedName) }),
                  let other = earlier.first(where: { asciiLowercased($0.storedName).isSameName(folded) }) else { continue }
            problems.append("Name clash: the stored names of properties '\(objectSchema.name).\(other.name)' ('\(other.storedName)') and '\(objectSchema.name).\(property.name)' ('\(property.storedName)') differ only in letter case; SQLite names are case-insensitive.")
        }
        return problems
    }

    /// In a schema built in code, `ObjectSchema.primaryKey` and `Property.isPrimaryKey` must agree
    /// (the JSON reader sets both).
    static func primaryKeyFlagProblems(of objectSchema: ObjectSchema) -> [String] {
        var problems: [String] = []
        for property in objectSchema.properties {
            let path = "\(objectSchema.name).\(property.name)"
            let isNamedPrimaryKey = property.name == objectSchema.primaryKey
            if property.isPrimaryKey && !isNamedPrimaryKey {
                if let primaryKey = objectSchema.primaryKey {
                    problems.append("Property '\(path)' is marked as a primary key, but the primary key of '\(objectSchema.name)' is '\(primaryKey)'.")
                } else {
                    problems.append("Property '\(path)' is marked as a primary key, but '\(objectSchema.name)' has no primary key.")
                }
            } else if isNamedPrimaryKey && !property.isPrimaryKey {
                problems.append("Primary key '\(path)' is not marked as a primary key (isPrimaryKey).")
            }
        }
        return problems
    }

    private static func isReserved(_ name: String) -> Bool {
        asciiLowercased(name).utf8.starts(with: reservedPrefix.utf8)
    }

    /// SQLite folds only ASCII letters when it compares identifiers.
    private static func asciiLowercased(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return name }
        return String(decoding: name.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
