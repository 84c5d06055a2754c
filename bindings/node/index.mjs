// The package's ES module entry: the same instance as the CommonJS one (lib/index.js), never a copy.
import Realm from "./lib/index.js";

export default Realm;
export const {
  BSON, Types, UpdateMode, RealmEvent, flags, Results, List, Set, Dictionary, Collection, OrderedCollection, Counter,
  kmToRadians, miToRadians, index, mapTo, AssertionError, TypeAssertionError, IllegalConstructorError,
  SchemaParseError, ObjectSchemaParseError, PropertySchemaParseError, TimeoutError, App, User, Credentials,
} = Realm;
const RealmObject = Realm.Object;
export { Realm, RealmObject as Object };
