import DrumlinStorage
import DrumlinValues

/// Query arguments written as Extended JSON (the C API's `args_json`, Python's arguments).
///
/// Besides every Extended JSON value, an argument may be an object: `{"$link": {"class": "Dog",
/// "key": 12}}` with the object's class and object key (`drumlin_object_key`). It reaches the
/// compiler as a `.link` of that class, so comparing it with a link to another class is the
/// query error Realm gives, never a match by primary key.
extension Database {
    public func queryArguments(extendedJSON items: [JSON]) throws(DrumlinError) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(items.count)
        for (position, item) in items.enumerated() { values.append(try queryArgument(item, position)) }
        return values
    }

    /// Whether `json` is the one-key object `{"$link": ...}`.
    static func isLinkJSON(_ json: JSON) -> Bool {
        if case .object(let members) = json, members.count == 1, members[0].key == "$link" { return true }
        return false
    }

    /// Decodes the body of `{"$link": {"class": "Dog", "key": 12}}`: the one parser for links
    /// written as JSON (query arguments, mixed values in payloads and imports).
    func linkJSON(_ body: JSON) throws(DrumlinError) -> ObjectLink {
        guard let className = body["class"]?.stringValue, case .int(let key)? = body["key"], body.objectMembers?.count == 2 else {
            throw DrumlinError(.invalidArgument, "a $link is {\"class\": \"<class name>\", \"key\": <object key>}.")
        }
        let info: ClassInfo
        do throws(DrumlinError) { info = try classInfo(className) } catch {
            throw DrumlinError(.invalidArgument, error.message)
        }
        return ObjectLink(classIndex: info.index, key: key)
    }

    private func queryArgument(_ json: JSON, _ position: Int) throws(DrumlinError) -> Value {
        switch json {
        case .object(let members) where members.count == 1 && members[0].key == "$link":
            do throws(DrumlinError) {
                return .link(try linkJSON(members[0].value))
            } catch {
                throw DrumlinError(error.code, "Query argument $\(position): \(error.message)")
            }
        case .array(let elements):
            // A list argument (`IN $0`) may hold objects too.
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try queryArgument(element, position)) }
            return .list(values)
        default:
            return try Value(extendedJSON: json)
        }
    }
}
