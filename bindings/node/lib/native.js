"use strict";
// Loads the addon (build/drumlin.node, linked against the libdrumlin.so beside it; see
// docs/javascript.md for how the library is found) and registers the constructors it uses for the
// values it returns. DRUMLIN_NODE_ADDON names another build of the addon.

const path = require("node:path");
const { ObjectId, UUID, Decimal128 } = require("./bson");
const { LinkRef } = require("./values");

const file = process.env.DRUMLIN_NODE_ADDON || path.join(__dirname, "..", "build", "drumlin.node");
let native;
try {
  native = require(file);
} catch (error) {
  throw new Error(
    `drumlin: cannot load the Node addon ${file}: ${error.message}. Build it with \`make node\` in the repository.`,
  );
}

native.setFactories(
  (bytes) => new ObjectId(bytes),
  (bytes) => new UUID(bytes),
  (bytes) => new Decimal128(bytes),
  (classIndex, key) => new LinkRef(classIndex, key),
);

// Internal state of objects, collections and realms, kept off their enumerable keys.
const INTERNAL = Symbol("drumlin.internal");
// Passed by the package to the constructors user code must not call.
const CONSTRUCT = Symbol("drumlin.construct");

// Gives `target` its internal state: not enumerable, so spread and Object.keys never see it.
function attach(target, state) {
  Object.defineProperty(target, INTERNAL, { value: state, writable: true, configurable: true, enumerable: false });
}

module.exports = { native, INTERNAL, CONSTRUCT, attach };
