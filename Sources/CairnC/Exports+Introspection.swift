import Cairn
import CCairnHeader

func objectSchema(_ db: Database, _ className: UnsafePointer<CChar>?) throws(CairnError) -> ObjectSchema {
    let index = try db.classIndex(try string(className, "class_name"))
    return db.schema.objectSchemas[index]
}

@_cdecl("cairn_class_count")
public func cairn_class_count(_ db: OpaquePointer?, _ outCount: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outCount else { throw misuse("out_count must not be NULL.") }
        outCount.pointee = Int32(try database(db).schema.objectSchemas.count)
        return CAIRN_OK_
    }
}

@_cdecl("cairn_class_name")
public func cairn_class_name(_ db: OpaquePointer?, _ classIndex: Int32,
                             _ outName: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outName else { throw misuse("out_name must not be NULL.") }
        outName.pointee = nil
        let handle = try databaseHandle(db)
        let schemas = try database(db).schema.objectSchemas
        guard classIndex >= 0, Int(classIndex) < schemas.count else {
            throw CairnError(.invalidArgument, "Class index \(classIndex) is out of range (the schema has \(schemas.count) classes).")
        }
        outName.pointee = handle.cString(schemas[Int(classIndex)].name)
        return CAIRN_OK_
    }
}

@_cdecl("cairn_class_index")
public func cairn_class_index(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                              _ outIndex: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outIndex else { throw misuse("out_class_index must not be NULL.") }
        outIndex.pointee = -1
        outIndex.pointee = Int32(try database(db).classIndex(try string(className, "class_name")))
        return CAIRN_OK_
    }
}

@_cdecl("cairn_class_kind")
public func cairn_class_kind(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                             _ outKind: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outKind else { throw misuse("out_kind must not be NULL.") }
        switch try objectSchema(try database(db), className).kind {
        case .topLevel: outKind.pointee = CAIRN_CLASS_TOP_LEVEL
        case .embedded: outKind.pointee = CAIRN_CLASS_EMBEDDED
        case .asymmetric: outKind.pointee = CAIRN_CLASS_ASYMMETRIC
        }
        return CAIRN_OK_
    }
}

@_cdecl("cairn_property_count")
public func cairn_property_count(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                 _ outCount: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outCount else { throw misuse("out_count must not be NULL.") }
        outCount.pointee = Int32(try objectSchema(try database(db), className).properties.count)
        return CAIRN_OK_
    }
}

@_cdecl("cairn_property_index")
public func cairn_property_index(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?,
                                 _ propertyName: UnsafePointer<CChar>?, _ outIndex: UnsafeMutablePointer<Int32>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outIndex else { throw misuse("out_property_index must not be NULL.") }
        outIndex.pointee = -1
        let db = try database(db)
        let index = try db.propertyIndex(try string(className, "class_name"), try string(propertyName, "property_name"))
        outIndex.pointee = Int32(index)
        return CAIRN_OK_
    }
}

private func propertyTypeCode(_ type: PropertyType) -> Int32 {
    switch type {
    case .bool: CAIRN_PROPERTY_BOOL
    case .int: CAIRN_PROPERTY_INT
    case .float: CAIRN_PROPERTY_FLOAT
    case .double: CAIRN_PROPERTY_DOUBLE
    case .decimal128: CAIRN_PROPERTY_DECIMAL128
    case .string: CAIRN_PROPERTY_STRING
    case .data: CAIRN_PROPERTY_DATA
    case .date: CAIRN_PROPERTY_DATE
    case .objectId: CAIRN_PROPERTY_OBJECT_ID
    case .uuid: CAIRN_PROPERTY_UUID
    case .mixed: CAIRN_PROPERTY_MIXED
    case .object: CAIRN_PROPERTY_OBJECT
    case .linkingObjects: CAIRN_PROPERTY_LINKING_OBJECTS
    }
}

private func collectionCode(_ kind: CollectionKind) -> Int32 {
    switch kind {
    case .single: CAIRN_COLLECTION_NONE
    case .list: CAIRN_COLLECTION_LIST
    case .set: CAIRN_COLLECTION_SET
    case .dictionary: CAIRN_COLLECTION_DICTIONARY
    }
}

@_cdecl("cairn_property_info_get")
public func cairn_property_info_get(_ db: OpaquePointer?, _ className: UnsafePointer<CChar>?, _ propertyIndex: Int32,
                                    _ outInfo: UnsafeMutablePointer<cairn_property_info>?) -> Int32 {
    capi { () throws(CairnError) in
        guard let outInfo else { throw misuse("out_info must not be NULL.") }
        let handle = try databaseHandle(db)
        let schema = try objectSchema(try database(db), className)
        guard propertyIndex >= 0, Int(propertyIndex) < schema.properties.count else {
            throw CairnError(.invalidArgument,
                             "Property index \(propertyIndex) is out of range for '\(schema.name)' (\(schema.properties.count) properties).")
        }
        let property = schema.properties[Int(propertyIndex)]
        var flags: Int32 = 0
        if property.isOptional { flags |= CAIRN_PROPERTY_FLAG_OPTIONAL }
        if property.isPrimaryKey { flags |= CAIRN_PROPERTY_FLAG_PRIMARY_KEY }
        if property.index == .general || property.isPrimaryKey { flags |= CAIRN_PROPERTY_FLAG_INDEXED }
        if property.index == .fullText { flags |= CAIRN_PROPERTY_FLAG_FULLTEXT }
        outInfo.pointee = cairn_property_info(
            name: handle.cString(property.name),
            stored_name: handle.cString(property.storedName),
            type: propertyTypeCode(property.type),
            collection: collectionCode(property.collection),
            object_type: handle.cString(property.objectType ?? ""),
            origin_property: handle.cString(property.originProperty ?? ""),
            flags: flags)
        return CAIRN_OK_
    }
}
