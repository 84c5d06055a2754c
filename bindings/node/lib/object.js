"use strict";
// Realm.Object and the accessors of managed objects. For each class a realm builds one prototype
// (its parent: the program's class, or Realm.Object) with a getter/setter per property; an object
// is Object.create(that prototype) holding its engine handle, in a Proxy that lists the schema's
// properties to Object.keys and spread.

const { native, INTERNAL, CONSTRUCT, attach } = require("./native");
const { engine, INVALIDATED, typeMismatch } = require("./errors");
const { TYPE, toTyped } = require("./values");
const { serializeValue } = require("./serialize");
const { enqueue, removeListener } = require("./listeners");
const { Counter, COUNTER_RESET } = require("./counter");

const objectHandler = {
  ownKeys(target) {
    return target[INTERNAL].info.names.slice();
  },
  getOwnPropertyDescriptor(target, key) {
    if (typeof key === "string" && target[INTERNAL].info.byName.has(key)) {
      const property = target[INTERNAL].info.byName.get(key);
      if (property.type === "linkingObjects") return undefined;
      return { value: Reflect.get(target, key), writable: true, enumerable: true, configurable: true };
    }
    return Reflect.getOwnPropertyDescriptor(target, key);
  },
};

function stateOf(object) {
  const state = object[INTERNAL];
  if (!state) throw new Error("Cannot read properties of an unmanaged object through Realm.Object methods");
  return state;
}

// Errors on a deleted object, or one whose realm was closed, read as Realm JS's.
function checked(state, fn) {
  if (state.ctx.realm.isClosed) throw new Error(INVALIDATED);
  try {
    return fn();
  } catch (error) {
    if (error.code === "DRUMLIN_ERR_MISUSE" || error.code === "DRUMLIN_ERR_INVALIDATED_OBJECT") {
      throw new Error(INVALIDATED);
    }
    throw engine(() => {
      throw error;
    });
  }
}

class RealmObject {
  // new Model(realm, values) is realm.create(Model, values).
  constructor(realm, values) {
    if (realm instanceof require("./realm").Realm) {
      return realm.create(new.target, values ?? {});
    }
  }

  isValid() {
    const state = this[INTERNAL];
    if (!state || state.ctx.realm.isClosed) return false;
    let handle;
    try {
      handle = state.handle;
    } catch {
      return false;
    }
    return native.objectIsValid(handle);
  }

  objectSchema() {
    return require("./schema").canonical(stateOf(this).info);
  }

  keys() {
    return stateOf(this).info.names.slice();
  }

  entries() {
    return stateOf(this).info.names.map((name) => [name, this[name]]);
  }

  toJSON(_, cache = new Map()) {
    const state = stateOf(this);
    const id = `${state.info.name}#${this._objectKey()}`;
    if (cache.has(id)) return cache.get(id);
    const out = {};
    cache.set(id, out);
    for (const name of state.info.names) {
      const value = this[name];
      out[name] = value && typeof value === "object" && value[INTERNAL] && typeof value.toJSON === "function"
        ? value.toJSON(name, cache)
        : value;
    }
    return out;
  }

  _objectKey() {
    const state = stateOf(this);
    return String(checked(state, () => native.objectKey(state.handle)));
  }

  linkingObjects(type, property) {
    const state = stateOf(this);
    const name = typeof type === "string" ? type : type.schema?.name ?? type.name;
    const handle = checked(state, () => native.objectGetBacklinks(state.handle, `@links.${name}.${property}`));
    return state.ctx.results(handle, name);
  }

  linkingObjectsCount() {
    const state = stateOf(this);
    let count = 0;
    for (const info of state.ctx.classes.values()) {
      for (const property of info.properties) {
        if (property.objectType === state.info.name && ["object", "list", "set", "dictionary"].includes(property.type)) {
          count += this.linkingObjects(info.name, property.name).length;
        }
      }
    }
    return count;
  }

  getPropertyType(name) {
    const state = stateOf(this);
    const property = state.info.byName.get(name);
    if (!property) throw new Error(`Property '${name}' does not exist on '${state.info.name}' objects`);
    switch (property.type) {
      case "object":
        return `<${property.objectType}>`;
      case "set":
        // Realm JS's own spelling for sets of objects: "set<<Person>>".
        return state.ctx.classes.has(property.objectType) ? `set<<${property.objectType}>>` : `set<${property.objectType}>`;
      case "list":
      case "dictionary":
        return `${property.type}<${property.objectType}>`;
      case "linkingObjects":
        return "linkingObjects";
      case "mixed": {
        const value = checked(state, () => native.objectGet(state.handle, property.index));
        return mixedType(value, state);
      }
      default:
        return property.type;
    }
  }

  // Listeners run from the event loop: first with no changes, then after each commit that
  // changes the object (with its changed properties) or deletes it.
  addListener(callback, keyPaths) {
    const state = stateOf(this);
    state.ctx.checkOpen();
    state.listeners ??= new Map();
    if (state.listeners.has(callback)) throw new Error("Remove callback before adding it again");
    const entry = { active: true, token: null };
    const paths = keyPaths === undefined ? null : JSON.stringify(typeof keyPaths === "string" ? [keyPaths] : keyPaths);
    entry.token = checked(state, () =>
      native.observe(state.handle, paths, (changes) => {
        enqueue(() => entry.active && callback(this, { deleted: changes.deleted, changedProperties: changes.changedProperties }));
      }),
    );
    state.listeners.set(callback, entry);
    state.ctx.watch();
    enqueue(() => entry.active && callback(this, { deleted: false, changedProperties: [] }));
  }

  removeListener(callback) {
    removeListener(stateOf(this), callback);
  }

  removeAllListeners() {
    const state = stateOf(this);
    for (const callback of [...(state.listeners?.keys() ?? [])]) this.removeListener(callback);
  }
}
Object.defineProperty(RealmObject, "name", { value: "Realm.Object" });

function mixedType(value, state) {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return value[0] === TYPE.LIST ? "list" : "dictionary";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "double";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (value instanceof Date) return "date";
  if (value instanceof ArrayBuffer) return "data";
  if (value._bsontype === "ObjectID") return "objectId";
  if (value._bsontype === "UUID") return "uuid";
  if (value._bsontype === "Decimal128") return "decimal128";
  if (value.classIndex !== undefined) return `<${state.ctx.classNameAt(value.classIndex)}>`;
  return "mixed";
}

// The getter of one property.
function reader(ctx, info, property) {
  const { name, index } = property;
  if (property.presentation === "counter") {
    return function get() {
      const state = this[INTERNAL];
      const value = checked(state, () => native.objectGet(state.handle, index));
      return value === null ? null : new Counter(CONSTRUCT, this, property);
    };
  }
  switch (property.type) {
    case "object":
      return function get() {
        const state = this[INTERNAL];
        const handle = checked(state, () => native.objectGetLinked(state.handle, name));
        return handle === null ? null : ctx.wrap(handle, property.objectType);
      };
    case "list":
    case "set":
    case "dictionary": {
      const kind = property.type;
      const open = { list: native.objectGetList, set: native.objectGetSet, dictionary: native.objectGetDict }[kind];
      return function get() {
        const state = this[INTERNAL];
        return ctx.collection(kind, checked(state, () => open(state.handle, name)), property, state.handle);
      };
    }
    case "linkingObjects":
      return function get() {
        const state = this[INTERNAL];
        return ctx.results(checked(state, () => native.objectGetBacklinks(state.handle, name)), property.objectType);
      };
    case "mixed":
      return function get() {
        const state = this[INTERNAL];
        const value = checked(state, () => native.objectGet(state.handle, index));
        if (Array.isArray(value)) {
          // A nested list or dictionary: read whole (a copy, not live).
          return ctx.fromExt(JSON.parse(checked(state, () => native.objectGetMixedJson(state.handle, name, "[]"))));
        }
        return ctx.resolve(value);
      };
    default:
      if (ROW_TYPES.has(property.type)) return rowReader(ctx, info, property);
      return function get() {
        const state = this[INTERNAL];
        return checked(state, () => native.objectGet(state.handle, index));
      };
  }
}

// Properties whose values are JS primitives (nothing a program could mutate) are read together:
// the first read of an object reads all of them in one call (drumlin_object_get_values), and the
// next reads return them while the database's read version (ctx.version, the engine's counter
// read without a call) has not moved. Every commit, rollback and write through the handle moves
// it, and so does a read that sees another connection's commit.
const ROW_TYPES = new Set(["bool", "int", "float", "double", "string"]);

function rowOf(info) {
  if (!info.row) {
    const properties = info.properties.filter((p) => ROW_TYPES.has(p.type) && p.presentation !== "counter");
    const slots = new Map(properties.map((p, i) => [p.name, i]));
    // An int or string primary key in the row finds a lazily made object (wrapLazy) by itself.
    const keySlot = info.primaryKey === undefined ? undefined : slots.get(info.primaryKey);
    info.row = { indices: Int32Array.from(properties, (p) => p.index), slots, keySlot };
  }
  return info.row;
}

function rowReader(ctx, info, property) {
  const { index } = property;
  const row = rowOf(info);
  const slot = row.slots.get(property.name);
  return function get() {
    const state = this[INTERNAL];
    const version = ctx.version;
    if (version === null) return checked(state, () => native.objectGet(state.handle, index));
    if (state.row !== undefined && state.low === version[0] && state.high === version[1]) return state.row[state.base + slot];
    const values = checked(state, () => native.objectGetValues(state.handle, row.indices));
    state.row = values;
    state.base = 0;
    state.low = version[0];
    state.high = version[1];
    return values[slot];
  };
}

function writer(ctx, info, property) {
  const { name } = property;
  if (property.type === "linkingObjects") {
    return function set() {
      throw new Error(`Cannot assign to read only property '${name}'`);
    };
  }
  const isCounter = property.presentation === "counter";
  return function set(value) {
    const state = this[INTERNAL];
    if (isCounter) {
      // Realm JS: a number only where the counter is null, null only where it may be.
      const current = checked(state, () => native.objectGet(state.handle, property.index));
      const toNull = value === null || value === undefined;
      if (toNull ? !property.optional : current !== null) throw new Error(COUNTER_RESET);
    }
    const json = JSON.stringify({ [name]: serializeValue(ctx, property, value, ctx.isManaged) });
    try {
      checked(state, () => native.objectUpdateJson(state.handle, json));
    } catch (error) {
      throw typeMismatch(error, property, value);
    }
  };
}

// The prototype of `info`'s managed objects in the realm of `ctx`.
function buildPrototype(ctx, info) {
  const parent = info.ctor ? info.ctor.prototype : RealmObject.prototype;
  const prototype = Object.create(parent);
  for (const property of info.properties) {
    Object.defineProperty(prototype, property.name, {
      get: reader(ctx, info, property),
      set: writer(ctx, info, property),
      enumerable: true,
      configurable: true,
    });
  }
  return prototype;
}

// An object read in a page of results: its key (undefined: its primary key is in the row) and
// row, and an engine handle only once something needs one (a property outside the row, a write, a
// listener...): found by key or primary key then, or Realm JS's error when the object is gone.
function wrapLazy(ctx, prototype, info, key, values, base, low, high) {
  const target = Object.create(prototype);
  attach(target, new LazyState(ctx, info, key, values, base, low, high));
  return new Proxy(target, objectHandler);
}

// The internal state of such an object; `row` may be the page's array, its values from `base`.
class LazyState {
  constructor(ctx, info, key, row, base, low, high) {
    this.ctx = ctx;
    this.info = info;
    this.listeners = null;
    this.key = key;
    this.row = row;
    this.base = base;
    this.low = low;
    this.high = high;
    this.found = null;
  }

  get handle() {
    if (this.found === null) {
      const { ctx, info } = this;
      if (ctx.realm.isClosed) throw new Error(INVALIDATED);
      // By the primary key in the row (a primary key never changes outside a migration).
      const found = this.key === undefined
        ? native.findObject(ctx.db, info.name, toTyped(this.row[this.base + info.row.keySlot]))
        : native.findByKey(ctx.db, info.name, this.key);
      if (found === null) throw new Error(INVALIDATED);
      this.found = found;
    }
    return this.found;
  }
}

function wrapObject(ctx, prototype, info, handle) {
  const target = Object.create(prototype);
  attach(target, { ctx, info, handle, listeners: null });
  return new Proxy(target, objectHandler);
}

module.exports = { RealmObject, buildPrototype, wrapObject, wrapLazy, rowOf };
