import DrumlinSchema
import DrumlinSyncProtocol
import DrumlinValues

/// Turns uploaded objects (Extended JSON) into the rows of their table, as one JSON array that
/// `jsonb_populate_recordset` reads: each column's value in PostgreSQL's input form (`\x…` for
/// bytea, ISO-8601 for timestamptz, decimal text for numeric), jsonb columns as Extended JSON.
/// Values are checked and converted by the engine's own rules (`ExtendedJSON`, `Coercion`), so a
/// value the engine would refuse is refused here with the engine's words.
struct RowEncoder {
    let schema: Schema
    let mapping: ClassMapping

    struct Rows: Sendable {
        /// `[{"col": value, ...}, ...]`
        var json: String
        /// Each object's `_id` in PostgreSQL's text output form (what `RETURNING "_id"::text` gives).
        var keyTexts: [String]
        /// Each object's `_id` as Extended JSON (for `existing` in the ack).
        var keys: [JSON]
    }

    func encode(_ objects: [JSON], seq: Int64) throws(SyncError) -> Rows {
        var writer = JSONWriter(reservingCapacity: 64 * objects.count)
        var rows = Rows(json: "", keyTexts: [], keys: [])
        rows.keyTexts.reserveCapacity(objects.count)
        writer.writeByte(UInt8(ascii: "["))
        for (index, object) in objects.enumerated() {
            if index > 0 { writer.writeByte(UInt8(ascii: ",")) }
            do throws(DrumlinError) {
                let key = try writeRow(object, to: &writer)
                rows.keyTexts.append(key.text)
                rows.keys.append(key.json)
            } catch {
                throw SyncError(.badChangeset, "upload \(seq): \(mapping.className) object \(index): \(error.message)", seq: seq)
            }
        }
        writer.writeByte(UInt8(ascii: "]"))
        rows.json = writer.string
        return rows
    }

    private func writeRow(_ object: JSON, to writer: inout JSONWriter) throws(DrumlinError) -> (text: String, json: JSON) {
        let members = try Self.members(of: object, objectSchema: mapping.objectSchema)
        var key: (text: String, json: JSON)?
        writer.writeByte(UInt8(ascii: "{"))
        var first = true
        for property in mapping.objectSchema.properties where !property.isComputed {
            let label = Label(className: mapping.className, propertyName: property.name)
            let json = members[property.name]
            if !first { writer.writeByte(UInt8(ascii: ",")) }
            first = false
            writer.writeString(property.storedName)
            writer.writeByte(UInt8(ascii: ":"))
            if property.isCollection {
                try writeCollection(json, property, label, to: &writer)
                continue
            }
            if property.type == .object {
                if let keyType = ClassMapping.targetKeyType(property, schema) {
                    // A to-one link to a top-level object: the target's primary key.
                    let value = try Self.coerce(json ?? .null, keyType, optional: true, label)
                    _ = Self.writeColumnValue(value, to: &writer)
                } else {
                    try writeEmbeddedOrNull(json, property, label, to: &writer)
                }
                continue
            }
            guard let json else {
                if property.isPrimaryKey {
                    throw DrumlinError(.missingValue, "Missing value for primary key property '_id'.")
                }
                if !property.isOptional && property.type != .mixed {
                    throw DrumlinError(.missingValue, "Missing value for property \(label).")
                }
                writer.writeRaw("null")
                if property.type == .date { writeNanos(nil, property, to: &writer) }
                continue
            }
            let value = property.type == .mixed ? try ExtendedJSON.mixedValue(json)
                                                : try Self.coerce(json, property.type, optional: property.isOptional, label)
            if property.type == .mixed {
                ExtendedJSON.write(value, to: &writer)
                continue
            }
            let text = Self.writeColumnValue(value, to: &writer)
            if property.type == .date { writeNanos(value, property, to: &writer) }
            if property.isPrimaryKey { key = (text ?? "", ExtendedJSON.json(value)) }
        }
        writer.writeByte(UInt8(ascii: "}"))
        guard let key else { throw DrumlinError(.missingValue, "Missing value for primary key property '_id'.") }
        return key
    }

    private func writeNanos(_ value: Value?, _ property: Property, to writer: inout JSONWriter) {
        writer.writeByte(UInt8(ascii: ","))
        writer.writeString(property.storedName + "__ns")
        writer.writeByte(UInt8(ascii: ":"))
        if case .date(let t)? = value { writer.writeInt(Int64(t.nanoseconds % 1000)) } else { writer.writeInt(0) }
    }

    private func writeEmbeddedOrNull(_ json: JSON?, _ property: Property, _ label: Label,
                                     to writer: inout JSONWriter) throws(DrumlinError) {
        guard let json, !json.isNull else { writer.writeRaw("null"); return }
        try writeEmbedded(json, className: property.objectType ?? "", to: &writer)
    }

    /// An embedded object as Extended JSON under its properties' stored names, checked as a whole.
    private func writeEmbedded(_ json: JSON, className: String, to writer: inout JSONWriter, depth: Int = 0) throws(DrumlinError) {
        guard let embedded = schema[className] else { throw DrumlinError(.noSuchClass, "Object type '\(className)' not found in schema.") }
        guard depth < 100 else { throw DrumlinError(.limit, "Embedded objects nest more than 100 levels deep.") }
        let members = try Self.members(of: json, objectSchema: embedded)
        writer.writeByte(UInt8(ascii: "{"))
        var first = true
        for property in embedded.properties where !property.isComputed {
            let label = Label(className: className, propertyName: property.name)
            if !first { writer.writeByte(UInt8(ascii: ",")) }
            first = false
            writer.writeString(property.storedName)
            writer.writeByte(UInt8(ascii: ":"))
            try writeElement(members[property.name], property, label, collection: property.collection, to: &writer, depth: depth)
        }
        writer.writeByte(UInt8(ascii: "}"))
    }

    private func writeCollection(_ json: JSON?, _ property: Property, _ label: Label, to writer: inout JSONWriter) throws(DrumlinError) {
        try writeElement(json, property, label, collection: property.collection, to: &writer, depth: 0)
    }

    /// A value inside jsonb (a collection, an embedded object's property): Extended JSON.
    private func writeElement(_ json: JSON?, _ property: Property, _ label: Label, collection: CollectionKind,
                              to writer: inout JSONWriter, depth: Int) throws(DrumlinError) {
        switch collection {
        case .list, .set:
            guard let json, !json.isNull else { writer.writeRaw("[]"); return }
            guard case .array(let elements) = json else {
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected a \(property.collection.typeWord ?? "list") (a JSON array), got \(json.kindName).")
            }
            writer.writeByte(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                try writeElement(element, property, label, collection: .single, to: &writer, depth: depth)
            }
            writer.writeByte(UInt8(ascii: "]"))
        case .dictionary:
            guard let json, !json.isNull else { writer.writeRaw("{}"); return }
            guard case .object(let entries) = json else {
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected a dictionary (a JSON object), got \(json.kindName).")
            }
            writer.writeByte(UInt8(ascii: "{"))
            var keys: Set<String> = []
            for (i, entry) in entries.enumerated() {
                if entry.key.hasPrefix("$") || entry.key.contains(".") {
                    throw DrumlinError(.invalidArgument, "Invalid key '\(entry.key)' in dictionary property \(label): keys cannot contain '.' or start with '$'.")
                }
                guard keys.insert(entry.key).inserted else {
                    throw DrumlinError(.invalidArgument, "Duplicate key '\(entry.key)' in a dictionary.")
                }
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                writer.writeString(entry.key)
                writer.writeByte(UInt8(ascii: ":"))
                try writeElement(entry.value, property, label, collection: .single, to: &writer, depth: depth)
            }
            writer.writeByte(UInt8(ascii: "}"))
        case .single:
            let json = json ?? .null
            if property.type == .object {
                if let keyType = ClassMapping.targetKeyType(property, schema) {
                    ExtendedJSON.write(try Self.coerce(json, keyType, optional: true, label), to: &writer)
                } else if json.isNull {
                    writer.writeRaw("null")
                } else {
                    try writeEmbedded(json, className: property.objectType ?? "", to: &writer, depth: depth + 1)
                }
                return
            }
            let value = property.type == .mixed
                ? try Coercion.scalar(ExtendedJSON.mixedValue(json), .mixed, optional: true,
                                      nested: property.collection != .set, label)
                : try Self.coerce(json, property.type, optional: property.isOptional, label)
            ExtendedJSON.write(value, to: &writer)
        }
    }

    // MARK: Values

    /// An object's members by name; a name the class has no stored property for is an error.
    private static func members(of object: JSON, objectSchema: ObjectSchema) throws(DrumlinError) -> [String: JSON] {
        let className = objectSchema.name
        guard case .object(let entries) = object else {
            throw DrumlinError(.typeMismatch, "expected an object (a JSON object of properties), got \(object.kindName).")
        }
        var members: [String: JSON] = [:]
        members.reserveCapacity(entries.count)
        for entry in entries {
            guard let property = objectSchema.property(named: entry.key) else {
                throw DrumlinError(.noSuchProperty, "Object type '\(className)' has no property '\(entry.key)'.")
            }
            guard !property.isComputed else {
                throw DrumlinError(.invalidArgument, "Property '\(className).\(entry.key)' is computed (linkingObjects) and cannot be uploaded.")
            }
            guard members.updateValue(entry.value, forKey: entry.key) == nil else {
                throw DrumlinError(.invalidArgument, "Duplicate property '\(entry.key)' in an object of type '\(className)'.")
            }
        }
        return members
    }

    /// A JSON value (plain or an Extended JSON wrapper) as a value of `type`, by the engine's rules.
    static func coerce(_ json: JSON, _ type: PropertyType, optional: Bool, _ label: Label) throws(DrumlinError) -> Value {
        let value: Value
        switch json {
        case .null: value = .null
        case .bool(let b): value = .bool(b)
        case .int(let i): value = .int(i)
        case .double(let d): value = .double(d)
        case .string(let s): value = .string(s)
        case .array:
            throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected \(type.rawValue), got an array.")
        case .object:
            guard let wrapped = try ExtendedJSON.wrapped(json) else {
                throw DrumlinError(.typeMismatch, "Type mismatch for property \(label): expected \(type.rawValue), got an object.")
            }
            value = wrapped
        }
        let coerced = try Coercion.scalar(value, type, optional: optional, nested: false, label)
        if case .date(let t) = coerced, !t.withMicrosecondISO8601({ _ in }) {
            throw DrumlinError(.invalidArgument, "Property \(label): the date \(t.iso8601) is outside the years 1-9999 that PostgreSQL's timestamptz mapping keeps.")
        }
        return coerced
    }

    /// Writes a scalar in the input form of its column type; returns the text PostgreSQL prints
    /// for it (`RETURNING col::text`), or nil for null.
    @discardableResult
    static func writeColumnValue(_ value: Value, to writer: inout JSONWriter) -> String? {
        switch value {
        case .null:
            writer.writeRaw("null")
            return nil
        case .bool(let b):
            writer.writeRaw(b ? "true" : "false")
            return b ? "true" : "false"
        case .int(let i):
            writer.writeInt(i)
            return String(i)
        case .float(let f):
            return writeFloatingPoint(Double(f), text: f.description, to: &writer)
        case .double(let d):
            return writeFloatingPoint(d, text: d.description, to: &writer)
        case .decimal(let d):
            let text = d.description
            writer.writeString(text)
            return text
        case .string(let s):
            writer.writeString(s)
            return s
        case .data(let bytes):
            let text = hexBytea(bytes)
            writer.writeString(text)
            return text
        case .objectId(let oid):
            let text = "\\x" + oid.hex
            writer.writeString(text)
            return text
        case .uuid(let uuid):
            writer.writeString(uuid.string)
            return uuid.string
        case .date(let t):
            var text = ""
            _ = t.withMicrosecondISO8601 { text = String(decoding: $0, as: UTF8.self) }
            writer.writeString(text)
            return text
        case .link, .list, .dictionary:
            // Not scalars: links are written as their target's key, collections as jsonb.
            ExtendedJSON.write(value, to: &writer)
            return nil
        }
    }

    private static func writeFloatingPoint(_ d: Double, text: String, to writer: inout JSONWriter) -> String {
        if d.isFinite {
            writer.writeRaw(text)
            return text
        }
        let special = d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity"
        writer.writeString(special)
        return special
    }

    static func hexBytea(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        out.reserveCapacity(2 + 2 * bytes.count)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
