import CDrumlinHeader
import DrumlinC
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
        guard call(&out) == DRUMLIN_OK, let out else { return nil }
        defer { DrumlinC.drumlin_free(out) }
        return String(cString: out)
    }

    @Test func listsSetsDictionariesBacklinksAndMixedPathsThroughTheCAPI() {
        var db: OpaquePointer?
        #expect(DrumlinC.drumlin_open(":memory:", schema, nil, &db) == DRUMLIN_OK)
        defer { _ = DrumlinC.drumlin_close(db) }
        #expect(DrumlinC.drumlin_begin_write(db) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_create_json(db, "Person", #"{"id": 1, "dogs": [{"name": "Rex"}], "home": {"street": "S"}, "extra": {"a": [1]}}"#, DRUMLIN_UPDATE_NEVER, nil) == DRUMLIN_OK)
        var pk = drumlin_value()
        pk.type = DRUMLIN_TYPE_INT; pk.`as`.integer = 1
        var person: OpaquePointer?
        #expect(DrumlinC.drumlin_object_find(db, "Person", &pk, &person) == DRUMLIN_OK)
        defer { DrumlinC.drumlin_object_release(person) }

        var dogs: OpaquePointer?
        #expect(DrumlinC.drumlin_object_get_list(person, "dogs", &dogs) == DRUMLIN_OK)
        defer { DrumlinC.drumlin_list_release(dogs) }
        #expect(DrumlinC.drumlin_list_insert_json(dogs, 1, #"{"name": "Bo"}"#) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_list_insert_json(dogs, 0, #""Bo""#) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_list_insert_json(dogs, 9, #""Bo""#) == DRUMLIN_ERR_INVALID_ARGUMENT)
        var size = 0
        #expect(DrumlinC.drumlin_list_size(dogs, &size) == DRUMLIN_OK && size == 3)
        #expect(json { DrumlinC.drumlin_list_to_json(dogs, $0) } == #"["Bo","Rex","Bo"]"#)
        var rex: OpaquePointer?
        #expect(DrumlinC.drumlin_list_get_object(dogs, 1, &rex) == DRUMLIN_OK)
        defer { DrumlinC.drumlin_object_release(rex) }
        var owners: OpaquePointer?
        #expect(DrumlinC.drumlin_object_get_backlinks(rex, "owners", &owners) == DRUMLIN_OK)
        defer { DrumlinC.drumlin_results_release(owners) }
        var count = 0
        #expect(DrumlinC.drumlin_results_count(owners, &count) == DRUMLIN_OK && count == 1)
        var byLinks: OpaquePointer?
        #expect(DrumlinC.drumlin_object_get_backlinks(rex, "@links.Person.dogs", &byLinks) == DRUMLIN_OK)
        DrumlinC.drumlin_results_release(byLinks)
        #expect(DrumlinC.drumlin_object_get_backlinks(rex, "@links.Person.tags", &byLinks) == DRUMLIN_ERR_NO_SUCH_PROPERTY)
        #expect(DrumlinC.drumlin_list_erase(dogs, 0) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_list_move(dogs, 0, 1) == DRUMLIN_OK)
        #expect(json { DrumlinC.drumlin_list_to_json(dogs, $0) } == #"["Bo","Rex"]"#)

        var tags: OpaquePointer?
        #expect(DrumlinC.drumlin_object_get_set(person, "tags", &tags) == DRUMLIN_OK)
        defer { DrumlinC.drumlin_set_release(tags) }
        var inserted: Int32 = -1
        "x".withCString { text in
            var value = drumlin_value()
            value.type = DRUMLIN_TYPE_STRING
            value.`as`.string = drumlin_string(data: text, size: 1)
            #expect(DrumlinC.drumlin_set_insert(tags, &value, &inserted) == DRUMLIN_OK && inserted == 1)
            #expect(DrumlinC.drumlin_set_insert(tags, &value, &inserted) == DRUMLIN_OK && inserted == 0)
            var found: Int32 = 0
            #expect(DrumlinC.drumlin_set_find(tags, &value, &found) == DRUMLIN_OK && found == 1)
        }
        // The wrong kind of handle is misuse, not a crash.
        #expect(DrumlinC.drumlin_list_size(tags, &size) == DRUMLIN_ERR_MISUSE)

        var byName: OpaquePointer?
        #expect(DrumlinC.drumlin_object_get_dict(person, "byName", &byName) == DRUMLIN_OK)
        defer { DrumlinC.drumlin_dict_release(byName) }
        #expect(DrumlinC.drumlin_dict_insert_json(byName, "r", #""Rex""#) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_dict_insert_json(byName, "a.b", #""Rex""#) == DRUMLIN_ERR_INVALID_ARGUMENT)
        var key = drumlin_value(), value = drumlin_value()
        #expect(DrumlinC.drumlin_dict_get(byName, 0, &key, &value) == DRUMLIN_OK)
        #expect(String(cString: key.`as`.string.data) == "r" && value.type == DRUMLIN_TYPE_LINK)

        var home: OpaquePointer?
        #expect(DrumlinC.drumlin_object_get_linked(person, "home", &home) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_object_set_link(person, "home", home) == DRUMLIN_ERR_INVALID_ARGUMENT)   // embedded: one owner
        DrumlinC.drumlin_object_release(home)

        #expect(DrumlinC.drumlin_object_append_mixed_json(person, "extra", #"["a"]"#, "2") == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_object_set_mixed_json(person, "extra", #"["b"]"#, #"{"c": null}"#) == DRUMLIN_OK)
        #expect(json { DrumlinC.drumlin_object_get_mixed_json(person, "extra", "[]", $0) } == #"{"a":[1,2],"b":{"c":null}}"#)
        #expect(DrumlinC.drumlin_object_remove_mixed(person, "extra", #"["a", 0]"#) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_object_remove_mixed(person, "extra", #"[true]"#) == DRUMLIN_ERR_INVALID_ARGUMENT)
        #expect(json { DrumlinC.drumlin_object_to_json_depth(person, 1, $0) } ==
                #"{"id":1,"dogs":[{"name":"Bo"},{"name":"Rex"}],"tags":["x"],"byName":{"r":{"name":"Rex"}},"home":{"street":"S"},"extra":{"a":[2],"b":{"c":null}}}"#)
        #expect(DrumlinC.drumlin_commit(db) == DRUMLIN_OK)
    }
}
