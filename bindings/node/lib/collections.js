"use strict";
// Realm.Collection, OrderedCollection, Results, List, Set and Dictionary over the engine's live
// results, list, set and dictionary handles. Each reads through the engine on every access
// (live), and is a Proxy so that `results[0]`, `dict.key` and Object.keys work as in Realm JS.

const { native, INTERNAL, CONSTRUCT } = require("./native");
const { IllegalConstructorError, TypeAssertionError, engine } = require("./errors");
const { toTyped, toExt, COUNTER } = require("./values");
const { COUNTER_AS_ARGUMENT } = require("./counter");
const { serializeValue } = require("./serialize");
const { rowOf } = require("./object");

// Objects read per engine call when results are iterated: a short first page (a loop may stop
// early), then long ones.
const FIRST_PAGE = 64;
const PAGE = 1024;
const { enqueue, removeListener, collectionChanges, EMPTY_COLLECTION_CHANGES } = require("./listeners");

function isIndex(key) {
  if (typeof key !== "string" || key.length === 0) return false;
  const c = key.charCodeAt(0);
  return c >= 48 && c <= 57 && String(Number(key)) === key;
}

const orderedHandler = {
  get(target, key, receiver) {
    if (isIndex(key)) return target._get(Number(key));
    return Reflect.get(target, key, receiver);
  },
  set(target, key, value, receiver) {
    if (isIndex(key)) {
      target._set(Number(key), value);
      return true;
    }
    return Reflect.set(target, key, value, receiver);
  },
  has(target, key) {
    if (isIndex(key)) return Number(key) < target.length;
    return Reflect.has(target, key);
  },
  ownKeys(target) {
    const keys = [];
    for (let i = 0, n = target.length; i < n; i++) keys.push(String(i));
    return keys.concat(Reflect.ownKeys(target));
  },
  getOwnPropertyDescriptor(target, key) {
    if (isIndex(key)) {
      const index = Number(key);
      if (index >= target.length) return undefined;
      return { value: target._get(index), writable: true, enumerable: true, configurable: true };
    }
    return Reflect.getOwnPropertyDescriptor(target, key);
  },
};

function sortDescriptor(descriptor, reverse) {
  const one = (name, descending) => `${name} ${descending ? "DESC" : "ASC"}`;
  if (descriptor === undefined) return one("self", reverse);
  if (typeof descriptor === "string") return one(descriptor, reverse);
  if (Array.isArray(descriptor)) {
    return descriptor.map((item) => (Array.isArray(item) ? one(item[0], item[1]) : one(item, false))).join(", ");
  }
  throw new TypeError("Expected a sort descriptor: a property name, or an array of names and [name, reverse] pairs");
}

// Realm JS's geospatial shapes (plain objects) as the engine's shape argument: the JSON text
// {"circle" | "box" | "polygon": ...} passed as a string (docs/queries.md, "Geospatial").
function geoPosition(point) {
  if (Array.isArray(point)) return point.slice(0, 2);
  if (point && Array.isArray(point.coordinates)) return point.coordinates.slice(0, 2);
  if (point && typeof point.longitude === "number") return [point.longitude, point.latitude];
  throw new TypeError("Expected a GeoPoint: [longitude, latitude], { longitude, latitude } or { type: 'Point', coordinates }");
}

function geoShape(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value) || value[INTERNAL]) return undefined;
  const keys = Object.keys(value).sort().join(",");
  if (keys === "center,distance") return { circle: [geoPosition(value.center), value.distance] };
  if (keys === "bottomLeft,topRight") return { box: [geoPosition(value.bottomLeft), geoPosition(value.topRight)] };
  if (keys === "outerRing" || keys === "holes,outerRing") {
    return { polygon: [value.outerRing, ...(value.holes ?? [])].map((ring) => ring.map(geoPosition)) };
  }
  if (value.type === "Polygon" && Array.isArray(value.coordinates)) {
    return { polygon: value.coordinates.map((ring) => ring.map(geoPosition)) };
  }
  return undefined;
}

function argsJson(args) {
  if (args.length === 0) return null;
  return JSON.stringify(args.map((arg) => {
    if (arg?.[COUNTER]) throw new Error(COUNTER_AS_ARGUMENT);
    const shape = geoShape(arg);
    return shape ? JSON.stringify(shape) : toExt(arg);
  }));
}

function keyPathsJson(keyPaths) {
  if (keyPaths === undefined) return null;
  return JSON.stringify(typeof keyPaths === "string" ? [keyPaths] : keyPaths);
}

// Realm JS's checks of an aggregate's property argument: a name for objects, none for values.
function aggregateArgument(className, property) {
  if (className === undefined) {
    if (property !== undefined) throw new Error(`Cannot get property named '${property}' on a list of primitives`);
  } else if (typeof property !== "string") {
    throw new TypeAssertionError("a string", property, "name");
  }
}

// The engine refuses an aggregate over a property of another type ("Cannot sum property 'P.name'
// of type 'string'."): Realm JS words that as "Operation 'sum' not supported for ...".
const AGGREGATE_REFUSED = /^Cannot (min|max|sum|avg) property '(.+)' of type '(.+)'\.$/;
function aggregateError(error) {
  const match = AGGREGATE_REFUSED.exec(error.message);
  if (!match) return error;
  const translated = new Error(`Operation '${match[1]}' not supported for ${match[3]} property '${match[2]}'`);
  translated.code = error.code;
  return translated;
}

class Collection {
  constructor(token) {
    if (token !== CONSTRUCT) throw new IllegalConstructorError(new.target.name);
  }

  get realm() {
    return this[INTERNAL].ctx.realm;
  }

  [Symbol.iterator]() {
    return this.values();
  }

  isValid() {
    const state = this[INTERNAL];
    return !state.ctx.realm.isClosed;
  }

  // Listeners run from the event loop: first with an empty change set, then after each commit
  // that changes the collection.
  addListener(callback, keyPaths) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    if (typeof callback !== "function") throw new TypeError("Expected 'callback' to be a function");
    state.listeners ??= new Map();
    if (state.listeners.has(callback)) throw new Error("Remove callback before adding it again");
    const entry = { active: true, token: null };
    const self = this;
    const convert = this._changeSet.bind(this);
    entry.token = engine(() =>
      native.observe(state.handle, keyPathsJson(keyPaths), (changes) => {
        enqueue(() => entry.active && callback(self, convert(changes)));
      }),
    );
    state.listeners.set(callback, entry);
    state.ctx.watch();
    enqueue(() => entry.active && callback(self, this._emptyChangeSet()));
  }

  removeListener(callback) {
    removeListener(this[INTERNAL], callback);
  }

  removeAllListeners() {
    for (const callback of [...(this[INTERNAL].listeners?.keys() ?? [])]) this.removeListener(callback);
  }

  _changeSet(changes) {
    return collectionChanges(changes);
  }

  _emptyChangeSet() {
    return EMPTY_COLLECTION_CHANGES;
  }
}

class OrderedCollection extends Collection {
  constructor(token) {
    super(token);
    return new Proxy(this, orderedHandler);
  }

  *values() {
    for (let i = 0, n = this.length; i < n; i++) yield this._get(i);
  }

  *keys() {
    for (let i = 0, n = this.length; i < n; i++) yield i;
  }

  *entries() {
    for (let i = 0, n = this.length; i < n; i++) yield [i, this._get(i)];
  }

  toArray() {
    return Array.from(this.values());
  }

  toJSON(_, cache = new Map()) {
    return this.toArray().map((item) => (item && typeof item.toJSON === "function" && item[INTERNAL] ? item.toJSON(_, cache) : item));
  }

  isEmpty() {
    return this.length === 0;
  }

  at(index) {
    const n = this.length;
    const i = index < 0 ? n + index : index;
    return i >= 0 && i < n ? this._get(i) : undefined;
  }

  _set() {
    throw new Error("Cannot assign to an index of this collection");
  }
}

for (const name of ["map", "forEach", "filter", "find", "findIndex", "findLast", "findLastIndex", "some", "every",
  "reduce", "reduceRight", "slice", "join", "flatMap", "flat", "lastIndexOf", "concat"]) {
  Object.defineProperty(OrderedCollection.prototype, name, {
    value(...args) {
      return Array.prototype[name].apply(this.toArray(), args);
    },
    writable: true,
    configurable: true,
  });
}
OrderedCollection.prototype.includes = function includes(value) {
  return this.indexOf(value) !== -1;
};

// Results of a closed realm: Realm JS's message.
function checkResults(state) {
  if (state.ctx.realm.isClosed) throw new Error("Access to invalidated Results objects");
}

class Results extends OrderedCollection {
  get length() {
    const state = this[INTERNAL];
    checkResults(state);
    return engine(() => native.resultsCount(state.handle));
  }

  set length(_) {
    throw new Error("Cannot assign to read only property 'length'");
  }

  get type() {
    return "object";
  }

  // Iteration reads the objects' keys and primitive values a page at a time (one engine call per
  // page; a short page is the end; a class whose primary key is in the row needs no object keys)
  // and makes each object from its key (or primary key) and row,
  // with no engine handle until one is needed (lib/object.js wrapLazy). Positions are read live,
  // as before: once anything changed (a loop that writes), the rest are read one by one.
  *values() {
    const state = this[INTERNAL];
    checkResults(state);
    const { ctx } = state;
    const info = state.className === undefined ? undefined : ctx.classes.get(state.className);
    const row = info && ctx.version !== null ? rowOf(info) : undefined;
    if (!row || row.indices.length === 0) {
      yield* super.values();
      return;
    }
    const width = row.indices.length;
    let n = Infinity;
    for (let start = 0, page = FIRST_PAGE; start < n; start += page, page = PAGE) {
      checkResults(state);
      const [values, keys] = engine(() => native.resultsGetValues(state.handle, start, page, row.indices, row.keySlot === undefined));
      const rows = values.length / width;
      if (rows < page) n = start + rows;
      const low = ctx.version[0];
      const high = ctx.version[1];
      const end = Math.min(n, start + page);
      for (let i = start; i < end; i++) {
        const r = i - start;
        const version = ctx.version;
        if (r < rows && version !== null && version[0] === low && version[1] === high) {
          // Nothing changed since the page was read: its objects are the results' objects here.
          yield ctx.wrapRow(state.className, row.keySlot === undefined ? keys[r] : undefined, values, r * width, low, high);
        } else {
          yield this._get(i);
        }
      }
    }
  }

  _get(index) {
    const state = this[INTERNAL];
    checkResults(state);
    if (!Number.isInteger(index) || index < 0) return undefined;
    let handle;
    try {
      handle = native.resultsGetObject(state.handle, index);
    } catch (error) {
      if (error.code === "DRUMLIN_ERR_INVALID_ARGUMENT") return undefined;
      throw engine(() => {
        throw error;
      });
    }
    return state.ctx.wrap(handle, state.className);
  }

  indexOf(object) {
    const state = this[INTERNAL];
    const key = state.ctx.keyOf(object, state.className);
    return key === undefined ? -1 : engine(() => native.resultsIndexOfKey(state.handle, key));
  }

  filtered(query, ...args) {
    const state = this[INTERNAL];
    checkResults(state);
    const handle = engine(() => native.resultsFilter(state.handle, query, argsJson(args)));
    return state.ctx.results(handle, state.className);
  }

  sorted(descriptor, reverse = false) {
    const state = this[INTERNAL];
    checkResults(state);
    const handle = engine(() => native.resultsSort(state.handle, sortDescriptor(descriptor, reverse)));
    return state.ctx.results(handle, state.className);
  }

  snapshot() {
    const state = this[INTERNAL];
    checkResults(state);
    return state.ctx.results(engine(() => native.resultsSnapshot(state.handle)), state.className);
  }

  min(property) {
    return this._aggregate(0, property);
  }

  max(property) {
    return this._aggregate(1, property);
  }

  sum(property) {
    return this._aggregate(2, property);
  }

  avg(property) {
    return this._aggregate(3, property);
  }

  _aggregate(op, property) {
    const state = this[INTERNAL];
    checkResults(state);
    aggregateArgument(state.className, property);
    let value;
    try {
      value = engine(() => native.resultsAggregate(state.handle, op, property));
    } catch (error) {
      throw aggregateError(error);
    }
    return value === null ? undefined : value;
  }

  // Sets `property` to `value` on every object (in a write transaction).
  update(property, value) {
    checkResults(this[INTERNAL]);
    for (const object of this.snapshot()) object[property] = value;
  }

  description() {
    return `Results<${this[INTERNAL].className}>`;
  }
}

class List extends OrderedCollection {
  get length() {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    return engine(() => native.listSize(state.handle));
  }

  set length(_) {
    throw new Error("Cannot assign to read only property 'length'");
  }

  get type() {
    return this[INTERNAL].property.objectType;
  }

  get optional() {
    return this[INTERNAL].property.optional;
  }

  _get(index) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    if (!Number.isInteger(index) || index < 0) return undefined;
    try {
      if (state.objectClass) return state.ctx.wrap(native.listGetObject(state.handle, index), state.objectClass);
      return state.ctx.resolve(native.listGet(state.handle, index), [state.owner, state.property.name, index]);
    } catch (error) {
      if (error.code === "DRUMLIN_ERR_INVALID_ARGUMENT") return undefined;
      throw engine(() => {
        throw error;
      });
    }
  }

  _element(value) {
    const state = this[INTERNAL];
    return serializeValue(state.ctx, { type: "object", objectType: state.property.objectType }, value, state.ctx.isManaged);
  }

  _set(index, value) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    engine(() => native.listSetJson(state.handle, index, JSON.stringify(this._element(value))));
  }

  set(index, value) {
    this._set(index, value);
  }

  push(...items) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    const size = this.length;
    engine(() => native.listInsertManyJson(state.handle, size, JSON.stringify(items.map((item) => this._element(item)))));
    return size + items.length;
  }

  unshift(...items) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    engine(() => native.listInsertManyJson(state.handle, 0, JSON.stringify(items.map((item) => this._element(item)))));
    return this.length;
  }

  pop() {
    const size = this.length;
    if (size === 0) return undefined;
    const last = this._get(size - 1);
    engine(() => native.listErase(this[INTERNAL].handle, size - 1));
    return last;
  }

  shift() {
    if (this.length === 0) return undefined;
    const first = this._get(0);
    engine(() => native.listErase(this[INTERNAL].handle, 0));
    return first;
  }

  splice(start, deleteCount, ...items) {
    const state = this[INTERNAL];
    const size = this.length;
    let from = start < 0 ? Math.max(size + start, 0) : Math.min(start ?? 0, size);
    const count = deleteCount === undefined ? size - from : Math.max(0, Math.min(deleteCount, size - from));
    const removed = [];
    for (let i = 0; i < count; i++) removed.push(this._get(from + i));
    engine(() => {
      for (let i = 0; i < count; i++) native.listErase(state.handle, from);
      if (items.length > 0) {
        native.listInsertManyJson(state.handle, from, JSON.stringify(items.map((item) => this._element(item))));
      }
    });
    return removed;
  }

  remove(index) {
    engine(() => native.listErase(this[INTERNAL].handle, index));
  }

  move(from, to) {
    engine(() => native.listMove(this[INTERNAL].handle, from, to));
  }

  swap(index1, index2) {
    const [low, high] = index1 < index2 ? [index1, index2] : [index2, index1];
    if (low === high) return;
    engine(() => {
      native.listMove(this[INTERNAL].handle, low, high);
      native.listMove(this[INTERNAL].handle, high - 1, low);
    });
  }

  indexOf(value) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    if (state.objectClass && state.ctx.keyOf(value, state.objectClass) === undefined) return -1;
    return engine(() => native.listFind(state.handle, toTyped(value)));
  }

  filtered(query, ...args) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    const handle = engine(() => native.listQuery(state.handle, query, argsJson(args)));
    return state.ctx.results(handle, state.objectClass);
  }

  sorted(descriptor, reverse = false) {
    return this.filtered(`TRUEPREDICATE SORT(${sortDescriptor(descriptor, reverse)})`);
  }

  snapshot() {
    return this.filtered("TRUEPREDICATE").snapshot();
  }

  min(property) {
    aggregateArgument(this[INTERNAL].objectClass, property);
    return this.filtered("TRUEPREDICATE").min(property);
  }

  max(property) {
    aggregateArgument(this[INTERNAL].objectClass, property);
    return this.filtered("TRUEPREDICATE").max(property);
  }

  sum(property) {
    aggregateArgument(this[INTERNAL].objectClass, property);
    return this.filtered("TRUEPREDICATE").sum(property);
  }

  avg(property) {
    aggregateArgument(this[INTERNAL].objectClass, property);
    return this.filtered("TRUEPREDICATE").avg(property);
  }
}

class RealmSet extends OrderedCollection {
  get length() {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    return engine(() => native.setSize(state.handle));
  }

  get size() {
    return this.length;
  }

  get type() {
    return this[INTERNAL].property.objectType;
  }

  _get(index) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    return state.ctx.resolve(engine(() => native.setGet(state.handle, index)));
  }

  add(value) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    const element = serializeValue(state.ctx, { type: "object", objectType: state.property.objectType }, value, state.ctx.isManaged);
    engine(() => native.setInsertManyJson(state.handle, JSON.stringify([element])));
    return this;
  }

  delete(value) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    return engine(() => native.setErase(state.handle, toTyped(value)));
  }

  has(value) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    return engine(() => native.setFind(state.handle, toTyped(value)));
  }

  clear() {
    engine(() => native.setClear(this[INTERNAL].handle));
  }

  indexOf(value) {
    let index = 0;
    const typed = toTyped(value);
    for (const item of this) {
      if (item === value || (typed !== value && item && typeof item.equals === "function" && item.equals(value))) return index;
      index++;
    }
    return -1;
  }
}
Object.defineProperty(RealmSet, "name", { value: "Set" });

const dictionaryHandler = {
  get(target, key, receiver) {
    if (typeof key !== "string" || key in target) return Reflect.get(target, key, receiver);
    return target._find(key);
  },
  set(target, key, value, receiver) {
    if (typeof key !== "string" || key in target) return Reflect.set(target, key, value, receiver);
    target.set({ [key]: value });
    return true;
  },
  deleteProperty(target, key) {
    if (typeof key !== "string") return Reflect.deleteProperty(target, key);
    target.remove(key);
    return true;
  },
  has(target, key) {
    if (typeof key !== "string" || key in target) return Reflect.has(target, key);
    return target._find(key) !== undefined;
  },
  ownKeys(target) {
    return [...target.keys()].concat(Reflect.ownKeys(target));
  },
  getOwnPropertyDescriptor(target, key) {
    if (typeof key !== "string") return Reflect.getOwnPropertyDescriptor(target, key);
    const value = target._find(key);
    if (value === undefined) return undefined;
    return { value, writable: true, enumerable: true, configurable: true };
  },
};

class Dictionary extends Collection {
  constructor(token) {
    super(token);
    return new Proxy(this, dictionaryHandler);
  }

  get size() {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    return engine(() => native.dictSize(state.handle));
  }

  get type() {
    return this[INTERNAL].property.objectType;
  }

  _find(key) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    return state.ctx.resolve(engine(() => native.dictFind(state.handle, key)), [state.owner, state.property.name, key]);
  }

  *entries() {
    const state = this[INTERNAL];
    for (let i = 0, n = this.size; i < n; i++) {
      const [key, value] = engine(() => native.dictGet(state.handle, i));
      yield [key, state.ctx.resolve(value, [state.owner, state.property.name, key])];
    }
  }

  *keys() {
    for (const [key] of this.entries()) yield key;
  }

  *values() {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator]() {
    return this.entries();
  }

  // set({key: value, ...}) or set(key, value); returns the dictionary.
  set(elementsOrKey, value) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    const elements = typeof elementsOrKey === "string" ? { [elementsOrKey]: value } : elementsOrKey;
    const json = serializeValue(state.ctx, { type: "dictionary", objectType: state.property.objectType }, elements, state.ctx.isManaged);
    engine(() => native.dictInsertManyJson(state.handle, JSON.stringify(json)));
    return this;
  }

  remove(keys) {
    const state = this[INTERNAL];
    state.ctx.checkOpen();
    for (const key of Array.isArray(keys) ? keys : [keys]) engine(() => native.dictErase(state.handle, key));
    return this;
  }

  clear() {
    engine(() => native.dictClear(this[INTERNAL].handle));
  }

  toJSON(_, cache = new Map()) {
    const out = {};
    for (const [key, value] of this.entries()) {
      out[key] = value && value[INTERNAL] && typeof value.toJSON === "function" ? value.toJSON(_, cache) : value;
    }
    return out;
  }

  _changeSet(changes) {
    return { deletions: changes.deletions, insertions: changes.insertions, modifications: changes.modifications };
  }

  _emptyChangeSet() {
    return { deletions: [], insertions: [], modifications: [] };
  }
}

module.exports = { Collection, OrderedCollection, Results, List, RealmSet, Dictionary, sortDescriptor };
