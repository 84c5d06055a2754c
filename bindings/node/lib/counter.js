"use strict";
// Realm.Counter: what reading a `"counter"` property (an int with presentation "counter" in the
// engine's schema) gives. The engine stores the int; a Counter names one property of one object
// and reads and writes it through the object's handle. Realm JS 12.10+ semantics: `value` is
// read-only, `increment`/`decrement`/`set` need a write transaction and an integer.

const { native, INTERNAL, CONSTRUCT } = require("./native");
const { COUNTER, COUNTER_AS_MIXED } = require("./values");
const { IllegalConstructorError, TypeAssertionError, OUTSIDE_WRITE, INVALIDATED } = require("./errors");

const COUNTER_AS_ARGUMENT = "Using a Counter as a query argument is not supported. Use 'Counter.value'.";
const COUNTER_RESET =
  "You can only reset a Counter instance when initializing a previously null Counter or resetting a nullable Counter to null. To update the value of the Counter, use its instance methods.";

function integer(value, target) {
  if (typeof value !== "number") throw new TypeAssertionError("a number", value, target);
  if (!Number.isInteger(value)) throw new TypeAssertionError("an integer", value, target);
}

class Counter {
  constructor(token, owner, property) {
    if (token !== CONSTRUCT) throw new IllegalConstructorError("Counter");
    Object.defineProperty(this, INTERNAL, { value: { owner, property } });
  }

  get value() {
    const { owner, property } = this[INTERNAL];
    const state = owner[INTERNAL];
    if (state.ctx.realm.isClosed || !native.objectIsValid(state.handle)) throw new Error(INVALIDATED);
    return native.objectGet(state.handle, property.index);
  }

  set value(_) {
    throw new Error("To update the value, use the methods on the Counter.");
  }

  increment(by = 1) {
    this._write(by, "by", (current) => current + by);
  }

  decrement(by = 1) {
    this._write(by, "by", (current) => current - by);
  }

  set(value) {
    this._write(value, "value", () => value);
  }

  // Within the write transaction the read sees the latest committed value and no other writer can
  // commit before this one, so read-then-write is the engine-level add.
  _write(argument, target, next) {
    const { owner, property } = this[INTERNAL];
    const state = owner[INTERNAL];
    if (state.ctx.realm.isClosed) throw new Error(INVALIDATED);
    if (!state.ctx.realm.isInTransaction) throw new Error(OUTSIDE_WRITE);
    integer(argument, target);
    const current = this.value;
    const result = next(current);
    if (!Number.isSafeInteger(result)) throw new TypeAssertionError("a safe integer result", result, target);
    native.objectUpdateJson(state.handle, JSON.stringify({ [property.name]: result }));
  }

  toJSON() {
    return this.value;
  }

  [Symbol.for("nodejs.util.inspect.custom")]() {
    return `Counter(${this.value})`;
  }
}

Object.defineProperty(Counter.prototype, COUNTER, { value: true });

module.exports = { Counter, COUNTER_AS_MIXED, COUNTER_AS_ARGUMENT, COUNTER_RESET };
