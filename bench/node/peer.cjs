"use strict";
// Loads Debian's node-sqlite3 (`sqlite3` 5.x), the peer of bench/node/bench.mjs.
// - Installed with apt on a Debian Node: found under /usr/lib/x86_64-linux-gnu/nodejs (or
//   /usr/share/nodejs) and required as it is.
// - Unpacked by `make deps-bench-node` (a Node from elsewhere, e.g. nodesource's, which Debian's
//   package cannot be installed beside): NODE_SQLITE3_ROOT names the unpacked .deb. Its addon is
//   an N-API module and loads as it is; only its lookup of the addon file goes through
//   @mapbox/node-pre-gyp, which is not unpacked, so the addon is put in require's cache under the
//   name sqlite3.js asks for. The Makefile target sets LD_LIBRARY_PATH for its libnode stub.
const path = require("node:path");
const fs = require("node:fs");

function load() {
  const root = process.env.NODE_SQLITE3_ROOT;
  if (!root) {
    return require(require.resolve("sqlite3", { paths: ["/usr/lib/x86_64-linux-gnu/nodejs", "/usr/share/nodejs", ...module.paths] }));
  }
  const pkg = path.join(root, "usr/lib/x86_64-linux-gnu/nodejs/sqlite3");
  const bindings = path.join(pkg, "lib/binding");
  const addon = fs.readdirSync(bindings).sort().reverse().map((dir) => path.join(bindings, dir, "node_sqlite3.node")).find((file) => fs.existsSync(file));
  if (!addon) throw new Error(`no node_sqlite3.node under ${bindings}`);
  const shim = path.join(pkg, "lib/sqlite3-binding.js");
  const Module = require("node:module");
  const entry = new Module(shim, module);
  entry.filename = shim;
  entry.loaded = true;
  entry.exports = require(addon);
  require.cache[shim] = entry;
  return require(path.join(pkg, "lib/sqlite3.js"));
}

module.exports = load();
