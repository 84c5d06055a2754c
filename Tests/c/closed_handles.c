/*
 * closed_handles.c — every call on a handle whose database was closed answers
 * DRUMLIN_ERR_MISUSE (with a message) and changes nothing; the handles are still released as
 * usual. NULL handles and pointers: null_handles.c.
 */
#include "misuse.h"

/*
 * Every call on a handle whose database was closed: DRUMLIN_ERR_MISUSE. The handles stay
 * allocated and are released as usual.
 */
static void closed_database_functions(const char *path) {
    drumlin_db *db = NULL;
    drumlin_object *object = NULL, *out_object = NULL;
    drumlin_results *results = NULL;
    drumlin_list *list = NULL;
    drumlin_set *set = NULL;
    drumlin_dict *dict = NULL;
    drumlin_value pk, v, key, values[1];
    int32_t indices[1] = {1};
    int64_t object_key = 0;
    int32_t class_index = 0;
    int valid = 0, found = 0;
    size_t n = 0, index = 0;
    char *json = NULL;

    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    memset(&pk, 0, sizeof pk);
    pk.type = DRUMLIN_TYPE_INT;
    pk.as.integer = 1;
    REQUIRE_OK(drumlin_object_find(db, "Person", &pk, &object));
    REQUIRE_OK(drumlin_object_get_backlinks(object, "followers", &results));
    REQUIRE_OK(drumlin_object_get_list(object, "tags", &list));
    REQUIRE_OK(drumlin_object_get_set(object, "labels", &set));
    REQUIRE_OK(drumlin_object_get_dict(object, "extra", &dict));
    CHECK_OK(drumlin_close(db));

    v = string_value("Closed");
    values[0] = v;
    memset(&key, 0, sizeof key);
    CHECK_MISUSE(drumlin_object_key(object, &object_key));
    CHECK_MISUSE(drumlin_object_class_index(object, &class_index));
    CHECK_MISUSE(drumlin_object_is_valid(object, &valid));
    CHECK_MISUSE(drumlin_object_get(object, "name", &v));
    CHECK_MISUSE(drumlin_object_get_at(object, 1, &v));
    CHECK_MISUSE(drumlin_object_get_values(object, 1, indices, values));
    v = string_value("Closed");
    CHECK_MISUSE(drumlin_object_set(object, "name", &v));
    CHECK_MISUSE(drumlin_object_set_at(object, 1, &v));
    CHECK_MISUSE(drumlin_object_set_values(object, 1, indices, values));
    CHECK_MISUSE(drumlin_object_update_json(object, "{\"name\": \"Closed\"}"));
    CHECK_MISUSE(drumlin_object_to_json(object, &json));
    CHECK_MISUSE(drumlin_object_to_json_depth(object, 1, &json));
    CHECK(json == NULL);
    CHECK_MISUSE(drumlin_object_get_linked(object, "friend", &out_object));
    CHECK_MISUSE(drumlin_object_set_link(object, "friend", NULL));
    CHECK_MISUSE(drumlin_object_get_mixed_json(object, "anything", "[0]", &json));
    CHECK_MISUSE(drumlin_object_set_mixed_json(object, "anything", "[0]", "2"));
    CHECK_MISUSE(drumlin_object_append_mixed_json(object, "anything", "[]", "2"));
    CHECK_MISUSE(drumlin_object_remove_mixed(object, "anything", "[0]"));
    CHECK_MISUSE(drumlin_object_delete(object));

    CHECK_MISUSE(drumlin_results_count(results, &n));
    CHECK_MISUSE(drumlin_results_get_object(results, 0, &out_object));
    {
        int64_t position = 0;
        int empty = 0;
        CHECK_MISUSE(drumlin_results_index_of_key(results, 1, &position));
        CHECK_MISUSE(drumlin_results_is_empty(results, &empty));
        CHECK_MISUSE(drumlin_results_get_last(results, &out_object));
    }
    CHECK_MISUSE(drumlin_results_get_values(results, 0, 1, 1, indices, values, &n));
    CHECK_MISUSE(drumlin_results_to_json(results, &json));

    v = string_value("a");
    CHECK_MISUSE(drumlin_list_size(list, &n));
    CHECK_MISUSE(drumlin_list_get(list, 0, &v));
    v = string_value("a");
    CHECK_MISUSE(drumlin_list_find(list, &v, &index, &found));
    CHECK_MISUSE(drumlin_list_insert(list, 0, &v));
    CHECK_MISUSE(drumlin_list_insert_json(list, 0, "\"b\""));
    CHECK_MISUSE(drumlin_list_set(list, 0, &v));
    CHECK_MISUSE(drumlin_list_set_json(list, 0, "\"b\""));
    CHECK_MISUSE(drumlin_list_insert_many_json(list, 0, "[\"b\"]"));
    CHECK_MISUSE(drumlin_list_move(list, 0, 0));
    CHECK_MISUSE(drumlin_list_erase(list, 0));
    CHECK_MISUSE(drumlin_list_clear(list));
    CHECK_MISUSE(drumlin_list_to_json(list, &json));

    v = string_value("x");
    CHECK_MISUSE(drumlin_set_size(set, &n));
    CHECK_MISUSE(drumlin_set_get(set, 0, &v));
    v = string_value("x");
    CHECK_MISUSE(drumlin_set_find(set, &v, &found));
    CHECK_MISUSE(drumlin_set_insert(set, &v, NULL));
    CHECK_MISUSE(drumlin_set_insert_json(set, "\"x\"", NULL));
    CHECK_MISUSE(drumlin_set_insert_many_json(set, "[\"x\"]", NULL));
    CHECK_MISUSE(drumlin_set_erase(set, &v, NULL));
    CHECK_MISUSE(drumlin_set_clear(set));
    CHECK_MISUSE(drumlin_set_to_json(set, &json));

    CHECK_MISUSE(drumlin_dict_size(dict, &n));
    CHECK_MISUSE(drumlin_dict_get(dict, 0, &key, &v));
    CHECK_MISUSE(drumlin_dict_find(dict, "k", &v, &found));
    v = string_value("v");
    CHECK_MISUSE(drumlin_dict_insert(dict, "k", &v));
    CHECK_MISUSE(drumlin_dict_insert_json(dict, "k", "2"));
    CHECK_MISUSE(drumlin_dict_insert_many_json(dict, "{\"k\": 2}"));
    CHECK_MISUSE(drumlin_dict_erase(dict, "k", NULL));
    CHECK_MISUSE(drumlin_dict_clear(dict));
    CHECK_MISUSE(drumlin_dict_to_json(dict, &json));
    CHECK(json == NULL);

    drumlin_dict_release(dict);
    drumlin_set_release(set);
    drumlin_list_release(list);
    drumlin_results_release(results);
    drumlin_object_release(object);

    /* The closed database's data is intact. */
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    CHECK_OK(drumlin_get_json(db, "Person", "1", &json));
    CHECK_JSON_HAS(json, "\"name\":\"A\"");
    CHECK_JSON_HAS(json, "\"tags\":[\"a\"]");
    drumlin_free(json);
    CHECK_OK(drumlin_close(db));
}

int main(void) {
    char dir[2048], path[4096];
    drumlin_db *db = NULL;
    drumlin_object *object = NULL;

    test_dir_make(dir, sizeof dir, "closed-handles");
    snprintf(path, sizeof path, "%s/closed-handles.drumlin", dir);
    make_person_1(path, &db, &object);
    drumlin_object_release(object);
    CHECK_OK(drumlin_close(db));
    closed_database_functions(path);
    test_dir_remove(dir);
    return check_report("closed_handles");
}
