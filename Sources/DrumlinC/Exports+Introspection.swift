import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Introspection".

@_cdecl("drumlin_class_count")
public func drumlin_class_count(_ db: OpaquePointer?, _ outCount: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outCount else { throw misuse("out_count must not be NULL.") }
        outCount.pointee = Int32(try database(db).schema.objectSchemas.count)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_class_name")
public func drumlin_class_name(_ db: OpaquePointer?, _ classIndex: Int32,
                             _ outName: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outName else { throw misuse("out_name must not be NULL.") }
        outName.pointee = nil
        let handle = try databaseHandle(db)
        let schemas = try database(db).schema.objectSchemas
        guard classIndex >= 0, Int(classIndex) < schemas.count else {
            throw DrumlinError(.invalidArgument, "Class index \(classIndex) is out of range (the schema has \(schemas.count) classes).")
        }
        outName.pointee = handle.cString(schemas[Int(classIndex)].name)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_class_index")
public func drumlin_class_index(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                              _ outIndex: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outIndex else { throw misuse("out_class_index must not be NULL.") }
        outIndex.pointee = -1
        outIndex.pointee = Int32(try database(db).classIndex(try string(className, "class_name")))
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_class_kind")
public func drumlin_class_kind(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                             _ outKind: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outKind else { throw misuse("out_kind must not be NULL.") }
        switch try objectSchema(try database(db), className).kind {
        case .topLevel: outKind.pointee = DRUMLIN_CLASS_TOP_LEVEL
        case .embedded: outKind.pointee = DRUMLIN_CLASS_EMBEDDED
        case .asymmetric: outKind.pointee = DRUMLIN_CLASS_ASYMMETRIC
        }
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_property_count")
public func drumlin_property_count(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                 _ outCount: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outCount else { throw misuse("out_count must not be NULL.") }
        outCount.pointee = Int32(try objectSchema(try database(db), className).properties.count)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_property_index")
public func drumlin_property_index(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                 _ propertyName: UnsafePointer<CChar>?, _ outIndex: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outIndex else { throw misuse("out_property_index must not be NULL.") }
        outIndex.pointee = -1
        let db = try database(db)
        let index = try db.propertyIndex(try string(className, "class_name"), try string(propertyName, "property_name"))
        outIndex.pointee = Int32(index)
        return DRUMLIN_OK
    }
}

private func propertyTypeCode(_ type: PropertyType) -> Int32 {
    switch type {
    case .bool: DRUMLIN_PROPERTY_BOOL
    case .int: DRUMLIN_PROPERTY_INT
    case .float: DRUMLIN_PROPERTY_FLOAT
    case .double: DRUMLIN_PROPERTY_DOUBLE
    case .decimal128: DRUMLIN_PROPERTY_DECIMAL128
    case .string: DRUMLIN_PROPERTY_STRING
    case .data: DRUMLIN_PROPERTY_DATA
    case .date: DRUMLIN_PROPERTY_DATE
    case .objectId: DRUMLIN_PROPERTY_OBJECT_ID
    case .uuid: DRUMLIN_PROPERTY_UUID
    case .mixed: DRUMLIN_PROPERTY_MIXED
    case .object: DRUMLIN_PROPERTY_OBJECT
    case .linkingObjects: DRUMLIN_PROPERTY_LINKING_OBJECTS
    }
}

private func collectionCode(_ kind: CollectionKind) -> Int32 {
    switch kind {
    case .single: DRUMLIN_COLLECTION_NONE
    case .list: DRUMLIN_COLLECTION_LIST
    case .set: DRUMLIN_COLLECTION_SET
    case .dictionary: DRUMLIN_COLLECTION_DICTIONARY
    }
}

@_cdecl("drumlin_property_info_get")
public func drumlin_property_info_get(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ propertyIndex: Int32,
                                    _ outInfo: UnsafeMutablePointer<drumlin_property_info>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outInfo else { throw misuse("out_info must not be NULL.") }
        let handle = try databaseHandle(db)
        let schema = try objectSchema(try database(db), className)
        guard propertyIndex >= 0, Int(propertyIndex) < schema.properties.count else {
            throw DrumlinError(.invalidArgument,
                             "Property index \(propertyIndex) is out of range for '\(schema.name)' (\(schema.properties.count) properties).")
        }
        let property = schema.properties[Int(propertyIndex)]
        var flags: Int32 = 0
        if property.isOptional { flags |= DRUMLIN_PROPERTY_FLAG_OPTIONAL }
        if property.isPrimaryKey { flags |= DRUMLIN_PROPERTY_FLAG_PRIMARY_KEY }
        if property.index == .general || property.isPrimaryKey { flags |= DRUMLIN_PROPERTY_FLAG_INDEXED }
        if property.index == .fullText { flags |= DRUMLIN_PROPERTY_FLAG_FULLTEXT }
        outInfo.pointee = drumlin_property_info(
            name: handle.cString(property.name),
            stored_name: handle.cString(property.storedName),
            type: propertyTypeCode(property.type),
            collection: collectionCode(property.collection),
            object_type: handle.cString(property.objectType ?? ""),
            origin_property: handle.cString(property.originProperty ?? ""),
            flags: flags)
        return DRUMLIN_OK
    }
}
