"use strict";
// The package's CommonJS entry: `module.exports = Realm`, with every namespace member (`members`
// below) defined on it once, so `require("drumlin").BSON` and `Realm.BSON` are the same thing;
// index.mjs, the ES module entry, exports them by name from that one object.

const { Realm } = require("./realm");
const { RealmObject } = require("./object");
const collections = require("./collections");
const BSON = require("./bson");
const errors = require("./errors");
const { Counter } = require("./counter");

const UpdateMode = Object.freeze({ Never: "never", Modified: "modified", All: "all" });
const Types = Object.freeze({
  Decimal128: BSON.Decimal128,
  ObjectId: BSON.ObjectId,
  UUID: BSON.UUID,
  Counter,
  Date,
  Data: ArrayBuffer,
  List: collections.List,
  Set: collections.RealmSet,
  Dictionary: collections.Dictionary,
  LinkingObjects: collections.Results,
});
const RealmEvent = Object.freeze({ Change: "change", Schema: "schema", BeforeNotify: "beforenotify" });

function decorator(name) {
  return () => {
    throw new Error(`The @${name} decorator needs @realm/babel-plugin, which drumlin does not use: put the setting in the schema instead.`);
  };
}

// Atlas App Services: drumlin keeps data locally and has no server; these exist so that programs
// written for Realm JS load, and fail clearly when they reach for sync.
class App {
  constructor() {
    throw new Error("Atlas App Services are not supported by drumlin: open a local realm (no 'sync' configuration).");
  }
}
class User {}
class Credentials {
  static anonymous() {
    return new Credentials();
  }

  static emailPassword() {
    return new Credentials();
  }
}

const members = {
  App,
  User,
  Credentials,
  Realm,
  Object: RealmObject,
  Results: collections.Results,
  List: collections.List,
  Set: collections.RealmSet,
  Dictionary: collections.Dictionary,
  Collection: collections.Collection,
  OrderedCollection: collections.OrderedCollection,
  Counter,
  BSON,
  Types,
  UpdateMode,
  RealmEvent,
  flags: Realm.flags,
  kmToRadians: (km) => km / 6378.1,
  miToRadians: (mi) => mi / 3963.16760121,
  index: decorator("index"),
  mapTo: decorator("mapTo"),
  AssertionError: errors.AssertionError,
  TypeAssertionError: errors.TypeAssertionError,
  IllegalConstructorError: errors.IllegalConstructorError,
  SchemaParseError: errors.SchemaParseError,
  ObjectSchemaParseError: errors.ObjectSchemaParseError,
  PropertySchemaParseError: errors.PropertySchemaParseError,
  TimeoutError: errors.TimeoutError,
};
for (const [name, value] of Object.entries(members)) {
  if (name === "flags") continue; // Realm.flags is already the static
  Object.defineProperty(Realm, name, { value, enumerable: true, writable: true, configurable: true });
}

module.exports = Realm;
