// Type declarations of the drumlin Node package: Realm JS's (v12) API for local realms.
// Shape: `declare class Realm` + `declare namespace Realm` + `export = Realm`, so that
// `import Realm, { BSON, ObjectSchema } from "drumlin"` and `const Realm = require("drumlin")` both work.


type DefaultObject = Record<string, unknown>;
type AnyFunction = (...args: any[]) => any;

// The keys of T that are data: not methods, not Realm.Object's own members.
type DataKeys<T> = {
  [K in keyof T]: T[K] extends AnyFunction ? never : K extends keyof RealmObject<any, any> ? never : K;
}[keyof T];
type OmittedRealmTypes<T> = Pick<T, DataKeys<T>>;

// What a property accepts when creating (Realm JS's Unmanaged): lists and sets as arrays of
// objects or their values, dictionaries as plain objects, counters as numbers; a to-one link keeps
// its class's type (an object literal there goes through the untyped `create("Class", ...)`).
type UnmanagedValue<V> = V extends Realm.List<infer E>
  ? Array<E | Realm.Unmanaged<E>>
  : V extends Realm.Set<infer E>
  ? Array<E | Realm.Unmanaged<E>>
  : V extends Realm.Dictionary<infer E>
  ? { [key: string]: E }
  : V extends Realm.Counter
  ? number
  : V;

type RealmObject<T = DefaultObject, R extends keyof OmittedRealmTypes<T> = never> = Realm.Object<T, R>;

declare class Realm {
  static defaultPath: string;
  static open(config?: Realm.Configuration | string): Realm.ProgressRealmPromise;
  static exists(config?: Realm.Configuration | string): boolean;
  static deleteFile(config?: Realm.Configuration | string): void;
  static schemaVersion(path: string): number;
  static copyBundledRealmFiles(): never;
  static createTemplateObject<T extends Record<string, unknown>>(objectSchema: Realm.ObjectSchema): T;
  static shutdown(): void;

  constructor(config?: Realm.Configuration | string);

  readonly isClosed: boolean;
  readonly isEmpty: boolean;
  readonly isReadOnly: boolean;
  readonly isInMemory: boolean;
  readonly isInMigration: boolean;
  readonly isInTransaction: boolean;
  readonly path: string;
  readonly schema: Realm.CanonicalObjectSchema[];
  readonly schemaVersion: number;

  close(): void;
  write<T>(callback: () => T): T;
  beginTransaction(): void;
  commitTransaction(): void;
  cancelTransaction(): void;

  create<T = DefaultObject>(type: string, values: Partial<T> | Realm.Unmanaged<T>, mode?: Realm.UpdateMode | boolean): RealmObject<T> & T;
  create<T extends RealmObject<any, any>>(type: Realm.RealmObjectConstructor<T>, values: Partial<T> | Realm.Unmanaged<T>, mode?: Realm.UpdateMode | boolean): T;
  delete(subject: RealmObject<any, any> | RealmObject<any, any>[] | Realm.List<any> | Realm.Results<any> | Iterable<RealmObject<any, any>> | null | undefined): void;
  deleteAll(): void;
  objects<T = DefaultObject>(type: string): Realm.Results<RealmObject<T> & T>;
  objects<T extends RealmObject<any, any>>(type: Realm.RealmObjectConstructor<T>): Realm.Results<T>;
  objectForPrimaryKey<T = DefaultObject>(type: string, primaryKey: Realm.PrimaryKey): (RealmObject<T> & T) | null;
  objectForPrimaryKey<T extends RealmObject<any, any>>(type: Realm.RealmObjectConstructor<T>, primaryKey: Realm.PrimaryKey): T | null;
  _objectForObjectKey<T = DefaultObject>(type: string | Realm.RealmObjectConstructor<any>, objectKey: string): (RealmObject<T> & T) | undefined;
  addListener(event: Realm.RealmEventName, callback: Realm.RealmListenerCallback): void;
  removeListener(event: Realm.RealmEventName, callback: Realm.RealmListenerCallback): void;
  removeAllListeners(event?: Realm.RealmEventName): void;
  compact(): boolean;
  /** The committed state to a new file (which must not exist), encrypted with `encryptionKey` or plain. */
  writeCopyTo(config: { path: string; encryptionKey?: ArrayBuffer | ArrayBufferView }): void;
}

declare namespace Realm {
  class Object<T = DefaultObject, RequiredProperties extends keyof OmittedRealmTypes<T> = never> {
    /** Same as realm.create(<this class>, values). */
    constructor(realm: Realm, values: Unmanaged<T, RequiredProperties>);
    keys(): string[];
    entries(): [string, unknown][];
    toJSON(): Record<string, unknown>;
    isValid(): boolean;
    objectSchema(): CanonicalObjectSchema<T>;
    linkingObjects<U = DefaultObject>(objectType: string, property: string): Results<RealmObject<U> & U>;
    linkingObjects<U extends RealmObject<any, any>>(objectType: RealmObjectConstructor<U>, property: string): Results<U>;
    linkingObjectsCount(): number;
    getPropertyType(propertyName: string): string;
    addListener(callback: ObjectChangeCallback<T>, keyPaths?: string | string[]): void;
    removeListener(callback: ObjectChangeCallback<T>): void;
    removeAllListeners(): void;
    _objectKey(): string;
  }

  class Collection<T = unknown, EntryType = [unknown, T], ChangeCallback = unknown> implements Iterable<T> {
    protected constructor();
    readonly realm: Realm;
    keys(): IterableIterator<unknown>;
    values(): IterableIterator<T>;
    entries(): IterableIterator<EntryType>;
    [Symbol.iterator](): IterableIterator<T>;
    isValid(): boolean;
    addListener(callback: ChangeCallback, keyPaths?: string | string[]): void;
    removeListener(callback: ChangeCallback): void;
    removeAllListeners(): void;
  }

  class OrderedCollection<T = unknown> extends Collection<T, [number, T], CollectionChangeCallback<T>> {
    readonly [index: number]: T;
    readonly length: number;
    readonly type: string;
    keys(): IterableIterator<number>;
    isEmpty(): boolean;
    toArray(): T[];
    toJSON(): unknown[];
    at(index: number): T | undefined;
    indexOf(value: T): number;
    includes(value: T): boolean;
    map<U>(callback: (value: T, index: number, array: T[]) => U): U[];
    forEach(callback: (value: T, index: number, array: T[]) => void): void;
    filter<S extends T>(predicate: (value: T, index: number, array: T[]) => value is S): S[];
    filter(predicate: (value: T, index: number, array: T[]) => unknown): T[];
    find(predicate: (value: T, index: number, array: T[]) => unknown): T | undefined;
    findIndex(predicate: (value: T, index: number, array: T[]) => unknown): number;
    some(predicate: (value: T, index: number, array: T[]) => unknown): boolean;
    every(predicate: (value: T, index: number, array: T[]) => unknown): boolean;
    reduce<U>(callback: (previous: U, current: T, index: number, array: T[]) => U, initial: U): U;
    slice(start?: number, end?: number): T[];
    join(separator?: string): string;
    filtered(query: string, ...args: unknown[]): Results<T>;
    sorted(descriptor?: string | Array<string | [string, boolean]>, reverse?: boolean): Results<T>;
    snapshot(): Results<T>;
    min(property?: string): number | Date | undefined;
    max(property?: string): number | Date | undefined;
    sum(property?: string): number;
    avg(property?: string): number | undefined;
  }

  type Unmanaged<T, RequiredProperties extends keyof OmittedRealmTypes<T> = never> = {
    [K in keyof OmittedRealmTypes<T>]?: UnmanagedValue<T[K]>;
  } & { [K in RequiredProperties]: UnmanagedValue<T[K]> };

  type Mixed = unknown;
  type PrimaryKey = number | string | BSON.ObjectId | BSON.UUID | null;
  type AnyRealmObject = RealmObject<any, any>;
  type RealmObjectConstructor<T extends AnyRealmObject = AnyRealmObject> = {
    new (...args: any): T;
    schema?: ObjectSchema;
  };

  class Results<T = unknown> extends OrderedCollection<T> {
    update(property: string, value: unknown): void;
    description(): string;
  }

  class List<T = unknown> extends OrderedCollection<T> {
    [index: number]: T;
    readonly optional: boolean;
    push(...items: Array<T | Unmanaged<T>>): number;
    pop(): T | undefined;
    shift(): T | undefined;
    unshift(...items: Array<T | Unmanaged<T>>): number;
    splice(start: number, deleteCount?: number, ...items: Array<T | Unmanaged<T>>): T[];
    set(index: number, value: T | Unmanaged<T>): void;
    remove(index: number): void;
    move(from: number, to: number): void;
    swap(index1: number, index2: number): void;
  }

  class Set<T = unknown> extends OrderedCollection<T> {
    readonly size: number;
    add(value: T): this;
    delete(value: T): boolean;
    has(value: T): boolean;
    clear(): void;
  }

  class Dictionary<T = unknown> extends Collection<T, [string, T], DictionaryChangeCallback> {
    [key: string]: any;
    readonly size: number;
    readonly type: string;
    keys(): IterableIterator<string>;
    set(elements: { [key: string]: T } | string, value?: T): this;
    remove(keys: string | string[]): this;
    clear(): void;
    toJSON(): Record<string, T>;
  }

  class Counter {
    private constructor();
    readonly value: number;
    increment(by?: number): void;
    decrement(by?: number): void;
    set(value: number): void;
  }

  type UpdateMode = "never" | "modified" | "all";
  const UpdateMode: { readonly Never: "never"; readonly Modified: "modified"; readonly All: "all" };

  type RealmEventName = "change" | "schema" | "beforenotify";
  const RealmEvent: { readonly Change: "change"; readonly Schema: "schema"; readonly BeforeNotify: "beforenotify" };
  type RealmListenerCallback = (realm: Realm, name: RealmEventName, schema?: CanonicalObjectSchema[]) => void;

  type CollectionChangeSet = {
    insertions: number[];
    deletions: number[];
    newModifications: number[];
    oldModifications: number[];
  };
  type CollectionChangeCallback<T = unknown> = (collection: OrderedCollection<T>, changes: CollectionChangeSet) => void;
  type DictionaryChangeSet = { deletions: string[]; insertions: string[]; modifications: string[] };
  type DictionaryChangeCallback = (dictionary: Dictionary, changes: DictionaryChangeSet) => void;
  type ObjectChangeSet<T = unknown> = { deleted: boolean; changedProperties: (keyof T & string)[] };
  type ObjectChangeCallback<T = unknown> = (object: RealmObject<T> & T, changes: ObjectChangeSet<T>) => void;

  type PropertyTypeName =
    | "bool" | "int" | "float" | "double" | "decimal128" | "objectId" | "string" | "data" | "date" | "mixed"
    | "uuid" | "list" | "dictionary" | "set" | "object" | "linkingObjects";
  type PropertySchemaShorthand = string;
  type IndexedType = boolean | "full-text";
  type PropertySchema = {
    type: PropertyTypeName;
    objectType?: string;
    presentation?: "counter";
    property?: string;
    optional?: boolean;
    indexed?: IndexedType;
    mapTo?: string;
    default?: unknown;
  };
  type PropertiesTypes = { [name: string]: PropertySchema | PropertySchemaShorthand };
  type ObjectSchema = {
    name: string;
    primaryKey?: string;
    embedded?: boolean;
    asymmetric?: boolean;
    properties: PropertiesTypes;
  };
  type CanonicalPropertySchema = {
    name: string;
    type: PropertyTypeName;
    optional: boolean;
    indexed: IndexedType;
    mapTo: string;
    objectType?: string;
    property?: string;
    presentation?: "counter";
    default?: unknown;
  };
  type CanonicalObjectSchema<T = DefaultObject> = {
    name: string;
    properties: Record<keyof T & string, CanonicalPropertySchema> | Record<string, CanonicalPropertySchema>;
    embedded: boolean;
    asymmetric: boolean;
    primaryKey?: string;
    ctor?: RealmObjectConstructor;
  };

  type MigrationCallback = (oldRealm: Realm, newRealm: Realm) => void;
  type BaseConfiguration = {
    path?: string;
    schema?: (RealmObjectConstructor<any> | ObjectSchema)[];
    schemaVersion?: number;
    onMigration?: MigrationCallback;
    /** Called once, in a write transaction, when the file is created (to seed it). */
    onFirstOpen?: (realm: Realm) => void;
    deleteRealmIfMigrationNeeded?: boolean;
    inMemory?: boolean;
    readOnly?: boolean;
    /** 64 bytes: the file is encrypted and authenticated with them (docs/encryption.md). */
    encryptionKey?: ArrayBuffer | ArrayBufferView;
    fifoFilesFallbackPath?: string;
    disableFormatUpgrade?: boolean;
    /** Atlas Device Sync is not supported: a config with `sync` is rejected when opened. */
    sync?: SyncConfiguration;
    excludeFromIcloudBackup?: boolean;
  };
  type Configuration = BaseConfiguration;

  // Atlas App Services (typed so Realm JS programs compile; drumlin has no server: constructing
  // an App throws, and a `sync` config is rejected).
  type SyncConfiguration = {
    user: User;
    flexible?: boolean;
    initialSubscriptions?: { update: (subs: { add(results: Results<any>): void }, realm: Realm) => void; rerunOnOpen?: boolean };
    [key: string]: unknown;
  };
  class User {
    private constructor();
    readonly id: string;
  }
  class Credentials {
    private constructor();
    static anonymous(): Credentials;
    static emailPassword(email: string, password: string): Credentials;
  }
  class App {
    constructor(config: { id: string } | string);
    readonly currentUser: User | null;
    logIn(credentials: Credentials): Promise<User>;
  }
  type ConfigurationWithoutSync = BaseConfiguration;

  interface ProgressRealmPromise extends Promise<Realm> {
    progress(callback: (transferred: number, transferable: number) => void): ProgressRealmPromise;
    cancel(): void;
  }

  type GeoPosition = [number, number] | [number, number, number];
  type CanonicalGeoPoint = { type: "Point"; coordinates: GeoPosition };
  type GeoPoint = { latitude: number; longitude: number; altitude?: number } | CanonicalGeoPoint | GeoPosition;
  type GeoCircle = { center: GeoPoint; distance: number };
  type GeoBox = { bottomLeft: GeoPoint; topRight: GeoPoint };
  type GeoPolygon = { outerRing: GeoPoint[]; holes?: GeoPoint[][] };
  function kmToRadians(km: number): number;
  function miToRadians(mi: number): number;

  namespace BSON {
    class ObjectId {
      constructor(input?: string | number | Uint8Array | ObjectId);
      readonly id: Uint8Array;
      static generate(time?: number): Uint8Array;
      static createFromHexString(hex: string): ObjectId;
      static createFromTime(seconds: number): ObjectId;
      static isValid(value: unknown): boolean;
      toHexString(): string;
      toString(): string;
      toJSON(): string;
      equals(other: ObjectId | string | null | undefined): boolean;
      getTimestamp(): Date;
    }
    class UUID {
      constructor(input?: string | Uint8Array | UUID);
      readonly id: Uint8Array;
      static generate(): Uint8Array;
      static createFromHexString(hex: string): UUID;
      static isValid(value: unknown): boolean;
      toHexString(includeDashes?: boolean): string;
      toString(encoding?: string): string;
      toJSON(): string;
      toBinary(): Uint8Array;
      equals(other: UUID | string | Uint8Array | null | undefined): boolean;
    }
    class Decimal128 {
      constructor(input: string | Uint8Array);
      static fromString(text: string): Decimal128;
      toString(): string;
      toJSON(): { $numberDecimal: string };
      equals(other: unknown): boolean;
    }
  }

  const Types: {
    Decimal128: typeof BSON.Decimal128;
    ObjectId: typeof BSON.ObjectId;
    UUID: typeof BSON.UUID;
    Date: DateConstructor;
    Data: ArrayBufferConstructor;
    List: typeof List;
    Set: typeof Set;
    Dictionary: typeof Dictionary;
    LinkingObjects: typeof Results;
    Counter: typeof Counter;
  };
  namespace Types {
    type Bool = boolean;
    type String = string;
    type Int = number;
    type Float = number;
    type Double = number;
    type Decimal128 = BSON.Decimal128;
    type ObjectId = BSON.ObjectId;
    type UUID = BSON.UUID;
    type Date = globalThis.Date;
    type Data = ArrayBuffer;
    type List<T> = Realm.List<T>;
    type Set<T> = Realm.Set<T>;
    type Dictionary<T> = Realm.Dictionary<T>;
    type Counter = Realm.Counter;
    type Mixed = unknown;
    type LinkingObjects<T, _N extends string = string> = Realm.Results<T>;
  }

  const flags: { ALLOW_VALUES_ARRAYS: boolean; THROW_ON_GLOBAL_REALM: boolean; ALLOW_CLEAR_TEST_STATE: boolean };
  function index(target: unknown, context: unknown): never;
  function mapTo(name: string): (target: unknown, context: unknown) => never;

  class AssertionError extends Error {}
  class TypeAssertionError extends AssertionError {}
  class IllegalConstructorError extends Error {}
  class SchemaParseError extends Error {}
  class ObjectSchemaParseError extends SchemaParseError {
    objectName: string;
  }
  class PropertySchemaParseError extends SchemaParseError {
    objectName: string;
    propertyName: string;
  }
  class TimeoutError extends Error {}
}

export = Realm;
