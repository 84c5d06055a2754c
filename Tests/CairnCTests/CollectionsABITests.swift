import CCairnHeader
import CairnC
import Testing

@Suite struct CollectionsABITests {
    let schema = """
    [{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "dogs": "Dog[]", "tags": "string<>",
       "byName": "Dog{}", "home": "Address", "extra": "mixed"}},
     {"name": "Dog", "primaryKey": "name", "properties": {"name": "string",
       "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}},
     {"name": "Address", "embedded": true, "properties": {"street": "string"}}]
    """

    func json(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32) -> String? {
        var out: UnsafeMutablePointer<CChar>?
        guard call(&out) == CAIRN_OK, let out else { return nil }
        defer { CairnC.cairn_free(out) }
        return String(cString: out)
    }

    @Test func listsSetsDictionariesBacklinksAndMixedPathsThroughTheCAPI() {
        var db: OpaquePointer?
        #expect(CairnC.cairn_open(":memory:", schema, nil, &db) == CAIRN_OK)
        defer { _ = CairnC.cairn_close(db) }
        #expect(CairnC.cairn_begin_write(db) == CAIRN_OK)
        #expect(CairnC.cairn_create_json(db, "Person", #"{"id": 1, "dogs": [{"name": "Rex"}], "home": {"street": "S"}, "extra": {"a": [1]}}"#, CAIRN_UPDATE_NEVER, nil) == CAIRN_OK)
        var pk = cairn_value()
        pk.type = CAIRN_TYPE_INT; pk.`as`.integer = 1
        var person: OpaquePointer?
        #expect(CairnC.cairn_object_find(db, "Person", &pk, &person) == CAIRN_OK)
        defer { CairnC.cairn_object_release(person) }

        var dogs: OpaquePointer?
        #expect(CairnC.cairn_object_get_list(person, "dogs", &dogs) == CAIRN_OK)
        defer { CairnC.cairn_list_release(dogs) }
        #expect(CairnC.cairn_list_insert_json(dogs, 1, #"{"name": "Bo"}"#) == CAIRN_OK)
        #expect(CairnC.cairn_list_insert_json(dogs, 0, #""Bo""#) == CAIRN_OK)
        #expect(CairnC.cairn_list_insert_json(dogs, 9, #""Bo""#) == CAIRN_ERR_INVALID_ARGUMENT)
        var size = 0
        #expect(CairnC.cairn_list_size(dogs, &size) == CAIRN_OK && size == 3)
        #expect(json { CairnC.cairn_list_to_json(dogs, $0) } == #"["Bo","Rex","Bo"]"#)
        var rex: OpaquePointer?
        #expect(CairnC.cairn_list_get_object(dogs, 1, &rex) == CAIRN_OK)
        defer { CairnC.cairn_object_release(rex) }
        var owners: OpaquePointer?
        #expect(CairnC.cairn_object_get_backlinks(rex, "owners", &owners) == CAIRN_OK)
        defer { CairnC.cairn_results_release(owners) }
        var count = 0
        #expect(CairnC.cairn_results_count(owners, &count) == CAIRN_OK && count == 1)
        var byLinks: OpaquePointer?
        #expect(CairnC.cairn_object_get_backlinks(rex, "@links.Person.dogs", &byLinks) == CAIRN_OK)
        CairnC.cairn_results_release(byLinks)
        #expect(CairnC.cairn_object_get_backlinks(rex, "@links.Person.tags", &byLinks) == CAIRN_ERR_NO_SUCH_PROPERTY)
        #expect(CairnC.cairn_list_erase(dogs, 0) == CAIRN_OK)
        #expect(CairnC.cairn_list_move(dogs, 0, 1) == CAIRN_OK)
        #expect(json { CairnC.cairn_list_to_json(dogs, $0) } == #"["Bo","Rex"]"#)

        var tags: OpaquePointer?
        #expect(CairnC.cairn_object_get_set(person, "tags", &tags) == CAIRN_OK)
        defer { CairnC.cairn_set_release(tags) }
        var inserted: Int32 = -1
        "x".withCString { text in
            var value = cairn_value()
            value.type = CAIRN_TYPE_STRING
            value.`as`.string = cairn_string(data: text, size: 1)
            #expect(CairnC.cairn_set_insert(tags, &value, &inserted) == CAIRN_OK && inserted == 1)
            #expect(CairnC.cairn_set_insert(tags, &value, &inserted) == CAIRN_OK && inserted == 0)
            var found: Int32 = 0
            #expect(CairnC.cairn_set_find(tags, &value, &found) == CAIRN_OK && found == 1)
        }
        // The wrong kind of handle is misuse, not a crash.
        #expect(CairnC.cairn_list_size(tags, &size) == CAIRN_ERR_MISUSE)

        var byName: OpaquePointer?
        #expect(CairnC.cairn_object_get_dict(person, "byName", &byName) == CAIRN_OK)
        defer { CairnC.cairn_dict_release(byName) }
        #expect(CairnC.cairn_dict_insert_json(byName, "r", #""Rex""#) == CAIRN_OK)
        #expect(CairnC.cairn_dict_insert_json(byName, "a.b", #""Rex""#) == CAIRN_ERR_INVALID_ARGUMENT)
        var key = cairn_value(), value = cairn_value()
        #expect(CairnC.cairn_dict_get(byName, 0, &key, &value) == CAIRN_OK)
        #expect(String(cString: key.`as`.string.data) == "r" && value.type == CAIRN_TYPE_LINK)

        var home: OpaquePointer?
        #expect(CairnC.cairn_object_get_linked(person, "home", &home) == CAIRN_OK)
        #expect(CairnC.cairn_object_set_link(person, "home", home) == CAIRN_ERR_INVALID_ARGUMENT)   // embedded: one owner
        CairnC.cairn_object_release(home)

        #expect(CairnC.cairn_object_append_mixed_json(person, "extra", #"["a"]"#, "2") == CAIRN_OK)
        #expect(CairnC.cairn_object_set_mixed_json(person, "extra", #"["b"]"#, #"{"c": null}"#) == CAIRN_OK)
        #expect(json { CairnC.cairn_object_get_mixed_json(person, "extra", "[]", $0) } == #"{"a":[1,2],"b":{"c":null}}"#)
        #expect(CairnC.cairn_object_remove_mixed(person, "extra", #"["a", 0]"#) == CAIRN_OK)
        #expect(CairnC.cairn_object_remove_mixed(person, "extra", #"[true]"#) == CAIRN_ERR_INVALID_ARGUMENT)
        #expect(json { CairnC.cairn_object_to_json_depth(person, 1, $0) } ==
                #"{"id":1,"dogs":[{"name":"Bo"},{"name":"Rex"}],"tags":["x"],"byName":{"r":{"name":"Rex"}},"home":{"street":"S"},"extra":{"a":[2],"b":{"c":null}}}"#)
        #expect(CairnC.cairn_commit(db) == CAIRN_OK)
    }
}
