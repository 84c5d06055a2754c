"use strict";
// Realm JS's error classes, and the translation of an engine failure (an Error the addon threw
// with `code` = the status name) into the class and message Realm JS raises.

class AssertionError extends Error {
  constructor(message = "Assertion failed!") {
    super(message);
  }
}
Object.defineProperty(AssertionError.prototype, "name", { value: "AssertionError" });

class TypeAssertionError extends AssertionError {
  static deriveType(value) {
    if (value === undefined) return "undefined";
    if (value === null) return "null";
    if (typeof value === "number") {
      if (Number.isNaN(value)) return "NaN";
      return Number.isInteger(value) ? "a number" : "a decimal number";
    }
    if (typeof value === "bigint") return "a bigint";
    if (typeof value === "string") return "a string";
    if (typeof value === "boolean") return "a boolean";
    if (typeof value === "function") return "a function";
    if (Array.isArray(value)) return "an array";
    if (typeof value === "object") {
      const name = Object.getPrototypeOf(value)?.constructor?.name;
      return name && name !== "Object" ? `an instance of ${name}` : "an object";
    }
    return typeof value;
  }

  constructor(expected, value, target) {
    const actual = TypeAssertionError.deriveType(value);
    super(target ? `Expected ${target} to be ${expected}, got ${actual}` : `Expected ${expected}, got ${actual}`);
  }
}
Object.defineProperty(TypeAssertionError.prototype, "name", { value: "TypeAssertionError" });

class IllegalConstructorError extends Error {
  constructor(type) {
    super(`Illegal constructor: ${type} objects are read from managed objects only.`);
  }
}
Object.defineProperty(IllegalConstructorError.prototype, "name", { value: "IllegalConstructorError" });

class SchemaParseError extends Error {}
Object.defineProperty(SchemaParseError.prototype, "name", { value: "SchemaParseError" });

class ObjectSchemaParseError extends SchemaParseError {
  constructor(message, objectName) {
    super(`Invalid schema for object '${objectName}': ${message}`);
    this.objectName = objectName;
  }
}
Object.defineProperty(ObjectSchemaParseError.prototype, "name", { value: "ObjectSchemaParseError" });

class PropertySchemaParseError extends SchemaParseError {
  constructor(message, objectName, propertyName) {
    super(`Invalid type declaration for property '${propertyName}' on '${objectName}': ${message}`);
    this.objectName = objectName;
    this.propertyName = propertyName;
  }
}
Object.defineProperty(PropertySchemaParseError.prototype, "name", { value: "PropertySchemaParseError" });

class TimeoutError extends Error {}
Object.defineProperty(TimeoutError.prototype, "name", { value: "TimeoutError" });

const CLOSED = "Cannot access realm that has been closed.";
const OUTSIDE_WRITE = "Cannot modify managed objects outside of a write transaction.";
const INVALIDATED = "Accessing object which has been invalidated or deleted";

// The engine's messages already follow Realm's wording; a few statuses map to a JS class.
function translate(error) {
  if (!error || typeof error.code !== "string" || !error.code.startsWith("DRUMLIN_")) return error;
  let translated;
  switch (error.code) {
    case "DRUMLIN_ERR_SCHEMA":
      translated = new SchemaParseError(error.message);
      break;
    case "DRUMLIN_ERR_INVALIDATED_OBJECT":
      translated = new Error(INVALIDATED);
      break;
    case "DRUMLIN_ERR_TYPE_MISMATCH":
    case "DRUMLIN_ERR_NOT_NULLABLE":
      translated = new TypeError(error.message);
      break;
    default:
      translated = new Error(error.message);
  }
  translated.code = error.code;
  return translated;
}

// Calls `fn` and rethrows an engine failure as Realm JS's error.
function engine(fn) {
  try {
    return fn();
  } catch (error) {
    throw translate(error);
  }
}

module.exports = {
  AssertionError,
  TypeAssertionError,
  IllegalConstructorError,
  SchemaParseError,
  ObjectSchemaParseError,
  PropertySchemaParseError,
  TimeoutError,
  CLOSED,
  OUTSIDE_WRITE,
  INVALIDATED,
  translate,
  engine,
};
