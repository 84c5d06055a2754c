import DrumlinStorage
import DrumlinValues

/// Values a property cannot hold, found where a read has them: an integer in a string column,
/// null in a required one, text in a link column, a mixed value with a tag no type has, text
/// that is not UTF-8. A file changed behind Drumlin's back: `CORRUPT`, naming the class,
/// property and object (`check()` lists them all).
extension Database {
    func misfitError(_ info: ClassInfo, _ index: Int, key: Int64, _ what: String, element: Bool = false) -> DrumlinError {
        let property = info.property(index)
        let kind = property.type == .object ? "link" : property.type.realmName
        return DrumlinError(.corrupt, "The file '\(path)' is damaged: \(element ? "an element of " : "")'\(info.name).\(property.name)' of the '\(info.name)' object \(key) holds \(what), which a \(property.isOptional || property.type == .object ? "" : "required ")\(kind) \(element ? "element" : "property") cannot hold.")
    }

    /// The typed column `column` of property `index` of the row `statement` is on (object `key`),
    /// checked (`ValueCodec.misfit`). `element`: a collection's element column.
    func readColumn(_ statement: Statement, _ column: Int32, _ info: ClassInfo, _ index: Int, key: Int64,
                    element: Bool = false) throws(DrumlinError) -> Value {
        let trait = info.traits[index]
        if let what = ValueCodec.misfit(statement.handle, column, as: trait.type, optional: trait.isOptional || (element && trait.type == .object)) {
            throw misfitError(info, index, key: key, what, element: element)
        }
        return ValueCodec.read(statement, column, as: trait.type, classIndex: info.targetIndex(index))
    }

    /// A mixed value read from its value and type columns (never a nested collection), checked:
    /// `place` names it for the error ("'Note.anything' of the 'Note' object 3").
    func checkedMixedValue(_ statement: Statement, value column: Int32, type typeColumn: Int32,
                           _ place: @autoclosure () -> String) throws(DrumlinError) -> Value {
        if let what = ValueCodec.mixedMisfit(statement.handle, value: column, type: typeColumn) {
            throw DrumlinError(.corrupt, "The file '\(path)' is damaged: \(place()) holds \(what), which a mixed value cannot hold.")
        }
        // A held object is "<key>:<stored class name>" (a class the open schema lacks reads as null).
        if statement.int64(typeColumn) == Self.mixedLinkCode {
            let text = statement.string(column)
            guard let colon = text.firstIndex(of: ":"), Int64(text[..<colon]) != nil else {
                throw DrumlinError(.corrupt, "The file '\(path)' is damaged: \(place()) holds the text '\(text.prefix(40))' with the type tag 10, which names no object ('<key>:<class>').")
            }
        }
        return readMixedValue(statement, value: column, type: typeColumn)
    }

    func place(_ info: ClassInfo, _ index: Int, _ key: Int64, element: Bool = false) -> String {
        "\(element ? "an element of " : "")'\(info.name).\(info.propertyNames[index])' of the '\(info.name)' object \(key)"
    }
}
