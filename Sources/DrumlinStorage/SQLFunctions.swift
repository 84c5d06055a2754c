import CSQLite
import DrumlinValues
#if canImport(Glibc)
import Glibc
#endif

/// SQL functions the query compiler relies on, registered on every connection. They run inside
/// SQLite for each candidate row, so they avoid Foundation and allocate only where a value must be
/// decoded.
///
/// | function | meaning |
/// |---|---|
/// | `drumlin_fold(x)` | x case-folded (Unicode lowercase) for `[c]` comparisons; non-text unchanged |
/// | `drumlin_strop(op, a, b, ci)` | Realm's string operators on text or blobs: 1 BEGINSWITH, 2 ENDSWITH, 3 CONTAINS, 4 LIKE, 5 == |
/// | `drumlin_num(x)` | a stored float/double (REAL, or the 8-byte BLOB kept for NaN and -0.0) as a REAL |
/// | `drumlin_div(a, b)` | a / b: integer division for two integers (a zero divisor gives Int64.max, or .min for a negative dividend, as Realm), IEEE otherwise (±inf) |
/// | `drumlin_deccmp(a, b)` | -1/0/1 comparing numbers exactly when either side is a decimal128 (text), NULL if not comparable |
/// | `drumlin_geo(lon, lat, shape)` | 1 when the point is inside the shape (Extended JSON text, parsed once per statement) |
enum SQLFunctions {
    static func register(_ db: OpaquePointer) {
        registerDecimal(db)
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        sqlite3_create_function_v2(db, "drumlin_fold", 1, flags, nil, { context, _, argv in
            guard let argv, let value = argv[0] else { return }
            guard sqlite3_value_type(value) == SQLITE_TEXT else { sqlite3_result_value(context, value); return }
            var folded = SQLFunctions.text(value).lowercased()
            folded.withUTF8 { sqlite3_result_text64(context, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), UInt64($0.count), csqlite_transient(), UInt8(SQLITE_UTF8)) }
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "drumlin_strop", 4, flags, nil, { context, _, argv in
            guard let argv, let opValue = argv[0], let a = argv[1], let b = argv[2], let ci = argv[3] else { return }
            sqlite3_result_int(context, SQLFunctions.stringOperation(Int(sqlite3_value_int(opValue)), a, b,
                                                                      caseInsensitive: sqlite3_value_int(ci) != 0) ? 1 : 0)
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "drumlin_num", 1, flags, nil, { context, _, argv in
            guard let argv, let value = argv[0] else { return }
            if let d = SQLFunctions.double(value) { sqlite3_result_double(context, d) } else { sqlite3_result_null(context) }
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "drumlin_div", 2, flags, nil, { context, _, argv in
            guard let argv, let a = argv[0], let b = argv[1] else { return }
            if sqlite3_value_type(a) == SQLITE_INTEGER, sqlite3_value_type(b) == SQLITE_INTEGER {
                let x = sqlite3_value_int64(a), y = sqlite3_value_int64(b)
                // As Realm: a zero divisor gives the largest integer of the dividend's sign (so a
                // comparison with it is as with infinity); .min / -1 saturates.
                if y == 0 { sqlite3_result_int64(context, x < 0 ? .min : .max); return }
                sqlite3_result_int64(context, x == .min && y == -1 ? .max : x / y)
                return
            }
            func number(_ v: OpaquePointer) -> Double? {   // decimal128 values are text
                sqlite3_value_type(v) == SQLITE_TEXT ? Decimal128(string: SQLFunctions.text(v))?.doubleValue : SQLFunctions.double(v)
            }
            guard let x = number(a), let y = number(b) else { sqlite3_result_null(context); return }
            sqlite3_result_double(context, x / y)
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "drumlin_deccmp", 2, flags, nil, { context, _, argv in
            guard let argv, let a = argv[0], let b = argv[1] else { return }
            if let result = SQLFunctions.compareNumbers(a, b) { sqlite3_result_int(context, Int32(result)) } else { sqlite3_result_null(context) }
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "drumlin_geo", 3, flags, nil, { context, _, argv in
            guard let argv, let lon = argv[0], let lat = argv[1], let shapeValue = argv[2] else { return }
            guard let longitude = SQLFunctions.double(lon), let latitude = SQLFunctions.double(lat) else {
                sqlite3_result_int(context, 0)
                return
            }
            let shape: GeoShape
            if let cached = sqlite3_get_auxdata(context, 2) {
                shape = Unmanaged<GeoShape>.fromOpaque(cached).takeUnretainedValue()
            } else {
                guard let parsed = GeoShape(text: SQLFunctions.text(shapeValue)) else {
                    sqlite3_result_error(context, "invalid geo shape", -1)
                    return
                }
                shape = parsed
                sqlite3_set_auxdata(context, 2, Unmanaged.passRetained(parsed).toOpaque()) { pointer in
                    if let pointer { Unmanaged<GeoShape>.fromOpaque(pointer).release() }
                }
            }
            sqlite3_result_int(context, shape.contains(longitude: longitude, latitude: latitude) ? 1 : 0)
        }, nil, nil, nil)
    }

    /// Collects decimal128 values for `drumlin_decagg(op, x)`: 0 sum, 1 avg, 2 min, 3 max.
    final class DecimalBox {
        var values: [Decimal128] = []
        var op: Int32 = 0
    }

    static func registerDecimal(_ db: OpaquePointer) {
        sqlite3_create_function_v2(db, "drumlin_decagg", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, nil, { context, _, argv in
            guard let argv, let opValue = argv[0], let value = argv[1] else { return }
            guard let slot = sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size))?
                .assumingMemoryBound(to: UnsafeMutableRawPointer?.self) else { return }
            if slot.pointee == nil {
                let box = SQLFunctions.DecimalBox()
                box.op = sqlite3_value_int(opValue)
                slot.pointee = Unmanaged.passRetained(box).toOpaque()
            }
            let box = Unmanaged<SQLFunctions.DecimalBox>.fromOpaque(slot.pointee!).takeUnretainedValue()
            switch sqlite3_value_type(value) {
            case SQLITE_TEXT: if let d = Decimal128(string: SQLFunctions.text(value)) { box.values.append(d) }
            case SQLITE_INTEGER: box.values.append(Decimal128(sqlite3_value_int64(value)))
            case SQLITE_FLOAT, SQLITE_BLOB: if let x = SQLFunctions.double(value), let d = Decimal128(exactly: x) { box.values.append(d) }
            default: break
            }
        }, { context in
            let slot = sqlite3_aggregate_context(context, 0)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            guard let pointer = slot?.pointee else {
                sqlite3_result_null(context)   // no rows; sum's 0 comes from the caller's coalesce
                return
            }
            let box = Unmanaged<SQLFunctions.DecimalBox>.fromOpaque(pointer).takeRetainedValue()
            slot?.pointee = nil
            let op: Aggregate = [.sum, .avg, .min, .max][Int(Swift.max(0, Swift.min(3, box.op)))]
            guard case .decimal(let result) = DecimalArithmetic.aggregate(op, box.values) else {
                sqlite3_result_null(context)
                return
            }
            var text = result.description
            text.withUTF8 { sqlite3_result_text64(context, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), UInt64($0.count), csqlite_transient(), UInt8(SQLITE_UTF8)) }
        }, nil)
        // Orders decimal128 text by value ("1.10" and "1.1" are equal); NaN sorts last.
        sqlite3_create_collation_v2(db, "drumlin_decimal", SQLITE_UTF8, nil, { _, n1, p1, n2, p2 in
            func decimal(_ n: Int32, _ p: UnsafeRawPointer?) -> Decimal128? {
                guard let p else { return nil }
                return Decimal128(string: String(decoding: UnsafeRawBufferPointer(start: p, count: Int(n)), as: UTF8.self))
            }
            let a = decimal(n1, p1), b = decimal(n2, p2)
            switch (a, b) {
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            case let (x?, y?):
                if let result = x.numericCompare(y) { return Int32(result) }
                return x.isNaN ? (y.isNaN ? 0 : 1) : -1
            }
        }, nil)
    }

    static func text(_ value: OpaquePointer) -> String {
        guard let bytes = sqlite3_value_text(value) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    static func bytes(_ value: OpaquePointer) -> [UInt8] {
        let count = Int(sqlite3_value_bytes(value))
        guard count > 0, let blob = sqlite3_value_blob(value) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// A float or double column's value (REAL, INTEGER, or the 8-byte BLOB encoding).
    static func double(_ value: OpaquePointer) -> Double? {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER, SQLITE_FLOAT: return sqlite3_value_double(value)
        case SQLITE_BLOB:
            let bytes = Self.bytes(value)
            guard bytes.count == 8 else { return nil }
            return Double(bitPattern: bytes.reduce(0) { $0 << 8 | UInt64($1) })
        default: return nil
        }
    }

    /// Exact numeric comparison where one side may be a decimal128 stored as text.
    static func compareNumbers(_ a: OpaquePointer, _ b: OpaquePointer) -> Int? {
        func decimal(_ value: OpaquePointer) -> Decimal128? {
            switch sqlite3_value_type(value) {
            case SQLITE_TEXT: return Decimal128(string: text(value))
            case SQLITE_INTEGER: return Decimal128(sqlite3_value_int64(value))
            default: return nil
            }
        }
        switch (sqlite3_value_type(a), sqlite3_value_type(b)) {
        case (SQLITE_NULL, _), (_, SQLITE_NULL): return nil
        case (SQLITE_FLOAT, SQLITE_TEXT), (SQLITE_BLOB, SQLITE_TEXT):
            guard let d = double(a), let right = decimal(b), let result = right.numericCompare(d) else { return nil }
            return -result
        case (SQLITE_TEXT, SQLITE_FLOAT), (SQLITE_TEXT, SQLITE_BLOB):
            guard let left = decimal(a), let d = double(b) else { return nil }
            return left.numericCompare(d)
        default:
            guard let left = decimal(a), let right = decimal(b) else {
                guard let x = double(a), let y = double(b) else { return nil }
                return x < y ? -1 : x > y ? 1 : x == y ? 0 : nil
            }
            return left.numericCompare(right)
        }
    }

    /// Realm's string operators. NULL on the left matches only `LIKE NULL` and `== NULL` (handled
    /// by the compiler); NULL on the right is the empty string for BEGINSWITH/ENDSWITH/CONTAINS.
    static func stringOperation(_ op: Int, _ a: OpaquePointer, _ b: OpaquePointer, caseInsensitive: Bool) -> Bool {
        let aNull = sqlite3_value_type(a) == SQLITE_NULL
        let bNull = sqlite3_value_type(b) == SQLITE_NULL
        if bNull { return op == 4 || op == 5 ? aNull : true }
        if aNull { return false }
        let isText = sqlite3_value_type(a) == SQLITE_TEXT && sqlite3_value_type(b) == SQLITE_TEXT
        if isText {
            var left = text(a)
            var right = text(b)
            if caseInsensitive {
                left = left.lowercased()
                right = right.lowercased()
            }
            switch op {
            case 1: return left.hasPrefix(right) || right.isEmpty
            case 2: return left.hasSuffix(right) || right.isEmpty
            case 3: return right.isEmpty || left.contains(right)
            case 4: return like(Array(left.unicodeScalars), Array(right.unicodeScalars))
            default: return left == right
            }
        }
        var left = bytes(a)
        var right = bytes(b)
        if caseInsensitive {   // `[c]` on binary data folds the bytes read as UTF-8
            left = Array(String(decoding: left, as: UTF8.self).lowercased().utf8)
            right = Array(String(decoding: right, as: UTF8.self).lowercased().utf8)
        }
        switch op {
        case 1: return left.starts(with: right)
        case 2: return left.count >= right.count && Array(left.suffix(right.count)) == right
        case 3: return right.isEmpty || (0...max(0, left.count - right.count)).contains { left.count >= right.count && Array(left[$0..<$0 + right.count]) == right }
        case 4: return like(left, right)
        default: return left == right
        }
    }

    /// `*` matches any run (also empty), `?` one element; everything else literally.
    static func like<T: Equatable>(_ text: [T], _ pattern: [T]) -> Bool where T: ExpressibleByUnicodeScalarLiteralOrByte {
        var t = 0, p = 0, star = -1, mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == T.questionMark || (pattern[p] == text[t] && pattern[p] != T.star) {
                t += 1; p += 1
            } else if p < pattern.count, pattern[p] == T.star {
                star = p; mark = t; p += 1
            } else if star >= 0 {
                p = star + 1; mark += 1; t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == T.star { p += 1 }
        return p == pattern.count
    }
}

protocol ExpressibleByUnicodeScalarLiteralOrByte {
    static var star: Self { get }
    static var questionMark: Self { get }
}

extension Unicode.Scalar: ExpressibleByUnicodeScalarLiteralOrByte {
    static var star: Unicode.Scalar { "*" }
    static var questionMark: Unicode.Scalar { "?" }
}

extension UInt8: ExpressibleByUnicodeScalarLiteralOrByte {
    static var star: UInt8 { UInt8(ascii: "*") }
    static var questionMark: UInt8 { UInt8(ascii: "?") }
}
