/*
 * collections.c — links, backlinks and results, lists, sets, dictionaries and nested mixed values
 * through the C API: what each call does, that handles are live, and that bad calls are refused
 * without changing anything. relationships.c checks what such writes leave in the SQLite file
 * (cascading deletes, asymmetric objects, the nesting limit).
 */
#include "check.h"

#include <stdint.h>

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"_id\", \"properties\": {"
    "   \"_id\": \"int\", \"name\": \"string\", \"dog\": \"Dog\", \"dogs\": \"Dog[]\","
    "   \"address\": \"Address\", \"tags\": \"string[]\", \"labels\": \"string<>\","
    "   \"extra\": \"mixed{}\", \"anything\": \"mixed\"}},"
    " {\"name\": \"Dog\", \"properties\": {\"name\": \"string\","
    "   \"owners\": {\"type\": \"linkingObjects\", \"objectType\": \"Person\", \"property\": \"dogs\"}}},"
    " {\"name\": \"Address\", \"embedded\": true, \"properties\": {\"street\": \"string\", \"city\": \"string?\"}}]";

static cairn_db *db;

static cairn_value string_value(const char *text) {
    cairn_value v;
    memset(&v, 0, sizeof v);
    v.type = CAIRN_TYPE_STRING;
    v.as.string.data = text;
    v.as.string.size = strlen(text);
    return v;
}

static cairn_value int_value(int64_t i) {
    cairn_value v;
    memset(&v, 0, sizeof v);
    v.type = CAIRN_TYPE_INT;
    v.as.integer = i;
    return v;
}

static cairn_object *person(int64_t id) {
    cairn_object *object = NULL;
    cairn_value pk = int_value(id);
    REQUIRE_OK(cairn_object_find(db, "Person", &pk, &object));
    return object;
}

/* 1 if `object`'s string property `name` equals `want`. */
static int name_is(cairn_object *object, const char *want) {
    cairn_value v;
    memset(&v, 0, sizeof v);
    if (!object || cairn_object_get(object, "name", &v) != CAIRN_OK || v.type != CAIRN_TYPE_STRING) return 0;
    return v.as.string.size == strlen(want) && memcmp(v.as.string.data, want, v.as.string.size) == 0;
}

static int64_t count_of(const char *class_name) {
    int64_t n = -1;
    CHECK_OK(cairn_count(db, class_name, NULL, NULL, &n));
    return n;
}

static void test_links_and_backlinks(void) {
    cairn_object *ann, *bob, *rex = NULL, *bo = NULL, *linked = (cairn_object *)&linked, *owner = NULL;
    cairn_results *owners = NULL, *by_path = NULL;
    cairn_list *dogs = NULL;
    size_t n = 0;
    char *json = NULL;

    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_create_json(db, "Person",
                                 "{\"_id\": 1, \"name\": \"Ann\", \"dog\": {\"name\": \"Rex\"},"
                                 " \"dogs\": [{\"name\": \"Bo\"}, {\"name\": \"Cy\"}],"
                                 " \"address\": {\"street\": \"Main\", \"city\": null}}",
                                 CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_create_json(db, "Person", "{\"_id\": 2, \"name\": \"Bob\"}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of("Dog") == 3);
    ann = person(1);
    bob = person(2);

    /* To-one links. */
    CHECK_OK(cairn_object_get_linked(ann, "dog", &rex));
    CHECK(name_is(rex, "Rex"));
    CHECK_RC(cairn_object_get_linked(bob, "dog", &linked), CAIRN_NOT_FOUND);
    CHECK(linked == NULL);
    /* A property that is not a link is an error, not "no link". */
    CHECK(cairn_object_get_linked(ann, "name", &linked) > CAIRN_NOT_FOUND);
    CHECK(linked == NULL);
    REQUIRE_OK(cairn_object_get_list(ann, "dogs", &dogs));
    REQUIRE_OK(cairn_list_get_object(dogs, 0, &bo));
    CHECK(name_is(bo, "Bo"));

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_set_link(bob, "dog", rex));
    CHECK(cairn_object_set_link(bob, "dog", ann) != CAIRN_OK); /* a Person is not a Dog */
    REQUIRE_OK(cairn_commit(db));
    CHECK_ERR(cairn_object_set_link(bob, "dog", NULL), CAIRN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_OK(cairn_object_get_linked(bob, "dog", &linked));
    CHECK(name_is(linked, "Rex"));
    cairn_object_release(linked);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_set_link(bob, "dog", NULL));
    REQUIRE_OK(cairn_commit(db));
    linked = (cairn_object *)&linked;
    CHECK_RC(cairn_object_get_linked(bob, "dog", &linked), CAIRN_NOT_FOUND);
    CHECK(linked == NULL);

    /* JSON with links expanded to a depth; embedded objects always nest. */
    CHECK_OK(cairn_object_to_json_depth(ann, 1, &json));
    CHECK_JSON_HAS(json, "\"dog\":{\"name\":\"Rex\"");
    CHECK_JSON_HAS(json, "\"address\":{\"street\":\"Main\",\"city\":null}");
    cairn_free(json);
    json = NULL;
    CHECK_OK(cairn_object_to_json_depth(ann, 0, &json));
    CHECK(json != NULL && strstr(json, "Rex") == NULL);
    CHECK_JSON_HAS(json, "\"address\":{\"street\":\"Main\"");
    cairn_free(json);
    json = NULL;

    /* Backlinks: by the linkingObjects property and by @links; results are live. */
    REQUIRE_OK(cairn_object_get_backlinks(bo, "owners", &owners));
    REQUIRE_OK(cairn_object_get_backlinks(bo, "@links.Person.dogs", &by_path));
    CHECK_OK(cairn_results_count(owners, &n));
    CHECK(n == 1);
    CHECK_OK(cairn_results_count(by_path, &n));
    CHECK(n == 1);
    CHECK_OK(cairn_results_get_object(owners, 0, &owner));
    CHECK(name_is(owner, "Ann"));
    cairn_object_release(owner);
    owner = (cairn_object *)&owner;
    CHECK_ERR(cairn_results_get_object(owners, 5, &owner), CAIRN_ERR_INVALID_ARGUMENT);
    CHECK(owner == NULL);
    CHECK_OK(cairn_results_to_json(owners, &json));
    CHECK(json != NULL && json[0] == '[');
    CHECK_JSON_HAS(json, "\"name\":\"Ann\"");
    cairn_free(json);
    json = NULL;
    {
        cairn_results *not_backlinks = (cairn_results *)&not_backlinks;
        CHECK(cairn_object_get_backlinks(bo, "name", &not_backlinks) > CAIRN_NOT_FOUND); /* not a link */
        CHECK(not_backlinks == NULL);
        CHECK_ERR(cairn_object_get_backlinks(bo, "@links.Person.nope", &not_backlinks), CAIRN_ERR_NO_SUCH_PROPERTY);
    }

    REQUIRE_OK(cairn_begin_write(db));
    {
        cairn_list *bob_dogs = NULL;
        cairn_value link;
        int64_t bo_key = -1;
        int32_t dog_class = -1;
        REQUIRE_OK(cairn_object_get_list(bob, "dogs", &bob_dogs));
        CHECK_OK(cairn_object_key(bo, &bo_key));
        CHECK_OK(cairn_class_index(db, "Dog", &dog_class));
        memset(&link, 0, sizeof link);
        link.type = CAIRN_TYPE_LINK;
        link.as.link.class_index = dog_class;
        link.as.link.key = bo_key;
        CHECK_OK(cairn_list_insert(bob_dogs, 0, &link));
        cairn_list_release(bob_dogs);
    }
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_results_count(owners, &n));
    CHECK(n == 2);

    /* Deleting a dog removes it from every list and nulls links to it. */
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_delete(bo));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_list_size(dogs, &n));
    CHECK(n == 1);

    cairn_results_release(by_path);
    cairn_results_release(owners);
    cairn_list_release(dogs);
    cairn_object_release(bo);
    cairn_object_release(rex);
    cairn_object_release(bob);
    cairn_object_release(ann);
}

static void test_lists(void) {
    cairn_object *ann = person(1);
    cairn_list *tags = NULL;
    cairn_value v;
    size_t n = 0, index = 99;
    int found = -1;
    char *json = NULL;

    REQUIRE_OK(cairn_object_get_list(ann, "tags", &tags));
    v = string_value("a");
    CHECK_ERR(cairn_list_insert(tags, 0, &v), CAIRN_ERR_WRONG_TRANSACTION_STATE);

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_list_insert(tags, 0, &v));
    v = string_value("c");
    CHECK_OK(cairn_list_insert(tags, 1, &v));
    v = string_value("b");
    CHECK_OK(cairn_list_insert(tags, 1, &v));
    CHECK_OK(cairn_list_insert_json(tags, 3, "\"d\""));
    /* Bad calls change nothing. */
    CHECK_ERR(cairn_list_insert(tags, 9, &v), CAIRN_ERR_INVALID_ARGUMENT);
    v = int_value(5);
    CHECK_ERR(cairn_list_insert(tags, 0, &v), CAIRN_ERR_TYPE_MISMATCH);
    CHECK_ERR(cairn_list_insert_json(tags, 0, "[1"), CAIRN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(cairn_list_erase(tags, 4), CAIRN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(cairn_list_move(tags, 0, 4), CAIRN_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(cairn_commit(db));

    CHECK_OK(cairn_list_to_json(tags, &json));
    CHECK_STR(json, "[\"a\",\"b\",\"c\",\"d\"]");
    cairn_free(json);
    json = NULL;
    CHECK_OK(cairn_list_size(tags, &n));
    CHECK(n == 4);
    memset(&v, 0, sizeof v);
    CHECK_OK(cairn_list_get(tags, 1, &v));
    CHECK(v.type == CAIRN_TYPE_STRING);
    if (v.type == CAIRN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "b", 1);
    CHECK_ERR(cairn_list_get(tags, 4, &v), CAIRN_ERR_INVALID_ARGUMENT);
    v = string_value("c");
    CHECK_OK(cairn_list_find(tags, &v, &index, &found));
    CHECK(found == 1 && index == 2);
    v = string_value("zz");
    index = 99;
    CHECK_OK(cairn_list_find(tags, &v, &index, &found));
    CHECK(found == 0 && index == 99);

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_list_move(tags, 0, 3)); /* b c d a */
    v = string_value("B");
    CHECK_OK(cairn_list_set(tags, 0, &v)); /* B c d a */
    CHECK_OK(cairn_list_erase(tags, 1));   /* B d a */
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_list_to_json(tags, &json));
    CHECK_STR(json, "[\"B\",\"d\",\"a\"]");
    cairn_free(json);
    json = NULL;

    /* The handle is live: a change made through JSON shows through it. */
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_update_json(ann, "{\"tags\": [\"x\", \"y\"]}"));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_list_size(tags, &n));
    CHECK(n == 2);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_list_clear(tags));
    REQUIRE_OK(cairn_rollback(db));
    CHECK_OK(cairn_list_size(tags, &n));
    CHECK(n == 2);

    /* A list of objects: JSON objects create new ones. */
    {
        cairn_list *dogs = NULL;
        cairn_object *dog = NULL;
        int64_t dogs_before = count_of("Dog");
        REQUIRE_OK(cairn_object_get_list(ann, "dogs", &dogs));
        REQUIRE_OK(cairn_begin_write(db));
        CHECK_OK(cairn_list_insert_json(dogs, 0, "{\"name\": \"Dee\"}"));
        REQUIRE_OK(cairn_commit(db));
        CHECK(count_of("Dog") == dogs_before + 1);
        memset(&v, 0, sizeof v);
        CHECK_OK(cairn_list_get(dogs, 0, &v));
        CHECK(v.type == CAIRN_TYPE_LINK);
        CHECK_OK(cairn_list_get_object(dogs, 0, &dog));
        CHECK(name_is(dog, "Dee"));
        cairn_object_release(dog);
        CHECK(cairn_list_get_object(tags, 0, &dog) != CAIRN_OK); /* not a list of objects */
        cairn_list_release(dogs);
    }

    cairn_list_release(tags);
    cairn_object_release(ann);
}

static void test_sets(void) {
    cairn_object *ann = person(1);
    cairn_set *labels = NULL;
    cairn_value v;
    size_t n = 0;
    int found = -1, changed = -1;
    char *json = NULL;

    REQUIRE_OK(cairn_object_get_set(ann, "labels", &labels));
    REQUIRE_OK(cairn_begin_write(db));
    v = string_value("x");
    CHECK_OK(cairn_set_insert(labels, &v, &changed));
    CHECK(changed == 1);
    CHECK_OK(cairn_set_insert(labels, &v, &changed));
    CHECK(changed == 0);
    v = string_value("y");
    CHECK_OK(cairn_set_insert(labels, &v, NULL));
    v = int_value(3);
    CHECK_ERR(cairn_set_insert(labels, &v, &changed), CAIRN_ERR_TYPE_MISMATCH);
    REQUIRE_OK(cairn_commit(db));

    CHECK_OK(cairn_set_size(labels, &n));
    CHECK(n == 2);
    memset(&v, 0, sizeof v);
    CHECK_OK(cairn_set_get(labels, 0, &v)); /* insertion order */
    if (v.type == CAIRN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "x", 1);
    else CHECK(v.type == CAIRN_TYPE_STRING);
    v = string_value("y");
    CHECK_OK(cairn_set_find(labels, &v, &found));
    CHECK(found == 1);
    v = string_value("nope");
    CHECK_OK(cairn_set_find(labels, &v, &found));
    CHECK(found == 0);
    CHECK_OK(cairn_set_to_json(labels, &json));
    CHECK_STR(json, "[\"x\",\"y\"]");
    cairn_free(json);
    json = NULL;

    REQUIRE_OK(cairn_begin_write(db));
    v = string_value("x");
    CHECK_OK(cairn_set_erase(labels, &v, &changed));
    CHECK(changed == 1);
    CHECK_OK(cairn_set_erase(labels, &v, &changed));
    CHECK(changed == 0);
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_set_to_json(labels, &json));
    CHECK_STR(json, "[\"y\"]");
    cairn_free(json);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_set_clear(labels));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_set_size(labels, &n));
    CHECK(n == 0);

    cairn_set_release(labels);
    cairn_object_release(ann);
}

static void test_dictionaries(void) {
    cairn_object *ann = person(1);
    cairn_dict *extra = NULL;
    cairn_value key, v;
    size_t n = 0;
    int found = -1, erased = -1;
    char *json = NULL;

    REQUIRE_OK(cairn_object_get_dict(ann, "extra", &extra));
    REQUIRE_OK(cairn_begin_write(db));
    v = int_value(2);
    CHECK_OK(cairn_dict_insert(extra, "b", &v));
    v = string_value("s");
    CHECK_OK(cairn_dict_insert(extra, "a", &v));
    CHECK_OK(cairn_dict_insert_json(extra, "n", "null"));
    CHECK(cairn_dict_insert(extra, "has.dot", &v) != CAIRN_OK);
    CHECK(cairn_dict_insert(extra, "$dollar", &v) != CAIRN_OK);
    CHECK_ERR(cairn_dict_insert_json(extra, "bad", "{"), CAIRN_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(cairn_commit(db));

    CHECK_OK(cairn_dict_size(extra, &n));
    CHECK(n == 3);
    memset(&key, 0, sizeof key);
    memset(&v, 0, sizeof v);
    CHECK_OK(cairn_dict_get(extra, 0, &key, &v)); /* ordered by key: a, b, n */
    CHECK(key.type == CAIRN_TYPE_STRING);
    if (key.type == CAIRN_TYPE_STRING) CHECK_BYTES(key.as.string.data, key.as.string.size, "a", 1);
    if (v.type == CAIRN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "s", 1);
    else CHECK(v.type == CAIRN_TYPE_STRING);
    CHECK_ERR(cairn_dict_get(extra, 3, &key, &v), CAIRN_ERR_INVALID_ARGUMENT);
    CHECK_OK(cairn_dict_find(extra, "b", &v, &found));
    CHECK(found == 1 && v.type == CAIRN_TYPE_INT && v.as.integer == 2);
    CHECK_OK(cairn_dict_find(extra, "n", &v, &found));
    CHECK(found == 1 && v.type == CAIRN_TYPE_NULL); /* a key may hold null */
    CHECK_OK(cairn_dict_find(extra, "zz", &v, &found));
    CHECK(found == 0);
    CHECK_OK(cairn_dict_to_json(extra, &json));
    CHECK_STR(json, "{\"a\":\"s\",\"b\":2,\"n\":null}");
    cairn_free(json);
    json = NULL;

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_dict_erase(extra, "a", &erased));
    CHECK(erased == 1);
    CHECK_OK(cairn_dict_erase(extra, "a", &erased));
    CHECK(erased == 0);
    CHECK_OK(cairn_dict_erase(extra, "b", NULL));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_dict_size(extra, &n));
    CHECK(n == 1);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_dict_clear(extra));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_dict_size(extra, &n));
    CHECK(n == 0);

    cairn_dict_release(extra);
    cairn_object_release(ann);
}

/* JSON text of `depth` nested lists around 1: [[...[1]...]]. The caller frees it. */
static char *nested_lists(int depth) {
    char *text = (char *)malloc((size_t)depth * 2 + 2);
    int n = 0;
    REQUIRE(text != NULL);
    for (int i = 0; i < depth; i++) text[n++] = '[';
    text[n++] = '1';
    for (int i = 0; i < depth; i++) text[n++] = ']';
    text[n] = '\0';
    return text;
}

static void test_nested_mixed(void) {
    cairn_object *ann = person(1);
    char *json = NULL, *deep = NULL, *payload = NULL;
    int rc;

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_update_json(ann, "{\"anything\": {\"list\": [1, 2], \"d\": {\"k\": \"v\"}}}"));
    CHECK_OK(cairn_object_set_mixed_json(ann, "anything", "[\"list\", 0]", "10"));
    CHECK_OK(cairn_object_append_mixed_json(ann, "anything", "[\"list\"]", "3"));
    CHECK_OK(cairn_object_set_mixed_json(ann, "anything", "[\"d\", \"new\"]", "true"));
    CHECK_OK(cairn_object_remove_mixed(ann, "anything", "[\"list\", 1]"));
    CHECK(cairn_object_set_mixed_json(ann, "anything", "[\"list\", 7]", "1") != CAIRN_OK);
    CHECK(cairn_object_remove_mixed(ann, "anything", "[\"nope\", 0]") != CAIRN_OK);
    CHECK_ERR(cairn_object_set_mixed_json(ann, "anything", "[\"list\"", "1"), CAIRN_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(cairn_commit(db));

    CHECK_OK(cairn_object_get_mixed_json(ann, "anything", "[\"list\"]", &json));
    CHECK_STR(json, "[10,3]");
    cairn_free(json);
    json = NULL;
    CHECK_OK(cairn_object_get_mixed_json(ann, "anything", "[\"d\", \"new\"]", &json));
    CHECK_STR(json, "true");
    cairn_free(json);
    json = NULL;
    CHECK_OK(cairn_object_get_mixed_json(ann, "anything", "[\"d\", \"k\"]", &json));
    CHECK_STR(json, "\"v\"");
    cairn_free(json);
    json = NULL;

    /* 100 levels of nested collections work; 101 is CAIRN_ERR_LIMIT. */
    REQUIRE_OK(cairn_begin_write(db));
    deep = nested_lists(100);
    payload = (char *)malloc(strlen(deep) + 32);
    REQUIRE(payload != NULL);
    sprintf(payload, "{\"anything\": %s}", deep);
    CHECK_OK(cairn_object_update_json(ann, payload));
    free(payload);
    free(deep);
    deep = nested_lists(101);
    payload = (char *)malloc(strlen(deep) + 32);
    REQUIRE(payload != NULL);
    sprintf(payload, "{\"anything\": %s}", deep);
    rc = cairn_object_update_json(ann, payload);
    CHECK_RC(rc, CAIRN_ERR_LIMIT);
    free(payload);
    free(deep);
    REQUIRE_OK(cairn_commit(db));

    cairn_object_release(ann);
}

int main(void) {
    char dir[2048], path[4096];
    test_dir_make(dir, sizeof dir, "collections");
    snprintf(path, sizeof path, "%s/collections.cairn", dir);
    REQUIRE_OK(cairn_open(path, SCHEMA, NULL, &db));

    test_links_and_backlinks();
    test_lists();
    test_sets();
    test_dictionaries();
    test_nested_mixed();

    CHECK_OK(cairn_close(db));
    test_dir_remove(dir);
    return check_report("collections");
}
