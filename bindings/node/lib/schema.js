"use strict";
// The schema a program passes (classes with `static schema`, or plain object schemas) as the JSON
// the engine takes, and the engine's normalized schema as Realm JS's canonical form. The engine
// parses, normalizes and validates; only what JSON cannot carry stays here: the classes
// themselves, and `default` functions (called once per new object, in create).

const { toExt } = require("./values");
const { ObjectSchemaParseError, SchemaParseError } = require("./errors");

// config.schema -> { json, classes: Map name -> { ctor, functionDefaults: Map prop -> fn } }
function prepare(schema, RealmObject) {
  if (!Array.isArray(schema)) throw new SchemaParseError("Expected 'schema' to be an array of object schemas or classes");
  const out = [];
  const classes = new Map();
  for (const entry of schema) {
    let ctor;
    let objectSchema = entry;
    if (typeof entry === "function") {
      ctor = entry;
      objectSchema = entry.schema;
      if (!(entry.prototype instanceof RealmObject)) {
        throw new SchemaParseError(`Class '${entry.name}' must extend Realm.Object`);
      }
      if (!objectSchema || typeof objectSchema !== "object") {
        throw new SchemaParseError(`Class '${entry.name}' must have a static 'schema' property`);
      }
    }
    if (!objectSchema || typeof objectSchema !== "object" || Array.isArray(objectSchema)) {
      throw new SchemaParseError("Expected each schema entry to be an object schema or a class extending Realm.Object");
    }
    const name = objectSchema.name ?? ctor?.name;
    if (typeof name !== "string") throw new SchemaParseError("Expected 'name' on an object schema to be a string");
    const properties = objectSchema.properties;
    if (!properties || typeof properties !== "object") {
      throw new ObjectSchemaParseError("Expected 'properties' to be an object", name);
    }
    const functionDefaults = new Map();
    const jsonProperties = {};
    for (const [propertyName, property] of Object.entries(properties)) {
      if (property && typeof property === "object" && "default" in property) {
        const { default: value, ...rest } = property;
        if (typeof value === "function") {
          functionDefaults.set(propertyName, value);
          jsonProperties[propertyName] = rest;
        } else {
          jsonProperties[propertyName] = { ...rest, default: toExt(value) };
        }
      } else {
        jsonProperties[propertyName] = property;
      }
    }
    const json = { ...objectSchema, name, properties: jsonProperties };
    if (ctor) {
      if (ctor.primaryKey !== undefined && json.primaryKey === undefined) json.primaryKey = ctor.primaryKey;
      if (ctor.embedded !== undefined && json.embedded === undefined) json.embedded = ctor.embedded;
      if (ctor.asymmetric !== undefined && json.asymmetric === undefined) json.asymmetric = ctor.asymmetric;
    }
    out.push(json);
    classes.set(name, { ctor, functionDefaults });
  }
  return { json: JSON.stringify(out), classes };
}

// The engine's normalized schema (drumlin_schema_json) -> per-class info used by accessors.
function describe(normalizedJson, prepared) {
  const classes = new Map();
  for (const objectSchema of JSON.parse(normalizedJson)) {
    const extra = prepared?.get(objectSchema.name);
    const properties = Object.entries(objectSchema.properties).map(([name, property]) => ({ name, ...property }));
    classes.set(objectSchema.name, {
      name: objectSchema.name,
      embedded: objectSchema.embedded,
      asymmetric: objectSchema.asymmetric,
      primaryKey: objectSchema.primaryKey,
      properties,
      byName: new Map(properties.map((property) => [property.name, property])),
      names: properties.filter((p) => p.type !== "linkingObjects").map((p) => p.name),
      ctor: extra?.ctor,
      functionDefaults: extra?.functionDefaults ?? new Map(),
      normalized: objectSchema,
    });
  }
  return classes;
}

// Realm JS's CanonicalObjectSchema for realm.schema (a fresh copy on every read).
function canonical(info) {
  const properties = {};
  for (const property of info.properties) {
    const out = {
      name: property.name,
      type: property.type,
      optional: property.optional,
      indexed: property.indexed,
      mapTo: property.mapTo,
    };
    if (property.objectType !== undefined) out.objectType = property.objectType;
    if (property.property !== undefined) out.property = property.property;
    if (property.presentation !== undefined) out.presentation = property.presentation;
    const fn = info.functionDefaults.get(property.name);
    if (fn) out.default = fn;
    else if (property.default !== undefined) out.default = property.default;
    properties[property.name] = out;
  }
  const result = {
    name: info.name,
    properties,
    embedded: info.embedded,
    asymmetric: info.asymmetric,
  };
  if (info.ctor) result.ctor = info.ctor;
  if (info.primaryKey !== undefined) result.primaryKey = info.primaryKey;
  return result;
}

module.exports = { prepare, describe, canonical };
