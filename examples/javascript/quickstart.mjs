// Drumlin quickstart for Node.js, in Realm JS's API: open a file, create related objects, query
// live results, get a change set, update, and read it back after reopening.
//
//     node examples/javascript/quickstart.mjs [path]    (default: a file in a new temp directory)
//
// Uses this checkout's bindings/node (build it with `make node`, as `make demo` does); a program
// with the package installed writes `import Realm from "drumlin"`.
import Realm from "../../bindings/node/index.mjs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

class Person extends Realm.Object {
  static schema = {
    name: "Person",
    primaryKey: "_id",
    properties: {
      _id: { type: "objectId", default: () => new Realm.BSON.ObjectId() },
      name: { type: "string", indexed: true },
      age: "int",
      dogs: "Dog[]",
      extra: "mixed",
    },
  };
}

const DogSchema = {
  name: "Dog",
  properties: { name: "string", owners: { type: "linkingObjects", objectType: "Person", property: "dogs" } },
};

const path = process.argv[2] ?? join(mkdtempSync(join(tmpdir(), "drumlin-js-")), "quickstart.realm");
const config = { path, schema: [Person, DogSchema] };
let realm = await Realm.open(config);

realm.write(() => {
  realm.create(Person, { name: "Ann", age: 31, dogs: [{ name: "Rex" }, { name: "Bo" }], extra: { team: "blue" } });
  realm.create(Person, { name: "Bob", age: 25 });
});

const adults = realm.objects(Person).filtered("age >= $0", 30).sorted("name");
console.log(`adults: ${adults.map((p) => p.name).join(", ")}`);
const rex = realm.objects("Dog").filtered("name == 'Rex'")[0];
console.log(`Rex's owner: ${rex.owners[0].name}; Ann's team: ${adults[0].extra.team}`);

const changes = [];
adults.addListener((_results, change) => changes.push(change.insertions));
realm.write(() => realm.create(Person, { name: "Cy", age: 40 }));
await new Promise((resolve) => setTimeout(resolve, 20));
console.log(`change sets: ${JSON.stringify(changes)}`); // the first call has no changes
adults.removeAllListeners();

realm.write(() => { realm.objects(Person).filtered("name == 'Bob'")[0].age = 26; });
console.log(`average age: ${realm.objects(Person).avg("age")}`);
realm.close();

realm = await Realm.open(config);
console.log(`after reopening ${path}: ${realm.objects(Person).length} people, ${realm.objects("Dog").length} dogs`);
realm.close();
