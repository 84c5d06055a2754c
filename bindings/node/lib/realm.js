"use strict";
// The Realm class: opening (config), transactions, create/delete/query, listeners, and the
// per-realm context that wraps the engine's handles as objects and collections.

const fs = require("node:fs");
const path = require("node:path");
const { native, INTERNAL, CONSTRUCT, attach } = require("./native");
const errors = require("./errors");
const { engine, CLOSED } = errors;
const { LinkRef, hooks, fromExt, toTyped } = require("./values");
const schemaModule = require("./schema");
const { serializeObject } = require("./serialize");
const { RealmObject, buildPrototype, wrapObject, wrapLazy } = require("./object");
const collections = require("./collections");

const UPDATE_MODES = { never: 0, modified: 1, all: 2 };
const POLL_MS = 20;
// The realms this process has open (Realm.shutdown and Realm.clearTestState close them).
const openRealms = new Set();

// The per-realm context: how this realm's handles become objects and collections.
class Context {
  constructor(realm, db, prepared) {
    this.realm = realm;
    this.db = db;
    this.prepared = prepared;
    this.prototypes = new Map();
    this.classNames = [];
    this.isManaged = (value) => Boolean(value && value[INTERNAL]);
    // The engine's read version, for the objects' row cache (lib/object.js); null for a
    // migration's borrowed handles (valid only during the migration) and once the realm closes.
    this.version = null;
    this.loadSchema();
  }

  loadSchema() {
    this.classes = schemaModule.describe(engine(() => native.schemaJson(this.db)), this.prepared);
    for (const info of this.classes.values()) {
      info.classIndex = native.classIndex(this.db, info.name);
      this.classNames[info.classIndex] = info.name;
      for (const property of info.properties) property.index = native.propertyIndex(this.db, info.name, property.name);
    }
    this.prototypes.clear();
  }

  checkOpen() {
    if (this.realm.isClosed) throw new Error(CLOSED);
  }

  // While anything listens, commits made by other connections (another Realm instance of the
  // file, another process, the command line) are looked for every POLL_MS and delivered with
  // drumlin_refresh: listeners then run as for this realm's own commits.
  watch() {
    this.watchers = (this.watchers ?? 0) + 1;
    if (!this.timer) {
      this.timer = setInterval(() => this.poll(), POLL_MS);
      this.timer.unref();
    }
  }

  unwatch() {
    this.watchers -= 1;
    if (this.watchers <= 0) this.stopWatching();
  }

  stopWatching() {
    this.watchers = 0;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  poll() {
    if (this.realm.isClosed) return this.stopWatching();
    if (native.isInWrite(this.db) || !native.hasChanges(this.db)) return;
    if (native.refresh(this.db)) this.realm._changed();
  }

  classNameAt(index) {
    return this.classNames[index] ?? native.className(this.db, index);
  }

  info(type) {
    const name = typeof type === "string" ? type : type?.schema?.name ?? type?.name ?? String(type);
    const info = this.classes.get(name);
    if (!info) throw new Error(`Object type '${name}' not found in schema.`);
    return info;
  }

  prototypeOf(className) {
    let prototype = this.prototypes.get(className);
    if (!prototype) {
      prototype = buildPrototype(this, this.classes.get(className));
      this.prototypes.set(className, prototype);
    }
    return prototype;
  }

  wrap(handle, className) {
    if (handle === null) return null;
    return wrapObject(this, this.prototypeOf(className), this.classes.get(className), handle);
  }

  // An object of a page of results: its key and row values (from values[base]), read at version
  // low/high.
  wrapRow(className, key, values, base, low, high) {
    return wrapLazy(this, this.prototypeOf(className), this.classes.get(className), key, values, base, low, high);
  }

  results(handle, className) {
    const results = new collections.Results(CONSTRUCT);
    attach(results, { ctx: this, handle, className, listeners: null });
    return results;
  }

  // A list, set or dictionary property of the object `owner` (an object handle).
  collection(kind, handle, property, owner) {
    const Class = kind === "list" ? collections.List : kind === "set" ? collections.RealmSet : collections.Dictionary;
    const collection = new Class(CONSTRUCT);
    const objectClass = this.classes.has(property.objectType) ? property.objectType : undefined;
    attach(collection, { ctx: this, handle, property, objectClass, owner, listeners: null });
    return collection;
  }

  // A value read from the engine as JS: a link becomes its object. `nested` (owner handle,
  // property name, step) reads a list or dictionary held by a mixed element, whole.
  resolve(value, nested) {
    if (value instanceof LinkRef) return this.objectByKey(this.classNameAt(value.classIndex), value.key);
    if (Array.isArray(value) && nested) {
      const [owner, name, step] = nested;
      return this.fromExt(JSON.parse(engine(() => native.objectGetMixedJson(owner, name, JSON.stringify([step])))));
    }
    return value;
  }

  fromExt(value) {
    return fromExt(value, (className, key) => this.objectByKey(className, key));
  }

  objectByKey(className, key) {
    return this.wrap(engine(() => native.findByKey(this.db, className, key)), className);
  }

  // The object key of a managed object of `className` in this realm, else undefined.
  keyOf(object, className) {
    const state = object?.[INTERNAL];
    if (!state || state.ctx !== this || !state.info || state.info.name !== className) return undefined;
    return native.objectKey(state.handle);
  }
}

// A managed object as a link ([className, classIndex, key]) for the engine's JSON and typed values.
hooks.linkOf = (value) => {
  const state = value?.[INTERNAL];
  if (!state || !state.info || state.info.embedded) return undefined;
  return [state.info.name, state.info.classIndex, native.objectKey(state.handle)];
};
hooks.plainOf = (value) => {
  const state = value?.[INTERNAL];
  if (!state) return undefined;
  if (state.info) {
    const out = {};
    for (const name of state.info.names) out[name] = value[name];
    return out;
  }
  if (value instanceof collections.Dictionary) return Object.fromEntries(value.entries());
  return Array.from(value);
};

function resolvePath(config) {
  const given = config.path;
  if (given === undefined) return Realm.defaultPath;
  if (typeof given !== "string") throw new errors.TypeAssertionError("a string", given, "'path'");
  if (given === "") throw new Error("Expected a non-empty path");
  return path.isAbsolute(given) ? given : path.resolve(path.dirname(Realm.defaultPath), given);
}

// Realm JS's encryptionKey (an ArrayBuffer or a view of one: Uint8Array, Int8Array, Buffer...) as
// a Uint8Array copy of its 64 bytes, which the caller wipes after use; undefined for none.
function keyBytes(key) {
  if (key === undefined || key === null) return undefined;
  let bytes;
  if (key instanceof ArrayBuffer) bytes = new Uint8Array(key);
  else if (ArrayBuffer.isView(key)) bytes = new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
  else throw new errors.TypeAssertionError("an ArrayBuffer, ArrayBufferView (Uint8Array), or Int8Array", key, "'encryptionKey'");
  if (bytes.length !== 64) throw new Error("Encryption key must be 64 bytes.");
  return Uint8Array.from(bytes);
}

function validateConfig(config) {
  if (config.sync !== undefined || config.openSyncedRealmLocally !== undefined) {
    throw new Error("Sync is not supported by drumlin: remove 'sync' from the configuration.");
  }
  if (config.encryptionKey !== undefined) keyBytes(config.encryptionKey);
  if (config.readOnly && config.deleteRealmIfMigrationNeeded) {
    throw new Error("Cannot set 'deleteRealmIfMigrationNeeded' when 'readOnly' is set.");
  }
  if (config.onMigration && config.deleteRealmIfMigrationNeeded) {
    throw new Error("Cannot include 'onMigration' and 'deleteRealmIfMigrationNeeded' in the same configuration.");
  }
  if (config.onMigration !== undefined && typeof config.onMigration !== "function") {
    throw new errors.TypeAssertionError("a function", config.onMigration, "'onMigration'");
  }
  if (config.schemaVersion !== undefined &&
      (!Number.isInteger(config.schemaVersion) || config.schemaVersion < 0)) {
    throw new errors.TypeAssertionError("a non-negative integer", config.schemaVersion, "'schemaVersion'");
  }
}

class Realm {
  static defaultPath = path.join(process.cwd(), "default.realm");
  static flags = { ALLOW_VALUES_ARRAYS: false, THROW_ON_GLOBAL_REALM: false, ALLOW_CLEAR_TEST_STATE: false };

  // new Realm(), new Realm(path), new Realm(config): opens the file synchronously.
  constructor(config = {}) {
    if (config === CONSTRUCT) return; // a migration's realms (Realm.#borrowed)
    if (typeof config === "string") config = { path: config };
    if (typeof config !== "object" || config === null) {
      throw new errors.TypeAssertionError("an object", config, "'config'");
    }
    validateConfig(config);
    const file = resolvePath(config);
    const prepared = config.schema ? schemaModule.prepare(config.schema, RealmObject) : null;
    const isNewFile = !config.inMemory && !fs.existsSync(file);
    let schemaJson = prepared ? prepared.json : null;
    if (!config.inMemory) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (!schemaJson && !fs.existsSync(file) && !config.readOnly) schemaJson = "[]";
    } else if (!schemaJson) {
      schemaJson = "[]";
    }
    const onMigration = config.onMigration
      ? (oldDb, newDb) => {
          const oldRealm = Realm.#borrowed(oldDb, file, prepared, { readOnly: true });
          const newRealm = Realm.#borrowed(newDb, file, prepared, { inMigration: true });
          config.onMigration(oldRealm, newRealm);
        }
      : undefined;
    const encryptionKey = keyBytes(config.encryptionKey);
    let db;
    try {
      db = engine(() =>
        native.open(config.inMemory ? ":memory:" : file, schemaJson, {
          schemaVersion: config.schemaVersion ?? 0,
          readOnly: Boolean(config.readOnly),
          inMemory: Boolean(config.inMemory),
          deleteIfMigrationNeeded: Boolean(config.deleteRealmIfMigrationNeeded),
          onMigration,
          encryptionKey,
        }),
      );
    } finally {
      encryptionKey?.fill(0); // the engine keeps its own copy, wiped when the realm closes
    }
    this.#setUp(db, file, prepared, {
      readOnly: Boolean(config.readOnly),
      inMemory: Boolean(config.inMemory),
    });
    openRealms.add(this);
    // Realm JS documents onFirstOpen (seed data when the file is created) but v12 never calls it;
    // Drumlin does what the documentation says, in a write transaction.
    if (typeof config.onFirstOpen === "function" && (isNewFile || config.inMemory)) {
      this.write(() => config.onFirstOpen(this));
    }
  }

  static #borrowed(db, file, prepared, flags) {
    const realm = new Realm(CONSTRUCT);
    realm.#setUp(db, file, prepared, { ...flags, borrowed: true });
    return realm;
  }

  #setUp(db, file, prepared, flags) {
    Object.defineProperty(this, INTERNAL, {
      value: {
        db,
        path: file,
        readOnly: Boolean(flags.readOnly),
        inMemory: Boolean(flags.inMemory),
        inMigration: Boolean(flags.inMigration),
        listeners: { change: new Set(), schema: new Set(), beforenotify: new Set() },
        ctx: null,
      },
    });
    this[INTERNAL].ctx = new Context(this, db, prepared?.classes);
    if (!flags.borrowed) {
      this[INTERNAL].ctx.version = new Uint32Array(native.readVersion(db));
    }
  }

  // Resolves to a new Realm; config errors reject. Has Realm JS's progress() and cancel().
  static open(config = {}) {
    let cancelled = false;
    const promise = new Promise((resolve, reject) => {
      setImmediate(() => {
        if (cancelled) return reject(new Error("Async open canceled"));
        try {
          resolve(new Realm(config));
        } catch (error) {
          reject(error);
        }
      });
    });
    promise.progress = () => promise;
    promise.cancel = () => {
      cancelled = true;
    };
    return promise;
  }

  static exists(config = {}) {
    return fs.existsSync(resolvePath(typeof config === "string" ? { path: config } : config));
  }

  static deleteFile(config = {}) {
    const file = resolvePath(typeof config === "string" ? { path: config } : config);
    for (const suffix of ["", "-wal", "-shm", "-journal", ".lock", ".note", ".fresh.lock"]) {
      fs.rmSync(file + suffix, { force: true });
    }
    fs.rmSync(file + ".management", { recursive: true, force: true });
  }

  // The schema version stored in a file, or -1 when there is none.
  static schemaVersion(file) {
    const resolved = resolvePath({ path: file });
    if (!fs.existsSync(resolved)) return -1;
    const db = engine(() => native.open(resolved, null, { readOnly: true }));
    try {
      return native.schemaVersion(db);
    } finally {
      native.close(db);
    }
  }

  static copyBundledRealmFiles() {
    throw new Error("Realm for Node does not support this method.");
  }

  static createTemplateObject(objectSchema) {
    const zero = { int: 0, float: 0, double: 0, bool: false, string: "", date: new Date(0), data: new ArrayBuffer(0) };
    const out = {};
    for (const [name, property] of Object.entries(objectSchema.properties)) {
      const type = typeof property === "string" ? property : property.type;
      if (property.default !== undefined) out[name] = typeof property.default === "function" ? property.default() : property.default;
      else if (!type.endsWith("?") && !property.optional && type in zero) out[name] = zero[type];
    }
    return out;
  }

  // Closes every realm this process has open.
  static shutdown() {
    for (const realm of [...openRealms]) realm.close();
  }

  // Test support (needs Realm.flags.ALLOW_CLEAR_TEST_STATE): closes every realm, then deletes the
  // realm files in the default directory.
  static clearTestState() {
    if (!Realm.flags.ALLOW_CLEAR_TEST_STATE) {
      throw new Error("Set the flag 'ALLOW_CLEAR_TEST_STATE' to true before calling 'clearTestState'.");
    }
    Realm.shutdown();
    const dir = path.dirname(Realm.defaultPath);
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      if (name.endsWith(".realm")) Realm.deleteFile({ path: path.join(dir, name) });
    }
  }

  get isClosed() {
    const state = this[INTERNAL];
    return !state || !native.isOpen(state.db);
  }

  get path() {
    return this[INTERNAL].path;
  }

  get isReadOnly() {
    return this[INTERNAL].readOnly;
  }

  get isInMemory() {
    return this[INTERNAL].inMemory;
  }

  get isInMigration() {
    return this[INTERNAL].inMigration && !this.isClosed;
  }

  get isInTransaction() {
    if (this.isClosed) return false;
    return native.isInWrite(this[INTERNAL].db);
  }

  get isEmpty() {
    this.#checkOpen();
    for (const info of this[INTERNAL].ctx.classes.values()) {
      if (!info.embedded && !info.asymmetric && this.objects(info.name).length > 0) return false;
    }
    return true;
  }

  get schema() {
    this.#checkOpen();
    return [...this[INTERNAL].ctx.classes.values()].map(schemaModule.canonical);
  }

  get schemaVersion() {
    this.#checkOpen();
    return native.schemaVersion(this[INTERNAL].db);
  }

  #checkOpen() {
    if (this.isClosed) throw new Error(CLOSED);
  }

  close() {
    this[INTERNAL].ctx.stopWatching();
    this[INTERNAL].ctx.version = null; // before the close frees the word it views
    openRealms.delete(this);
    native.close(this[INTERNAL].db); // a migration's borrowed handles are not closed here
  }

  beginTransaction() {
    this.#checkOpen();
    if (this[INTERNAL].readOnly) throw new Error("Can't perform transactions on read-only Realms.");
    if (this.isInTransaction) throw new Error("The Realm is already in a write transaction");
    engine(() => native.beginWrite(this[INTERNAL].db));
  }

  commitTransaction() {
    this.#checkOpen();
    if (!this.isInTransaction) throw new Error("Can only commit a write transaction when one is in progress.");
    engine(() => native.commit(this[INTERNAL].db));
    this._changed();
  }

  _changed() {
    for (const callback of [...this[INTERNAL].listeners.change]) callback(this, "change");
  }

  cancelTransaction() {
    this.#checkOpen();
    if (!this.isInTransaction) throw new Error("Can only cancel a write transaction when one is in progress.");
    engine(() => native.rollback(this[INTERNAL].db));
  }

  // Runs `callback` in a write transaction and returns what it returns; an exception rolls back.
  write(callback) {
    this.beginTransaction();
    let result;
    try {
      result = callback();
    } catch (error) {
      if (this.isInTransaction) this.cancelTransaction();
      throw error;
    }
    if (this.isInTransaction) this.commitTransaction();
    return result;
  }

  create(type, values, mode = "never") {
    this.#checkOpen();
    const ctx = this[INTERNAL].ctx;
    const info = ctx.info(type);
    if (mode === true) mode = "all";
    else if (mode === false || mode === undefined) mode = "never";
    const updateMode = UPDATE_MODES[mode];
    if (updateMode === undefined) {
      throw new Error(`Unsupported 'updateMode'. Only 'never', 'modified' or 'all' is supported.`);
    }
    if (values === null || typeof values !== "object") {
      throw new errors.TypeAssertionError("an object", values, "'values'");
    }
    if (!this.isInTransaction) throw new Error(errors.OUTSIDE_WRITE);
    if (info.embedded) throw new Error(`Cannot create an object of an embedded type '${info.name}' on its own.`);
    if (Array.isArray(values) && Realm.flags.ALLOW_VALUES_ARRAYS) {
      values = Object.fromEntries(info.names.map((name, i) => [name, values[i]]));
    }
    let isNew = true;
    if (updateMode !== 0 && info.primaryKey !== undefined && values[info.primaryKey] !== undefined) {
      isNew = engine(() => native.findObject(this[INTERNAL].db, info.name, toTyped(values[info.primaryKey]))) === null;
    }
    const json = JSON.stringify(serializeObject(ctx, info.name, values, isNew));
    let handle;
    try {
      handle = engine(() => native.createObject(this[INTERNAL].db, info.name, json, updateMode, !info.asymmetric));
    } catch (error) {
      // The engine names the property: "... for property 'Class.name' ...".
      const match = /property '([^'.]+)\.([^']+)'/.exec(error.message);
      const property = match && match[1] === info.name ? info.byName.get(match[2]) : undefined;
      throw errors.typeMismatch(error, property, property && values[property.name]);
    }
    return info.asymmetric ? undefined : ctx.wrap(handle, info.name);
  }

  delete(subject) {
    this.#checkOpen();
    if (!this.isInTransaction) throw new Error("Can only delete objects within a transaction.");
    if (subject === null || subject === undefined) return;
    if (subject instanceof collections.Results) {
      engine(() => native.resultsDeleteAll(subject[INTERNAL].handle));
      return;
    }
    const state = subject[INTERNAL];
    if (state && state.info) {
      if (state.ctx.realm !== this && state.ctx.realm.path !== this.path) {
        throw new Error("Can't delete an object from another Realm");
      }
      engine(() => native.objectDelete(state.handle));
      return;
    }
    if (typeof subject[Symbol.iterator] === "function") {
      for (const object of Array.from(subject)) this.delete(object);
      return;
    }
    throw new errors.TypeAssertionError("a Realm.Object, a collection of them or an array", subject, "'subject'");
  }

  deleteAll() {
    this.#checkOpen();
    if (!this.isInTransaction) throw new Error("Can only delete objects within a transaction.");
    for (const info of this[INTERNAL].ctx.classes.values()) {
      if (info.embedded) continue;
      engine(() => native.resultsDeleteAll(native.query(this[INTERNAL].db, info.name, null, null)));
    }
  }

  objects(type) {
    this.#checkOpen();
    const ctx = this[INTERNAL].ctx;
    const info = ctx.info(type);
    if (info.embedded) throw new Error("You cannot query an embedded object.");
    if (info.asymmetric) throw new Error("You cannot query an asymmetric object.");
    return ctx.results(engine(() => native.query(this[INTERNAL].db, info.name, null, null)), info.name);
  }

  objectForPrimaryKey(type, primaryKey) {
    this.#checkOpen();
    const ctx = this[INTERNAL].ctx;
    const info = ctx.info(type);
    if (info.primaryKey === undefined) throw new Error(`Expected a primary key on '${info.name}'`);
    const handle = engine(() => native.findObject(this[INTERNAL].db, info.name, toTyped(primaryKey)));
    return ctx.wrap(handle, info.name);
  }

  _objectForObjectKey(type, key) {
    this.#checkOpen();
    const ctx = this[INTERNAL].ctx;
    const info = ctx.info(type);
    try {
      return ctx.wrap(native.findByKey(this[INTERNAL].db, info.name, Number(key)), info.name);
    } catch {
      return undefined;
    }
  }

  // "change" listeners run at the end of each commit made through this realm.
  addListener(event, callback) {
    this.#checkOpen();
    const listeners = this[INTERNAL].listeners[event];
    if (!listeners) throw new Error(`Unknown event name '${event}': only 'change', 'schema' and 'beforenotify' are supported.`);
    if (typeof callback !== "function") throw new errors.TypeAssertionError("a function", callback, "'callback'");
    if (event === "change" && !listeners.has(callback)) this[INTERNAL].ctx.watch();
    listeners.add(callback);
  }

  removeListener(event, callback) {
    const listeners = this[INTERNAL].listeners[event];
    if (event === "change" && listeners?.has(callback)) this[INTERNAL].ctx.unwatch();
    listeners?.delete(callback);
  }

  removeAllListeners(event) {
    const all = this[INTERNAL].listeners;
    for (const name of event === undefined ? Object.keys(all) : [event]) {
      for (const callback of [...(all[name] ?? [])]) this.removeListener(name, callback);
    }
  }

  // Realm JS's writeCopyTo({ path, encryptionKey }): the committed state to a new file (which must
  // not exist), encrypted with the key or plain, whatever this realm's file is (docs/encryption.md).
  writeCopyTo(config) {
    this.#checkOpen();
    if (typeof config !== "object" || config === null) {
      throw new errors.TypeAssertionError("an object", config, "'config'");
    }
    if (config.sync !== undefined) throw new Error("Sync is not supported by drumlin: remove 'sync' from the configuration.");
    if (this.isInTransaction) throw new Error("Can only convert Realms outside a transaction.");
    if (config.path === undefined) throw new errors.TypeAssertionError("a string", config.path, "'path'");
    const file = resolvePath(config);
    const encryptionKey = keyBytes(config.encryptionKey);
    try {
      engine(() => native.writeCopy(this[INTERNAL].db, file, encryptionKey ?? null));
    } finally {
      encryptionKey?.fill(0);
    }
  }

  compact() {
    this.#checkOpen();
    if (this.isInTransaction) throw new Error("Cannot compact a Realm within a transaction.");
    engine(() => native.compact(this[INTERNAL].db));
    return true;
  }
}

module.exports = { Realm, Context, UPDATE_MODES };
