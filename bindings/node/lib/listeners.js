"use strict";
// Delivery of object and collection notifications. The engine computes each change set during the
// call that delivers it (a commit made from JavaScript); the addon hands it to `enqueue`, and the
// listeners run later, from the event loop, as Realm JS's do (they are always asynchronous).

const { native } = require("./native");

const pending = [];
let scheduled = false;

function flush() {
  scheduled = false;
  const batch = pending.splice(0, pending.length);
  for (const run of batch) {
    try {
      run();
    } catch (error) {
      // A listener's exception belongs to the program, as one thrown from any event callback.
      process.nextTick(() => {
        throw error;
      });
    }
  }
}

function enqueue(run) {
  pending.push(run);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

// An object's or collection's removeListener: `callback` gets no more calls, not even one already
// queued; a callback that was not added is ignored.
function removeListener(state, callback) {
  const entry = state.listeners?.get(callback);
  if (!entry) return;
  entry.active = false;
  native.tokenRelease(entry.token);
  state.listeners.delete(callback);
  state.ctx.unwatch();
}

// Realm's CollectionChangeSet from the engine's (deletions in old indices; insertions and
// modifications in new ones). oldModifications are the modified elements' positions before the
// change: a moved element is a deletion plus an insertion, so every other element keeps its place
// among the elements that were neither deleted nor inserted.
function collectionChanges(changes) {
  const deletions = changes.deletions;
  const insertions = changes.insertions;
  const newModifications = changes.modifications;
  const inserted = new Set(insertions);
  const deleted = new Set(deletions);
  const oldModifications = [];
  if (newModifications.length > 0) {
    // The k-th kept element in the new state is the k-th kept element in the old state.
    const keptOld = [];
    let maxOld = 0;
    for (const n of newModifications) maxOld = Math.max(maxOld, n);
    const limit = maxOld + deletions.length + 1;
    for (let i = 0; i < limit; i++) if (!deleted.has(i)) keptOld.push(i);
    for (const n of newModifications) {
      let insertedBefore = 0;
      for (const i of insertions) if (i < n) insertedBefore++;
      if (!inserted.has(n)) oldModifications.push(keptOld[n - insertedBefore]);
    }
  }
  return { deletions, insertions, newModifications, oldModifications };
}

const EMPTY_COLLECTION_CHANGES = Object.freeze({
  deletions: [],
  insertions: [],
  newModifications: [],
  oldModifications: [],
});

module.exports = { enqueue, removeListener, collectionChanges, EMPTY_COLLECTION_CHANGES };
