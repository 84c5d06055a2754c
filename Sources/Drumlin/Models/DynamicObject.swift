/// An object of a class known only by name (`realm.dynamicObjects("Dog")`): its properties are
/// read and written by name, `dog["name"]`.
public final class DynamicObject: Object {
    public required init() { super.init() }

    /// The value of a property by name: `String`, `Int`, `Double`, `Date`, ..., nil for null; links
    /// are `DynamicObject`s.
    public override subscript(key: String) -> Any? {
        get { dynamicGet(key) }
        set { dynamicSet(key, newValue) }
    }
}
