// Objects and results are released by the garbage collector: the addon's finalizers free the
// engine's handles. Run with --expose-gc (make test-node does).
import { test } from "node:test";
import assert from "node:assert/strict";
import { openRealm } from "./helpers.mjs";

const gc = globalThis.gc;

function settleHeap() {
  for (let i = 0; i < 4; i++) gc();
  return new Promise((resolve) => setImmediate(resolve)); // finalizers run after the collection
}

test("100k objects created and read leave no growth in memory", { skip: !gc && "needs --expose-gc" }, async (t) => {
  const realm = openRealm(t, { schema: [{ name: "Item", properties: { n: "int", label: "string" } }] });
  const round = () => {
    realm.write(() => {
      for (let i = 0; i < 1000; i++) realm.create("Item", { n: i, label: `item ${i}` });
    });
    const items = realm.objects("Item").filtered("n < $0", 1000);
    let total = 0;
    for (let i = 0; i < 1000; i++) total += items[i].n + items[i].label.length;
    realm.write(() => realm.delete(realm.objects("Item")));
    return total;
  };
  for (let r = 0; r < 10; r++) round(); // warm up: caches and JIT reach their size
  await settleHeap();
  const before = process.memoryUsage().rss;
  let checksum = 0;
  for (let r = 0; r < 100; r++) {
    checksum += round();
    if (r % 10 === 9) await settleHeap();
  }
  await settleHeap();
  const grown = process.memoryUsage().rss - before;
  // Per round: n sums to 499500; the labels "item N" are 6, 7 or 8 characters long.
  assert.equal(checksum, 100 * (499500 + 10 * 6 + 90 * 7 + 900 * 8));
  if (process.env.DRUMLIN_NODE_MEMORY_REPORT) console.log(`RSS grew by ${grown} bytes`);
  assert.ok(grown < 24 * 1024 * 1024, `RSS grew by ${(grown / 1048576).toFixed(1)} MiB over 100k objects`);
});
