/// How `create` treats an object whose primary key already exists.
public enum UpdateMode: Int32, Sendable {
    /// An existing primary key is `DrumlinError.duplicatePrimaryKey`.
    case never = 0
    /// Upsert, writing only the properties whose value changed.
    case modified = 1
    /// Upsert, writing every given property.
    case all = 2
}
