internal import DrumlinEngine

/// Realm Swift's migration block: runs once when the file's stored schema version is lower than
/// `Realm.Configuration.schemaVersion`, inside the transaction that changes the schema.
public typealias MigrationBlock = @Sendable (_ migration: Migration, _ oldSchemaVersion: UInt64) -> Void

/// Receives each object during `Migration.enumerateObjects(ofType:_:)`.
public typealias MigrationObjectEnumerateBlock = (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) -> Void

/// What a migration block works with, as Realm Swift's `Migration`: the objects as they were
/// (`oldObject`s, read-only) and the objects in the new schema (`newObject`s). Valid only during
/// the block. A failure inside it (a value of the wrong type, a rename of a missing property)
/// makes the open fail with that error, and the file stays as it was.
public struct Migration {
    let engine: DrumlinEngine.Migration
    let failure: MigrationFailure

    /// The schema stored in the file before the migration.
    public var oldSchema: Schema { Schema(engine.oldSchema.objectSchemas.map(ObjectSchema.init(stored:))) }
    /// The schema the file is opened with.
    public var newSchema: Schema { Schema(engine.newSchema.objectSchemas.map(ObjectSchema.init(stored:))) }

    /// Calls `block` for each object of a class that existed before the migration: `oldObject` as
    /// it was (every old property readable, those removed from the model included), `newObject`
    /// in the new schema (writable), nil when the class was removed or the object deleted.
    public func enumerateObjects(ofType typeName: String, _ block: MigrationObjectEnumerateBlock) {
        failure.run {
            try engine.enumerateObjects(typeName) { old, new in
                block(MigrationObject(old, failure), new.map { MigrationObject($0, failure) })
                if let error = failure.error { throw error }
            }
        }
    }

    /// Creates an object in the new schema from a dictionary of property values. Invalid values
    /// stop the program with a message naming them, as a bad `realm.create` does.
    @discardableResult
    public func create(_ typeName: String, value: Any = [String: Any]()) -> MigrationObject {
        do {
            guard let values = value as? [String: Any?] else {
                throw Realm.Error(.invalidArgument, "Migration.create takes a dictionary of property values.")
            }
            let converted = try values.sorted { $0.key < $1.key }.map { ($0.key, try AnyConversion.engineValue($0.value, nil)) }
            return MigrationObject(try engine.create(typeName, values: converted.map { (name: $0.0, value: $0.1) }), failure)
        } catch {
            _fatal(Realm.Error(error))
        }
    }

    /// Deletes an object of the new schema (a `newObject`).
    public func delete(_ object: MigrationObject) {
        failure.run { try engine.delete(object.object) }
    }

    /// Deletes every object of a class; a class the models no longer have is removed from the
    /// file (otherwise its objects stay in it, as in Realm). Returns whether the class existed.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        failure.run { try engine.deleteData(forType: typeName) } ?? false
    }

    /// Moves the values of `oldName` (old schema) to `newName` (new schema), as Realm does.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        failure.run { try engine.renameProperty(onType: typeName, from: oldName, to: newName) }
    }
}

/// The first failure inside a migration block, reported when the block returns (the block itself
/// cannot throw, as in Realm).
final class MigrationFailure: @unchecked Sendable {
    var error: (any Swift.Error)?

    @discardableResult
    func run<R>(_ body: () throws -> R) -> R? {
        guard error == nil else { return nil }
        do {
            return try body()
        } catch {
            self.error = error
            return nil
        }
    }
}

/// An object during a migration, read and written by property name, as Realm Swift's
/// `MigrationObject` (a `DynamicObject`): `oldObject["name"]`, `newObject["fullName"] = ...`.
/// Links read as `MigrationObject`s; lists as arrays.
public final class MigrationObject: CustomStringConvertible {
    let object: EObject
    private let failure: MigrationFailure

    init(_ object: EObject, _ failure: MigrationFailure) {
        self.object = object
        self.failure = failure
    }

    /// The value of a property (`String`, `Int`, `Double`, `Date`, ...; nil for null). Writing an
    /// `oldObject` fails the migration: old objects are read-only.
    public subscript(key: String) -> Any? {
        get {
            failure.run { () throws -> Any? in
                let value = try object.value(key)
                if case .link(let link) = value {
                    return try object.database.object(link).map { MigrationObject($0, failure) }
                }
                return AnyConversion.swiftValue(value, nil)
            } ?? nil
        }
        set {
            failure.run {
                if let target = newValue as? MigrationObject {
                    return try object.set(key, to: .link(ObjectLink(classIndex: target.object.classIndex, key: target.object.key)))
                }
                try object.set(key, to: AnyConversion.engineValue(newValue, nil))
            }
        }
    }

    /// The class name.
    public var objectSchemaName: String { object.className }

    public var description: String { object.description }
}

extension Realm.Configuration {
    /// The engine's migration callback for a `migrationBlock`: the block's first failure makes
    /// the migration (and the open) fail.
    static func engineMigration(_ block: @escaping MigrationBlock) -> @Sendable (DrumlinEngine.Migration) throws -> Void {
        { migration in
            let failure = MigrationFailure()
            block(Migration(engine: migration, failure: failure), migration.oldSchemaVersion)
            if let error = failure.error { throw error }
        }
    }
}
