internal import DrumlinEngine

/// The dynamic API: objects of a class named at run time, as `DynamicObject`s (Realm Swift's
/// `dynamicObjects`, `dynamicObject(ofType:forPrimaryKey:)`, `dynamicCreate`).
extension Realm {
    /// The object of the class named `typeName` whose primary key is `key`, or nil.
    public func dynamicObject(ofType typeName: String, forPrimaryKey key: Any) -> DynamicObject? {
        do {
            let handleClass = try context.handleClass(named: typeName)
            let found: EObject?
            do {
                found = try context.database.object(handleClass.meta.name, primaryKey: try AnyConversion.engineValue(key, context))
            } catch {
                throw Realm.Error(error)
            }
            return found.map { context.wrap($0, of: handleClass, as: DynamicObject.self) }
        } catch {
            _fatal(error)
        }
    }

    /// Creates an object of the class named `typeName` from a dictionary by property name, an
    /// array in property order or another object, and returns it (in a write transaction). With
    /// `update: .modified` or `.all` an object whose primary key exists is updated with the
    /// values given.
    @discardableResult
    public func dynamicCreate(_ typeName: String, value: Any = [String: Any](), update: UpdatePolicy = .error) -> DynamicObject {
        do {
            let handleClass = try context.handleClass(named: typeName)
            var values = try dynamicValues(value, of: typeName)
            try fillModelDefaults(&values, handleClass, update: update)
            let created: EObject
            do {
                created = try context.database.create(handleClass.meta.name, values: values, update: update.engineMode)
            } catch {
                throw Realm.Error(error)
            }
            context.didWrite()
            return context.wrap(created, of: handleClass, as: DynamicObject.self)
        } catch {
            _fatal(error)
        }
    }

    /// The engine values of a `dynamicCreate` value, by property name.
    private func dynamicValues(_ value: Any, of typeName: String) throws -> [(name: String, value: EValue)] {
        let names: [String]
        do {
            let index = try context.database.classIndex(typeName)
            names = context.database.schema.objectSchemas[index].properties.filter { $0.type != .linkingObjects }.map(\.name)
        } catch {
            throw Realm.Error(error)
        }
        let pairs: [(String, Any?)]
        if let dictionary = value as? [String: Any?] {
            pairs = dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        } else if let array = value as? [Any?] {
            guard array.count <= names.count else {
                throw Realm.Error(.invalidArgument, "Invalid array input: more values (\(array.count)) than properties (\(names.count)) for '\(typeName)'.")
            }
            pairs = Array(zip(names, array))
        } else if let object = value as? ObjectBase {
            pairs = names.compactMap { name in object.objectSchema[name] == nil && !(object is DynamicObject) ? nil : (name, object[name]) }
        } else {
            throw Realm.Error(.invalidArgument, "Invalid value '\(value)' to initialize object of type '\(typeName)': expected a dictionary, an array or an object.")
        }
        return try pairs.map { ($0.0, try AnyConversion.engineValue(DynamicObject.plain($0.1), context)) }
    }

    /// A class with a Swift model keeps its defaults in Swift (the initial values of its
    /// `@Persisted` properties): a new object takes them for the properties not given, as
    /// `create(_:value:)` does. An upsert of an existing object writes only what is given.
    private func fillModelDefaults(_ values: inout [(name: String, value: EValue)], _ handleClass: HandleClass,
                                   update: UpdatePolicy) throws {
        let meta = handleClass.meta
        guard meta.type != DynamicObject.self else { return }
        let given = Set(values.map(\.name))
        if update != .error, let pk = meta.primaryKeyPosition,
           let key = values.first(where: { $0.name == meta.properties[pk].name || $0.name == meta.properties[pk].storedName })?.value {
            let existing: EObject?
            do { existing = try context.database.object(meta.name, primaryKey: key) } catch { throw Realm.Error(error) }
            if existing != nil { return }
        }
        let prototype = meta.type.init()
        for (position, property) in meta.properties.enumerated() where property.shape.type != "linkingObjects" {
            guard !given.contains(property.name), !given.contains(property.storedName ?? property.name) else { continue }
            let initial = property.anyGet(prototype, position)
            // Row values in their stored form (an enum as its raw value); collections and links
            // (empty or nil at first) as plain values.
            let raw = property.shape.collection == nil && property.shape.type != "object"
                ? try property.accessor.raw(initial) : try AnyConversion.engineValue(DynamicObject.plain(initial), context)
            values.append((property.name, raw))
        }
    }
}
