"use strict";
// The values a program gives create(), a property write or a collection as the engine's JSON,
// shaped by the schema: only the class's properties are taken (as Realm JS does), a plain object
// where an object goes is a new object of the property's class (its `default` functions called),
// a managed object is a link ({"$link"}), a managed embedded object is copied.

const { toExt, COUNTER } = require("./values");

function isPlainObject(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  if (value instanceof Date || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  return typeof value._bsontype !== "string";
}

function objectElement(ctx, className, value, isManaged) {
  if (value === null || value === undefined) return null;
  if (isPlainObject(value) && !isManaged(value)) return serializeObject(ctx, className, value, true);
  return toExt(value);
}

// One property's value; `isManaged(value)` says whether a value is a managed object or collection.
function serializeValue(ctx, property, value, isManaged) {
  if (value === undefined || value === null) return null;
  // A Counter read from another object gives its number to an int (or counter) property.
  if (value[COUNTER] && property.type === "int") return value.value;
  const target = property.objectType;
  const isObjects = target !== undefined && ctx.classes.has(target);
  if (!isObjects) return toExt(value);
  switch (property.type) {
    case "object":
      return objectElement(ctx, target, value, isManaged);
    case "list":
    case "set":
      if (typeof value[Symbol.iterator] !== "function" || typeof value === "string") return toExt(value);
      return Array.from(value, (item) => objectElement(ctx, target, item, isManaged));
    case "dictionary": {
      if (typeof value !== "object") return toExt(value);
      const out = {};
      const entries = typeof value.entries === "function" && !isPlainObject(value) ? value.entries() : Object.entries(value);
      for (const [key, item] of entries) out[key] = objectElement(ctx, target, item, isManaged);
      return out;
    }
    default:
      return toExt(value);
  }
}

// A new or updated object's values: the class's properties present in `values`, and, when the
// object is new, its function defaults for those absent.
function serializeObject(ctx, className, values, applyDefaults, isManaged = ctx.isManaged) {
  const info = ctx.classes.get(className);
  const out = {};
  for (const property of info.properties) {
    if (property.type === "linkingObjects") continue;
    let value = values[property.name];
    if (value === undefined && applyDefaults) {
      const fn = info.functionDefaults.get(property.name);
      if (fn) value = fn();
    }
    if (value !== undefined) out[property.name] = serializeValue(ctx, property, value, isManaged);
  }
  return out;
}

module.exports = { serializeObject, serializeValue, isPlainObject };
