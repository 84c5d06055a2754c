"use strict";
// Realm.BSON: ObjectId, UUID and Decimal128 with the API of the `bson` package (v4) that realm-js
// re-exports. Each keeps its bytes in one field (`buffer`), so equal values compare equal with
// deep-equal. The engine takes and returns the same bytes (the addon's factories build these).

const crypto = require("node:crypto");

const HEX = /^[0-9a-fA-F]*$/;

function hexOf(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? `an instance of ${value.constructor?.name ?? "Object"}` : `a ${typeof value}`;
}

class BSONTypeError extends TypeError {
  get name() {
    return "BSONTypeError";
  }
}

let objectIdCounter = crypto.randomInt(0xffffff);
const processUnique = crypto.randomBytes(5);

class ObjectId {
  // new ObjectId(), new ObjectId(hex24), new ObjectId(12 bytes), new ObjectId(seconds),
  // new ObjectId(otherObjectId)
  constructor(input) {
    let bytes;
    if (input === undefined || input === null || typeof input === "number") {
      bytes = ObjectId.generate(typeof input === "number" ? input : undefined);
    } else if (input instanceof ObjectId) {
      bytes = Buffer.from(input.buffer);
    } else if (typeof input === "string") {
      if (input.length !== 24 || !HEX.test(input)) {
        throw new BSONTypeError(
          "Argument passed in must be a string of 12 bytes or a string of 24 hex characters or an integer",
        );
      }
      bytes = Buffer.from(input, "hex");
    } else if (ArrayBuffer.isView(input) && input.byteLength === 12) {
      bytes = Buffer.from(input.buffer.slice(input.byteOffset, input.byteOffset + 12));
    } else if (input && typeof input.toHexString === "function") {
      bytes = Buffer.from(input.toHexString(), "hex");
    } else {
      throw new BSONTypeError(
        "Argument passed in does not match the accepted types: got " + describe(input),
      );
    }
    Object.defineProperty(this, "buffer", { value: bytes, enumerable: true });
  }

  static generate(time) {
    const bytes = Buffer.alloc(12);
    bytes.writeUInt32BE((time ?? Math.floor(Date.now() / 1000)) >>> 0, 0);
    processUnique.copy(bytes, 4);
    objectIdCounter = (objectIdCounter + 1) % 0xffffff;
    bytes[9] = (objectIdCounter >> 16) & 0xff;
    bytes[10] = (objectIdCounter >> 8) & 0xff;
    bytes[11] = objectIdCounter & 0xff;
    return bytes;
  }

  static createFromHexString(hex) {
    return new ObjectId(hex);
  }

  static createFromTime(seconds) {
    const bytes = Buffer.alloc(12);
    bytes.writeUInt32BE(seconds >>> 0, 0);
    return new ObjectId(bytes);
  }

  static isValid(value) {
    if (value === null || value === undefined) return false;
    try {
      new ObjectId(value);
      return true;
    } catch {
      return false;
    }
  }

  get id() {
    return this.buffer;
  }

  get generationTime() {
    return this.buffer.readUInt32BE(0);
  }

  toHexString() {
    return hexOf(this.buffer);
  }

  toString() {
    return this.toHexString();
  }

  toJSON() {
    return this.toHexString();
  }

  equals(other) {
    if (other === null || other === undefined) return false;
    if (other instanceof ObjectId) return this.buffer.equals(other.buffer);
    if (typeof other === "string") return other.toLowerCase() === this.toHexString();
    if (typeof other.toHexString === "function") return other.toHexString() === this.toHexString();
    return false;
  }

  getTimestamp() {
    return new Date(this.generationTime * 1000);
  }

  inspect() {
    return `new ObjectId("${this.toHexString()}")`;
  }

  [Symbol.for("nodejs.util.inspect.custom")]() {
    return this.inspect();
  }
}
Object.defineProperty(ObjectId.prototype, "_bsontype", { value: "ObjectID" });

const UUID_TEXT = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

class UUID {
  // new UUID(), new UUID(hex with or without dashes), new UUID(16 bytes), new UUID(otherUuid)
  constructor(input) {
    let bytes;
    if (input === undefined || input === null) {
      bytes = UUID.generate();
    } else if (input instanceof UUID) {
      bytes = Buffer.from(input.buffer);
    } else if (typeof input === "string") {
      if (!UUID_TEXT.test(input)) {
        throw new BSONTypeError(
          "UUID string representations must be a 32 or 36 character hex string (dashes excluded/included). Format: \"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\" or \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\".",
        );
      }
      bytes = Buffer.from(input.replace(/-/g, ""), "hex");
    } else if (ArrayBuffer.isView(input) && input.byteLength === 16) {
      bytes = Buffer.from(input.buffer.slice(input.byteOffset, input.byteOffset + 16));
    } else {
      throw new BSONTypeError(
        "Argument passed in UUID constructor must be a UUID, a 16 byte Buffer or a 32/36 character hex string (dashes excluded/included, format: xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx).",
      );
    }
    Object.defineProperty(this, "buffer", { value: bytes, enumerable: true });
  }

  static generate() {
    const bytes = crypto.randomBytes(16);
    bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
    return bytes;
  }

  static createFromHexString(hex) {
    return new UUID(hex);
  }

  static isValid(value) {
    if (value instanceof UUID) return true;
    if (typeof value === "string") return UUID_TEXT.test(value);
    return ArrayBuffer.isView(value) && value.byteLength === 16;
  }

  get id() {
    return this.buffer;
  }

  toHexString(includeDashes = true) {
    const hex = hexOf(this.buffer);
    if (!includeDashes) return hex;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  toString(encoding) {
    return encoding ? this.buffer.toString(encoding) : this.toHexString();
  }

  toJSON() {
    return this.toHexString();
  }

  toBinary() {
    return this.buffer;
  }

  equals(other) {
    if (!other) return false;
    if (other instanceof UUID) return this.buffer.equals(other.buffer);
    try {
      return new UUID(other).buffer.equals(this.buffer);
    } catch {
      return false;
    }
  }

  inspect() {
    return `new UUID("${this.toHexString()}")`;
  }

  [Symbol.for("nodejs.util.inspect.custom")]() {
    return this.inspect();
  }
}
Object.defineProperty(UUID.prototype, "_bsontype", { value: "UUID" });

// IEEE 754-2008 decimal128, binary integer decimal (BID) encoding, as the engine stores it: 16
// bytes, little-endian. The text forms follow the bson package's toString (its canonical
// representation of the General Decimal Arithmetic spec).
const EXPONENT_BIAS = 6176;
const EXPONENT_MAX = 6111;
const EXPONENT_MIN = -6176;
const MAX_COEFFICIENT = 10n ** 34n - 1n;

function decimalBytes(negative, coefficient, exponent) {
  let high = (BigInt(exponent + EXPONENT_BIAS) << 49n) | (coefficient >> 64n);
  if (negative) high |= 1n << 63n;
  const low = coefficient & 0xffffffffffffffffn;
  const bytes = Buffer.alloc(16);
  bytes.writeBigUInt64LE(low, 0);
  bytes.writeBigUInt64LE(high, 8);
  return bytes;
}

function specialBytes(kind, negative) {
  const bytes = Buffer.alloc(16);
  bytes[15] = (negative ? 0x80 : 0) | (kind === "nan" ? 0x7c : 0x78);
  return bytes;
}

function parseDecimal(text) {
  const trimmed = String(text).trim();
  const special = /^([+-])?(inf|infinity|nan)$/i.exec(trimmed);
  if (special) {
    const nan = special[2].toLowerCase() === "nan";
    return specialBytes(nan ? "nan" : "inf", !nan && special[1] === "-");
  }
  const match = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(trimmed);
  if (!match || (match[2] === "" && (match[3] === undefined || match[3] === ""))) {
    throw new BSONTypeError(`${JSON.stringify(String(text))} is not a valid Decimal128 string`);
  }
  const negative = match[1] === "-";
  let digits = (match[2] + (match[3] ?? "")).replace(/^0+(?=\d)/, "");
  let exponent = Number(match[4] ?? 0) - (match[3] ?? "").length;
  // Drop trailing zeros only when needed to fit 34 digits or the exponent range (exactly).
  while (digits.length > 34 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    exponent += 1;
  }
  while (exponent > EXPONENT_MAX && digits.length < 34 && digits !== "0") {
    digits += "0";
    exponent -= 1;
  }
  if (digits === "0" || /^0+$/.test(digits)) {
    digits = "0";
    exponent = Math.min(Math.max(exponent, EXPONENT_MIN), EXPONENT_MAX);
  }
  const coefficient = BigInt(digits);
  if (coefficient > MAX_COEFFICIENT || exponent > EXPONENT_MAX || exponent < EXPONENT_MIN) {
    throw new BSONTypeError(`${JSON.stringify(String(text))} is not a valid Decimal128 string (out of range)`);
  }
  return decimalBytes(negative, coefficient, exponent);
}

function formatDecimal(bytes) {
  const low = bytes.readBigUInt64LE(0);
  const high = bytes.readBigUInt64LE(8);
  const negative = (high >> 63n) === 1n;
  const combination = Number((high >> 58n) & 0x1fn);
  if (combination === 0x1f) return "NaN";
  if (combination === 0x1e) return negative ? "-Infinity" : "Infinity";
  let exponent;
  let coefficient;
  if ((high >> 61n & 0x3n) === 0x3n) {
    // The 11 form: the coefficient would exceed 34 digits, so it is non-canonical zero.
    exponent = Number((high >> 47n) & 0x3fffn) - EXPONENT_BIAS;
    coefficient = 0n;
  } else {
    exponent = Number((high >> 49n) & 0x3fffn) - EXPONENT_BIAS;
    coefficient = ((high & 0x1ffffffffffffn) << 64n) | low;
    if (coefficient > MAX_COEFFICIENT) coefficient = 0n;
  }
  const digits = coefficient.toString();
  const adjusted = digits.length - 1 + exponent;
  let text;
  if (exponent > 0 || adjusted < -6) {
    text = digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "E" + (adjusted >= 0 ? "+" : "") + adjusted;
  } else if (exponent === 0) {
    text = digits;
  } else {
    const point = digits.length + exponent;
    text = point > 0 ? digits.slice(0, point) + "." + digits.slice(point) : "0." + "0".repeat(-point) + digits;
  }
  return (negative ? "-" : "") + text;
}

class Decimal128 {
  // new Decimal128(text) or new Decimal128(16 bytes); Decimal128.fromString(text)
  constructor(input) {
    let bytes;
    if (typeof input === "string") bytes = parseDecimal(input);
    else if (ArrayBuffer.isView(input) && input.byteLength === 16) {
      bytes = Buffer.from(input.buffer.slice(input.byteOffset, input.byteOffset + 16));
    } else if (input instanceof Decimal128) bytes = Buffer.from(input.bytes);
    else throw new BSONTypeError("Decimal128 must take a Buffer of 16 bytes");
    Object.defineProperty(this, "bytes", { value: bytes, enumerable: true });
  }

  static fromString(text) {
    return new Decimal128(parseDecimal(text));
  }

  toString() {
    return formatDecimal(this.bytes);
  }

  toJSON() {
    return { $numberDecimal: this.toString() };
  }

  equals(other) {
    return other instanceof Decimal128 && this.bytes.equals(other.bytes);
  }

  inspect() {
    return `new Decimal128("${this.toString()}")`;
  }

  [Symbol.for("nodejs.util.inspect.custom")]() {
    return this.inspect();
  }
}
Object.defineProperty(Decimal128.prototype, "_bsontype", { value: "Decimal128" });

module.exports = { ObjectId, ObjectID: ObjectId, UUID, Decimal128, BSONTypeError };
