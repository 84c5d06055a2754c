"use strict";
// JS values <-> Extended JSON (what the engine reads and writes for values it parses: creates,
// property writes, query arguments) and <-> the typed values of the calls that take one.
// The engine does the coercion and the checks; this only spells values in its format.

const { ObjectId, UUID, Decimal128 } = require("./bson");
const { TypeAssertionError } = require("./errors");

// Value type numbers of drumlin.h (DRUMLIN_TYPE_*), for the typed calls.
const TYPE = { LINK: 10, OBJECT_ID: 9, UUID: 11, DECIMAL128: 8, LIST: 12, DICTIONARY: 13 };

// A link read from a list, set, dictionary or mixed value: resolved by the realm that read it.
class LinkRef {
  constructor(classIndex, key) {
    this.classIndex = classIndex;
    this.key = key;
  }
}

// Marks Realm.Counter's instances (lib/counter.js), which no value position but an int takes.
const COUNTER = Symbol("drumlin.counter");
const COUNTER_AS_MIXED = "Using a Counter as a Mixed value is not supported";

// Hooks the object and collection modules fill in (they need this module first).
const hooks = {
  linkOf: () => undefined, // (value) => [className, classIndex, key] for a managed object, else undefined
  plainOf: () => undefined, // (value) => an array or plain object for a managed collection
};

function binaryOf(value) {
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return undefined;
}

// Any JS value as Extended JSON (a plain structure JSON.stringify writes).
function toExt(value) {
  if (value === undefined || value === null) return null;
  switch (typeof value) {
    case "boolean":
    case "string":
      return value;
    case "number":
      if (Number.isFinite(value)) return value;
      return { $numberDouble: Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity" };
    case "bigint":
      return Number.isSafeInteger(Number(value)) ? Number(value) : { $numberLong: value.toString() };
    case "object":
      break;
    default:
      throw new TypeAssertionError("a value a Realm can store", value);
  }
  if (value[COUNTER]) throw new Error(COUNTER_AS_MIXED);
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeAssertionError("a valid Date", value);
    return { $date: value.toISOString() };
  }
  if (value instanceof ObjectId) return { $oid: value.toHexString() };
  if (value instanceof UUID) return { $uuid: value.toHexString() };
  if (value instanceof Decimal128) return { $numberDecimal: value.toString() };
  const bytes = binaryOf(value);
  if (bytes) return { $binary: { base64: bytes.toString("base64"), subType: "00" } };
  const link = hooks.linkOf(value);
  if (link) return { $link: { class: link[0], key: link[2] } };
  const plain = hooks.plainOf(value);
  if (plain !== undefined) return toExt(plain);
  if (Array.isArray(value) || value instanceof Set) return Array.from(value, toExt);
  const out = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item !== undefined && typeof item !== "function") out[key] = toExt(item);
  }
  return out;
}

// Extended JSON the engine wrote (a mixed value's nested collections) as JS values; links go to
// `resolveLink(className, key)`.
function fromExt(value, resolveLink) {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => fromExt(item, resolveLink));
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const [key] = keys;
    const inner = value[key];
    switch (key) {
      case "$oid":
        return new ObjectId(inner);
      case "$uuid":
        return new UUID(inner);
      case "$numberDecimal":
        return Decimal128.fromString(inner);
      case "$numberDouble":
        return Number(inner);
      case "$numberLong":
        return Number(inner);
      case "$date":
        return new Date(typeof inner === "string" ? inner : Number(inner.$numberLong));
      case "$binary": {
        const bytes = Buffer.from(inner.base64, "base64");
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      }
      case "$link":
        return resolveLink(inner.class, inner.key);
    }
  }
  const out = {};
  for (const key of keys) out[key] = fromExt(value[key], resolveLink);
  return out;
}

// A JS value as the addon's typed form (primary keys, find in a list or set).
function toTyped(value) {
  if (value instanceof ObjectId) return [TYPE.OBJECT_ID, value.buffer];
  if (value instanceof UUID) return [TYPE.UUID, value.buffer];
  if (value instanceof Decimal128) return [TYPE.DECIMAL128, value.bytes];
  const link = hooks.linkOf(value);
  if (link) return [TYPE.LINK, link[1], link[2]];
  return value;
}

module.exports = { TYPE, LinkRef, hooks, toExt, fromExt, toTyped, binaryOf, COUNTER, COUNTER_AS_MIXED };
