// Type-checked by types.test.mjs with `tsc --strict` (module nodenext), as a Realm JS program
// importing "drumlin". The @ts-expect-error lines prove the typings reject what they should.
import Realm, { BSON, ObjectSchema, UpdateMode } from "drumlin";

class Dog extends Realm.Object<Dog> {
  name!: string;
  age!: number;
  owner?: Person;
  static schema: ObjectSchema = {
    name: "Dog",
    properties: { name: "string", age: "int", owner: "Person?" },
  };
}

class Person extends Realm.Object<Person, "_id"> {
  _id!: BSON.ObjectId;
  name!: string;
  dogs!: Realm.List<Dog>;
  tags!: Realm.Set<string>;
  scores!: Realm.Dictionary<number>;
  static schema: ObjectSchema = {
    name: "Person",
    primaryKey: "_id",
    properties: { _id: "objectId", name: "string", dogs: "Dog[]", tags: "string<>", scores: "int{}" },
  };
}

export async function main(): Promise<number> {
  const realm = await Realm.open({ schema: [Person, Dog], path: "typed.realm", schemaVersion: 1 });
  const person: Person = realm.write(() =>
    realm.create(Person, { _id: new BSON.ObjectId(), name: "Ann", dogs: [{ name: "Rex", age: 3 }] }, UpdateMode.Modified),
  );
  const dogs: Realm.Results<Dog> = realm.objects(Dog).filtered("age > $0", 1).sorted("name");
  const first: Dog = dogs[0];
  const names: string[] = person.dogs.map((dog) => dog.name);
  const found: Person | null = realm.objectForPrimaryKey(Person, person._id);
  const plain = realm.objects<{ name: string }>("Dog")[0];
  const plainName: string = plain.name;
  dogs.addListener((collection, changes) => {
    const inserted: number[] = changes.insertions;
    void collection.length;
    void inserted;
  });
  person.addListener((object, changes) => {
    const deleted: boolean = changes.deleted;
    void object;
    void deleted;
  });
  const hex: string = person._id.toHexString();
  const when: Date = person._id.getTimestamp();
  const decimal = BSON.Decimal128.fromString("1.5");
  const uuid = new Realm.BSON.UUID();
  const total: number = dogs.sum("age");
  realm.close();

  // @ts-expect-error -- a Dog has no 'color'
  realm.create(Dog, { color: "brown" });
  // @ts-expect-error -- 'age' is a number
  realm.create(Dog, { name: "Max", age: "three" });
  // @ts-expect-error -- a to-one link keeps its class's type in Unmanaged<T>, as in Realm JS
  realm.create(Dog, { name: "Max", age: 1, owner: { name: "Ann" } });
  // @ts-expect-error -- Results are read-only by index
  dogs[0] = first;
  // @ts-expect-error -- the schema is an ObjectSchema, not a string
  const bad: ObjectSchema = "Dog";

  // Counters: a Counter property, Types.Counter, and the number create takes for it.
  const scores = new Realm({ schema: [{ name: "Score", properties: { hits: "counter" } }] });
  const score = scores.write(() => scores.create<{ hits: Realm.Counter }>("Score", { hits: 0 }));
  scores.write(() => score.hits.increment(2));
  const counted: Realm.Types.Counter = score.hits;
  const isCounter = counted instanceof Realm.Types.Counter;
  scores.close();

  return (isCounter ? counted.value : 0) + names.length + hex.length + when.getTime() + decimal.toString().length + uuid.toHexString().length + total +
    (found ? 1 : 0) + plainName.length + String(bad).length;
}
