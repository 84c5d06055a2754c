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
    if (typeof value === "object") {
      if (value === null) return "null";
      const name = value.constructor?.name;
      if (name === "Object") return "an object";
      if (name === "Array") return "an array";
      return "an instance of " + name;
    }
    if (typeof value === "undefined") return "undefined";
    if (typeof value === "function") return `a function or class named ${value.name}`;
    if (typeof value === "number") {
      if (Number.isNaN(value)) return "NaN";
      return Number.isInteger(value) ? "a number" : "a decimal number";
    }
    return "a " + typeof value;
  }

  // "Expected <target> to be <expected>, got <actual>"; the target is quoted unless it has quotes.
  static message(expected, value, target) {
    const quoted = target ? (target.includes("'") ? target : `'${target}'`) : "value";
    return `Expected ${quoted} to be ${expected}, got ${TypeAssertionError.deriveType(value)}`;
  }

  constructor(expected, value, target) {
    super(TypeAssertionError.message(expected, value, target));
    Object.defineProperty(this, "expected", { value: expected });
    Object.defineProperty(this, "value", { value });
  }

  rename(name) {
    this.message = TypeAssertionError.message(this.expected, this.value, name);
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
    case "DRUMLIN_ERR_MISSING_VALUE":
      // The engine names 'Class.property'; Realm JS the property alone.
      translated = new Error(error.message.replace(/property '[^'.]+\.([^']+)'/, "property '$1'"));
      break;
    case "DRUMLIN_ERR_NO_SUCH_PROPERTY": {
      const match = /^Property '([^'.]+)\.([^']+)' does not exist\.?$/.exec(error.message);
      translated = new Error(match ? `Property '${match[2]}' does not exist on '${match[1]}' objects` : error.message);
      break;
    }
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

// What Realm JS expects for a property of `type` ("Expected value to be <this>, got ...").
const EXPECTED = {
  bool: "a boolean",
  int: "a number or bigint",
  float: "a number",
  double: "a number",
  string: "a string",
  date: "an instance of Date",
  data: "an instance of ArrayBuffer",
  objectId: "an instance of ObjectId",
  uuid: "an instance of UUID",
  decimal128: "an instance of Decimal128",
};

// The engine found `value` of the wrong type for `property`: Realm JS's TypeAssertionError.
function typeMismatch(error, property, value) {
  if (error?.code !== "DRUMLIN_ERR_TYPE_MISMATCH" || !property) return error;
  const expected = EXPECTED[property.type];
  if (!expected || value === null || value === undefined) return error;
  const translated = new TypeAssertionError(expected, value);
  translated.code = error.code;
  return translated;
}

module.exports = {
  typeMismatch,
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
