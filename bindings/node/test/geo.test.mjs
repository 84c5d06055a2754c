import { test } from "node:test";
import assert from "node:assert/strict";
import Realm, { kmToRadians } from "../index.mjs";
import { openRealm } from "./helpers.mjs";

const schema = [
  { name: "Point", embedded: true, properties: { type: "string", coordinates: "double[]" } },
  { name: "Company", primaryKey: "_id", properties: { _id: "int", location: "Point" } },
];

test("geoWithin takes Realm JS's shapes as arguments, and inline shapes", (t) => {
  const realm = openRealm(t, { schema });
  realm.write(() => {
    realm.create("Company", { _id: 6, location: { type: "Point", coordinates: [-122.35, 47.68] } });
    realm.create("Company", { _id: 9, location: { type: "Point", coordinates: [-121.85, 47.9] } });
  });
  const ids = (query, ...args) => realm.objects("Company").filtered(query, ...args).map((c) => c._id);
  const circle = { center: [-122.35, 47.68], distance: kmToRadians(10) };
  assert.deepEqual(ids("location geoWithin $0", circle), [6]);
  assert.deepEqual(ids("location geoWithin $0", { center: { longitude: -121.85, latitude: 47.9 }, distance: kmToRadians(1) }), [9]);
  assert.deepEqual(ids("location geoWithin $0", { bottomLeft: [-123, 47], topRight: [-121, 48] }), [6, 9]);
  const ring = [[-122.5, 47.5], [-122, 47.5], [-122, 47.8], [-122.5, 47.8], [-122.5, 47.5]];
  assert.deepEqual(ids("location geoWithin $0", { outerRing: ring }), [6]);
  assert.deepEqual(ids("location geoWithin geoCircle([-121.85, 47.9], $0)", kmToRadians(1)), [9]);
  assert.equal(Realm.miToRadians(3963.16760121), 1);
});
