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

static drumlin_db *db;

static drumlin_object *person(int64_t id) {
    drumlin_object *object = NULL;
    drumlin_value pk = int_value(id);
    REQUIRE_OK(drumlin_object_find(db, "Person", &pk, &object));
    return object;
}

/* 1 if `object`'s string property `name` equals `want`. */
static int name_is(drumlin_object *object, const char *want) {
    drumlin_value v;
    memset(&v, 0, sizeof v);
    if (!object || drumlin_object_get(object, "name", &v) != DRUMLIN_OK || v.type != DRUMLIN_TYPE_STRING) return 0;
    return v.as.string.size == strlen(want) && memcmp(v.as.string.data, want, v.as.string.size) == 0;
}

static int64_t count_of(const char *class_name) {
    int64_t n = -1;
    CHECK_OK(drumlin_count(db, class_name, NULL, NULL, &n));
    return n;
}

static void test_links_and_backlinks(void) {
    drumlin_object *ann, *bob, *rex = NULL, *bo = NULL, *linked = (drumlin_object *)&linked, *owner = NULL;
    drumlin_results *owners = NULL, *by_path = NULL;
    drumlin_list *dogs = NULL;
    size_t n = 0;
    char *json = NULL;

    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Person",
                                 "{\"_id\": 1, \"name\": \"Ann\", \"dog\": {\"name\": \"Rex\"},"
                                 " \"dogs\": [{\"name\": \"Bo\"}, {\"name\": \"Cy\"}],"
                                 " \"address\": {\"street\": \"Main\", \"city\": null}}",
                                 DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Person", "{\"_id\": 2, \"name\": \"Bob\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of("Dog") == 3);
    ann = person(1);
    bob = person(2);

    /* To-one links. */
    CHECK_OK(drumlin_object_get_linked(ann, "dog", &rex));
    CHECK(name_is(rex, "Rex"));
    CHECK_RC(drumlin_object_get_linked(bob, "dog", &linked), DRUMLIN_NOT_FOUND);
    CHECK(linked == NULL);
    /* A property that is not a link is an error, not "no link". */
    CHECK(drumlin_object_get_linked(ann, "name", &linked) > DRUMLIN_NOT_FOUND);
    CHECK(linked == NULL);
    REQUIRE_OK(drumlin_object_get_list(ann, "dogs", &dogs));
    REQUIRE_OK(drumlin_list_get_object(dogs, 0, &bo));
    CHECK(name_is(bo, "Bo"));

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_set_link(bob, "dog", rex));
    CHECK(drumlin_object_set_link(bob, "dog", ann) != DRUMLIN_OK); /* a Person is not a Dog */
    REQUIRE_OK(drumlin_commit(db));
    CHECK_ERR(drumlin_object_set_link(bob, "dog", NULL), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_OK(drumlin_object_get_linked(bob, "dog", &linked));
    CHECK(name_is(linked, "Rex"));
    drumlin_object_release(linked);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_set_link(bob, "dog", NULL));
    REQUIRE_OK(drumlin_commit(db));
    linked = (drumlin_object *)&linked;
    CHECK_RC(drumlin_object_get_linked(bob, "dog", &linked), DRUMLIN_NOT_FOUND);
    CHECK(linked == NULL);

    /* JSON with links expanded to a depth; embedded objects always nest. */
    CHECK_OK(drumlin_object_to_json_depth(ann, 1, &json));
    CHECK_JSON_HAS(json, "\"dog\":{\"name\":\"Rex\"");
    CHECK_JSON_HAS(json, "\"address\":{\"street\":\"Main\",\"city\":null}");
    drumlin_free(json);
    json = NULL;
    CHECK_OK(drumlin_object_to_json_depth(ann, 0, &json));
    CHECK(json != NULL && strstr(json, "Rex") == NULL);
    CHECK_JSON_HAS(json, "\"address\":{\"street\":\"Main\"");
    drumlin_free(json);
    json = NULL;

    /* Backlinks: by the linkingObjects property and by @links; results are live. */
    REQUIRE_OK(drumlin_object_get_backlinks(bo, "owners", &owners));
    REQUIRE_OK(drumlin_object_get_backlinks(bo, "@links.Person.dogs", &by_path));
    CHECK_OK(drumlin_results_count(owners, &n));
    CHECK(n == 1);
    CHECK_OK(drumlin_results_count(by_path, &n));
    CHECK(n == 1);
    CHECK_OK(drumlin_results_get_object(owners, 0, &owner));
    CHECK(name_is(owner, "Ann"));
    drumlin_object_release(owner);
    owner = (drumlin_object *)&owner;
    CHECK_ERR(drumlin_results_get_object(owners, 5, &owner), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK(owner == NULL);
    {
        /* Positions by object key: Ann is Bo's one owner; Bob is not among them. */
        int64_t key = -1, position = 7;
        CHECK_OK(drumlin_object_key(ann, &key));
        CHECK_OK(drumlin_results_index_of_key(owners, key, &position));
        CHECK(position == 0);
        CHECK_OK(drumlin_object_key(bob, &key));
        CHECK_OK(drumlin_results_index_of_key(owners, key, &position));
        CHECK(position == -1);
        CHECK_OK(drumlin_results_index_of_key(owners, INT64_MAX, &position));
        CHECK(position == -1);
        CHECK_ERR(drumlin_results_index_of_key(owners, key, NULL), DRUMLIN_ERR_MISUSE);
    }
    {
        /* Emptiness: Bo has an owner; none of them is called Zed. */
        drumlin_results *zeds = NULL;
        int empty = -1;
        CHECK_OK(drumlin_results_is_empty(owners, &empty));
        CHECK(empty == 0);
        REQUIRE_OK(drumlin_results_filter(owners, "name == 'Zed'", NULL, &zeds));
        CHECK_OK(drumlin_results_is_empty(zeds, &empty));
        CHECK(empty == 1);
        CHECK_ERR(drumlin_results_is_empty(zeds, NULL), DRUMLIN_ERR_MISUSE);
        {
            /* The last object: of a class's query read alone; of backlinks from their keys. */
            drumlin_results *people = NULL, *by_name = NULL;
            drumlin_object *last = (drumlin_object *)&last;
            REQUIRE_OK(drumlin_query(db, "Person", "TRUEPREDICATE", NULL, &people));
            REQUIRE_OK(drumlin_query(db, "Person", "TRUEPREDICATE SORT(name DESC)", NULL, &by_name));
            CHECK_OK(drumlin_results_get_last(people, &last));
            CHECK(name_is(last, "Bob"));
            drumlin_object_release(last);
            CHECK_OK(drumlin_results_get_last(by_name, &last));
            CHECK(name_is(last, "Ann"));
            drumlin_object_release(last);
            CHECK_OK(drumlin_results_get_last(owners, &last));
            CHECK(name_is(last, "Ann"));
            drumlin_object_release(last);
            last = (drumlin_object *)&last;
            CHECK_RC(drumlin_results_get_last(zeds, &last), DRUMLIN_NOT_FOUND);
            CHECK(last == NULL);
            CHECK_ERR(drumlin_results_get_last(people, NULL), DRUMLIN_ERR_MISUSE);
            drumlin_results_release(by_name);
            drumlin_results_release(people);
        }
        drumlin_results_release(zeds);
    }
    CHECK_OK(drumlin_results_to_json(owners, &json));
    CHECK(json != NULL && json[0] == '[');
    CHECK_JSON_HAS(json, "\"name\":\"Ann\"");
    drumlin_free(json);
    json = NULL;
    {
        drumlin_results *not_backlinks = (drumlin_results *)&not_backlinks;
        CHECK(drumlin_object_get_backlinks(bo, "name", &not_backlinks) > DRUMLIN_NOT_FOUND); /* not a link */
        CHECK(not_backlinks == NULL);
        CHECK_ERR(drumlin_object_get_backlinks(bo, "@links.Person.nope", &not_backlinks), DRUMLIN_ERR_NO_SUCH_PROPERTY);
    }

    REQUIRE_OK(drumlin_begin_write(db));
    {
        drumlin_list *bob_dogs = NULL;
        drumlin_value link;
        int64_t bo_key = -1;
        int32_t dog_class = -1;
        REQUIRE_OK(drumlin_object_get_list(bob, "dogs", &bob_dogs));
        CHECK_OK(drumlin_object_key(bo, &bo_key));
        CHECK_OK(drumlin_class_index(db, "Dog", &dog_class));
        memset(&link, 0, sizeof link);
        link.type = DRUMLIN_TYPE_LINK;
        link.as.link.class_index = dog_class;
        link.as.link.key = bo_key;
        CHECK_OK(drumlin_list_insert(bob_dogs, 0, &link));
        drumlin_list_release(bob_dogs);
    }
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_results_count(owners, &n));
    CHECK(n == 2);

    /* Deleting a dog removes it from every list and nulls links to it. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_delete(bo));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_list_size(dogs, &n));
    CHECK(n == 1);

    drumlin_results_release(by_path);
    drumlin_results_release(owners);
    drumlin_list_release(dogs);
    drumlin_object_release(bo);
    drumlin_object_release(rex);
    drumlin_object_release(bob);
    drumlin_object_release(ann);
}

static void test_lists(void) {
    drumlin_object *ann = person(1);
    drumlin_list *tags = NULL;
    drumlin_value v;
    size_t n = 0, index = 99;
    int found = -1;
    char *json = NULL;

    REQUIRE_OK(drumlin_object_get_list(ann, "tags", &tags));
    v = string_value("a");
    CHECK_ERR(drumlin_list_insert(tags, 0, &v), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_list_insert(tags, 0, &v));
    v = string_value("c");
    CHECK_OK(drumlin_list_insert(tags, 1, &v));
    v = string_value("b");
    CHECK_OK(drumlin_list_insert(tags, 1, &v));
    CHECK_OK(drumlin_list_insert_json(tags, 3, "\"d\""));
    /* Bad calls change nothing. */
    CHECK_ERR(drumlin_list_insert(tags, 9, &v), DRUMLIN_ERR_INVALID_ARGUMENT);
    v = int_value(5);
    CHECK_ERR(drumlin_list_insert(tags, 0, &v), DRUMLIN_ERR_TYPE_MISMATCH);
    CHECK_ERR(drumlin_list_insert_json(tags, 0, "[1"), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(drumlin_list_erase(tags, 4), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(drumlin_list_move(tags, 0, 4), DRUMLIN_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(drumlin_commit(db));

    CHECK_OK(drumlin_list_to_json(tags, &json));
    CHECK_STR(json, "[\"a\",\"b\",\"c\",\"d\"]");
    drumlin_free(json);
    json = NULL;
    CHECK_OK(drumlin_list_size(tags, &n));
    CHECK(n == 4);
    memset(&v, 0, sizeof v);
    CHECK_OK(drumlin_list_get(tags, 1, &v));
    CHECK(v.type == DRUMLIN_TYPE_STRING);
    if (v.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "b", 1);
    CHECK_ERR(drumlin_list_get(tags, 4, &v), DRUMLIN_ERR_INVALID_ARGUMENT);
    v = string_value("c");
    CHECK_OK(drumlin_list_find(tags, &v, &index, &found));
    CHECK(found == 1 && index == 2);
    v = string_value("zz");
    index = 99;
    CHECK_OK(drumlin_list_find(tags, &v, &index, &found));
    CHECK(found == 0 && index == 99);

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_list_move(tags, 0, 3)); /* b c d a */
    v = string_value("B");
    CHECK_OK(drumlin_list_set(tags, 0, &v)); /* B c d a */
    CHECK_OK(drumlin_list_erase(tags, 1));   /* B d a */
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_list_to_json(tags, &json));
    CHECK_STR(json, "[\"B\",\"d\",\"a\"]");
    drumlin_free(json);
    json = NULL;

    /* The handle is live: a change made through JSON shows through it. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_update_json(ann, "{\"tags\": [\"x\", \"y\"]}"));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_list_size(tags, &n));
    CHECK(n == 2);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_list_clear(tags));
    REQUIRE_OK(drumlin_rollback(db));
    CHECK_OK(drumlin_list_size(tags, &n));
    CHECK(n == 2);

    /* A list of objects: JSON objects create new ones. */
    {
        drumlin_list *dogs = NULL;
        drumlin_object *dog = NULL;
        int64_t dogs_before = count_of("Dog");
        REQUIRE_OK(drumlin_object_get_list(ann, "dogs", &dogs));
        REQUIRE_OK(drumlin_begin_write(db));
        CHECK_OK(drumlin_list_insert_json(dogs, 0, "{\"name\": \"Dee\"}"));
        REQUIRE_OK(drumlin_commit(db));
        CHECK(count_of("Dog") == dogs_before + 1);
        memset(&v, 0, sizeof v);
        CHECK_OK(drumlin_list_get(dogs, 0, &v));
        CHECK(v.type == DRUMLIN_TYPE_LINK);
        CHECK_OK(drumlin_list_get_object(dogs, 0, &dog));
        CHECK(name_is(dog, "Dee"));
        drumlin_object_release(dog);
        CHECK(drumlin_list_get_object(tags, 0, &dog) != DRUMLIN_OK); /* not a list of objects */
        drumlin_list_release(dogs);
    }

    drumlin_list_release(tags);
    drumlin_object_release(ann);
}

static void test_sets(void) {
    drumlin_object *ann = person(1);
    drumlin_set *labels = NULL;
    drumlin_value v;
    size_t n = 0;
    int found = -1, changed = -1;
    char *json = NULL;

    REQUIRE_OK(drumlin_object_get_set(ann, "labels", &labels));
    REQUIRE_OK(drumlin_begin_write(db));
    v = string_value("x");
    CHECK_OK(drumlin_set_insert(labels, &v, &changed));
    CHECK(changed == 1);
    CHECK_OK(drumlin_set_insert(labels, &v, &changed));
    CHECK(changed == 0);
    v = string_value("y");
    CHECK_OK(drumlin_set_insert(labels, &v, NULL));
    v = int_value(3);
    CHECK_ERR(drumlin_set_insert(labels, &v, &changed), DRUMLIN_ERR_TYPE_MISMATCH);
    REQUIRE_OK(drumlin_commit(db));

    CHECK_OK(drumlin_set_size(labels, &n));
    CHECK(n == 2);
    memset(&v, 0, sizeof v);
    CHECK_OK(drumlin_set_get(labels, 0, &v)); /* insertion order */
    if (v.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "x", 1);
    else CHECK(v.type == DRUMLIN_TYPE_STRING);
    v = string_value("y");
    CHECK_OK(drumlin_set_find(labels, &v, &found));
    CHECK(found == 1);
    v = string_value("nope");
    CHECK_OK(drumlin_set_find(labels, &v, &found));
    CHECK(found == 0);
    CHECK_OK(drumlin_set_to_json(labels, &json));
    CHECK_STR(json, "[\"x\",\"y\"]");
    drumlin_free(json);
    json = NULL;

    REQUIRE_OK(drumlin_begin_write(db));
    v = string_value("x");
    CHECK_OK(drumlin_set_erase(labels, &v, &changed));
    CHECK(changed == 1);
    CHECK_OK(drumlin_set_erase(labels, &v, &changed));
    CHECK(changed == 0);
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_set_to_json(labels, &json));
    CHECK_STR(json, "[\"y\"]");
    drumlin_free(json);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_set_clear(labels));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_set_size(labels, &n));
    CHECK(n == 0);

    drumlin_set_release(labels);
    drumlin_object_release(ann);
}

static void test_dictionaries(void) {
    drumlin_object *ann = person(1);
    drumlin_dict *extra = NULL;
    drumlin_value key, v;
    size_t n = 0;
    int found = -1, erased = -1;
    char *json = NULL;

    REQUIRE_OK(drumlin_object_get_dict(ann, "extra", &extra));
    REQUIRE_OK(drumlin_begin_write(db));
    v = int_value(2);
    CHECK_OK(drumlin_dict_insert(extra, "b", &v));
    v = string_value("s");
    CHECK_OK(drumlin_dict_insert(extra, "a", &v));
    CHECK_OK(drumlin_dict_insert_json(extra, "n", "null"));
    CHECK(drumlin_dict_insert(extra, "has.dot", &v) != DRUMLIN_OK);
    CHECK(drumlin_dict_insert(extra, "$dollar", &v) != DRUMLIN_OK);
    CHECK_ERR(drumlin_dict_insert_json(extra, "bad", "{"), DRUMLIN_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(drumlin_commit(db));

    CHECK_OK(drumlin_dict_size(extra, &n));
    CHECK(n == 3);
    memset(&key, 0, sizeof key);
    memset(&v, 0, sizeof v);
    CHECK_OK(drumlin_dict_get(extra, 0, &key, &v)); /* ordered by key: a, b, n */
    CHECK(key.type == DRUMLIN_TYPE_STRING);
    if (key.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(key.as.string.data, key.as.string.size, "a", 1);
    if (v.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "s", 1);
    else CHECK(v.type == DRUMLIN_TYPE_STRING);
    CHECK_ERR(drumlin_dict_get(extra, 3, &key, &v), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_OK(drumlin_dict_find(extra, "b", &v, &found));
    CHECK(found == 1 && v.type == DRUMLIN_TYPE_INT && v.as.integer == 2);
    CHECK_OK(drumlin_dict_find(extra, "n", &v, &found));
    CHECK(found == 1 && v.type == DRUMLIN_TYPE_NULL); /* a key may hold null */
    CHECK_OK(drumlin_dict_find(extra, "zz", &v, &found));
    CHECK(found == 0);
    CHECK_OK(drumlin_dict_to_json(extra, &json));
    CHECK_STR(json, "{\"a\":\"s\",\"b\":2,\"n\":null}");
    drumlin_free(json);
    json = NULL;

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_dict_erase(extra, "a", &erased));
    CHECK(erased == 1);
    CHECK_OK(drumlin_dict_erase(extra, "a", &erased));
    CHECK(erased == 0);
    CHECK_OK(drumlin_dict_erase(extra, "b", NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_dict_size(extra, &n));
    CHECK(n == 1);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_dict_clear(extra));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_dict_size(extra, &n));
    CHECK(n == 0);

    drumlin_dict_release(extra);
    drumlin_object_release(ann);
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
    drumlin_object *ann = person(1);
    char *json = NULL, *deep = NULL, *payload = NULL;
    int rc;

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_update_json(ann, "{\"anything\": {\"list\": [1, 2], \"d\": {\"k\": \"v\"}}}"));
    CHECK_OK(drumlin_object_set_mixed_json(ann, "anything", "[\"list\", 0]", "10"));
    CHECK_OK(drumlin_object_append_mixed_json(ann, "anything", "[\"list\"]", "3"));
    CHECK_OK(drumlin_object_set_mixed_json(ann, "anything", "[\"d\", \"new\"]", "true"));
    CHECK_OK(drumlin_object_remove_mixed(ann, "anything", "[\"list\", 1]"));
    CHECK(drumlin_object_set_mixed_json(ann, "anything", "[\"list\", 7]", "1") != DRUMLIN_OK);
    CHECK(drumlin_object_remove_mixed(ann, "anything", "[\"nope\", 0]") != DRUMLIN_OK);
    CHECK_ERR(drumlin_object_set_mixed_json(ann, "anything", "[\"list\"", "1"), DRUMLIN_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(drumlin_commit(db));

    CHECK_OK(drumlin_object_get_mixed_json(ann, "anything", "[\"list\"]", &json));
    CHECK_STR(json, "[10,3]");
    drumlin_free(json);
    json = NULL;
    CHECK_OK(drumlin_object_get_mixed_json(ann, "anything", "[\"d\", \"new\"]", &json));
    CHECK_STR(json, "true");
    drumlin_free(json);
    json = NULL;
    CHECK_OK(drumlin_object_get_mixed_json(ann, "anything", "[\"d\", \"k\"]", &json));
    CHECK_STR(json, "\"v\"");
    drumlin_free(json);
    json = NULL;

    /* 100 levels of nested collections work; 101 is DRUMLIN_ERR_LIMIT. */
    REQUIRE_OK(drumlin_begin_write(db));
    deep = nested_lists(100);
    payload = (char *)malloc(strlen(deep) + 32);
    REQUIRE(payload != NULL);
    sprintf(payload, "{\"anything\": %s}", deep);
    CHECK_OK(drumlin_object_update_json(ann, payload));
    free(payload);
    free(deep);
    deep = nested_lists(101);
    payload = (char *)malloc(strlen(deep) + 32);
    REQUIRE(payload != NULL);
    sprintf(payload, "{\"anything\": %s}", deep);
    rc = drumlin_object_update_json(ann, payload);
    CHECK_RC(rc, DRUMLIN_ERR_LIMIT);
    free(payload);
    free(deep);
    REQUIRE_OK(drumlin_commit(db));

    drumlin_object_release(ann);
}

/* A JSON result of a call, copied and freed; NULL when the call fails. The caller frees it. */
static char *json_of(int rc, char *json) {
    char *copy = rc == DRUMLIN_OK && json ? strdup(json) : NULL;
    drumlin_free(json);
    return copy;
}

#define CHECK_JSON_RESULT(call_with_out, want)                                                    \
    do {                                                                                          \
        char *out_ = NULL;                                                                        \
        int rc_ = (call_with_out);                                                                \
        char *got_ = json_of(rc_, out_);                                                          \
        CHECK_STR(got_, want);                                                                    \
        free(got_);                                                                               \
    } while (0)

/* One object's list, set, dictionary, backlinks, embedded link and nested mixed value, each
 * through its own handle; the wrong kind of handle is MISUSE, not a crash. */
static void test_every_collection_of_one_object(void) {
    static const char *schema =
        "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"dogs\": \"Dog[]\","
        "   \"tags\": \"string<>\", \"byName\": \"Dog{}\", \"home\": \"Address\", \"extra\": \"mixed\"}},"
        " {\"name\": \"Dog\", \"primaryKey\": \"name\", \"properties\": {\"name\": \"string\","
        "   \"owners\": {\"type\": \"linkingObjects\", \"objectType\": \"Person\", \"property\": \"dogs\"}}},"
        " {\"name\": \"Address\", \"embedded\": true, \"properties\": {\"street\": \"string\"}}]";
    drumlin_db *own = NULL;
    drumlin_object *owner = NULL, *rex = NULL, *home = NULL;
    drumlin_list *dogs = NULL;
    drumlin_set *tags = NULL;
    drumlin_dict *by_name = NULL;
    drumlin_results *owners = NULL, *by_links = NULL;
    drumlin_value pk = int_value(1), x = string_value("x"), key, value;
    size_t size = 0, count = 0;
    int inserted = -1, found = 0;

    REQUIRE_OK(drumlin_open(":memory:", schema, NULL, &own));
    REQUIRE_OK(drumlin_begin_write(own));
    CHECK_OK(drumlin_create_json(own, "Person",
                                 "{\"id\": 1, \"dogs\": [{\"name\": \"Rex\"}], \"home\": {\"street\": \"S\"},"
                                 " \"extra\": {\"a\": [1]}}",
                                 DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_object_find(own, "Person", &pk, &owner));

    REQUIRE_OK(drumlin_object_get_list(owner, "dogs", &dogs));
    CHECK_OK(drumlin_list_insert_json(dogs, 1, "{\"name\": \"Bo\"}"));
    CHECK_OK(drumlin_list_insert_json(dogs, 0, "\"Bo\""));
    CHECK_RC(drumlin_list_insert_json(dogs, 9, "\"Bo\""), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_OK(drumlin_list_size(dogs, &size));
    CHECK(size == 3);
    CHECK_JSON_RESULT(drumlin_list_to_json(dogs, &out_), "[\"Bo\",\"Rex\",\"Bo\"]");
    REQUIRE_OK(drumlin_list_get_object(dogs, 1, &rex));
    CHECK_OK(drumlin_object_get_backlinks(rex, "owners", &owners));
    CHECK_OK(drumlin_results_count(owners, &count));
    CHECK(count == 1);
    CHECK_OK(drumlin_object_get_backlinks(rex, "@links.Person.dogs", &by_links));
    drumlin_results_release(by_links);
    CHECK_RC(drumlin_object_get_backlinks(rex, "@links.Person.tags", &by_links), DRUMLIN_ERR_NO_SUCH_PROPERTY);
    CHECK_OK(drumlin_list_erase(dogs, 0));
    CHECK_OK(drumlin_list_move(dogs, 0, 1));
    CHECK_JSON_RESULT(drumlin_list_to_json(dogs, &out_), "[\"Bo\",\"Rex\"]");
    /* Replacing with a value given as JSON: refused, the list is unchanged. */
    CHECK_RC(drumlin_list_set_json(dogs, 0, "\"Nobody\""), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_OK(drumlin_list_set_json(dogs, 0, "\"Rex\""));
    CHECK_JSON_RESULT(drumlin_list_to_json(dogs, &out_), "[\"Rex\",\"Rex\"]");
    CHECK_OK(drumlin_list_set_json(dogs, 0, "\"Bo\""));
    CHECK_RC(drumlin_list_set_json(dogs, 5, "\"Rex\""), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_JSON_RESULT(drumlin_list_to_json(dogs, &out_), "[\"Bo\",\"Rex\"]");
    /* Many elements in one call, all or nothing: the new Dog Cy is not kept when "Nobody" fails. */
    CHECK_RC(drumlin_list_insert_many_json(dogs, 1, "[{\"name\": \"Cy\"}, \"Nobody\"]"), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_RC(drumlin_list_insert_many_json(dogs, 1, "{}"), DRUMLIN_ERR_INVALID_ARGUMENT);
    /* Malformed JSON: a clear error, nothing changed. */
    CHECK_RC(drumlin_list_insert_many_json(dogs, 1, "[{\"name\": "), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_RC(drumlin_list_set_json(dogs, 0, "\"Rex"), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_JSON_RESULT(drumlin_list_to_json(dogs, &out_), "[\"Bo\",\"Rex\"]");
    CHECK_OK(drumlin_list_insert_many_json(dogs, 1, "[{\"name\": \"Cy\"}, \"Rex\"]"));
    CHECK_JSON_RESULT(drumlin_list_to_json(dogs, &out_), "[\"Bo\",\"Cy\",\"Rex\",\"Rex\"]");
    CHECK_OK(drumlin_list_erase(dogs, 1));
    CHECK_OK(drumlin_list_erase(dogs, 1));

    REQUIRE_OK(drumlin_object_get_set(owner, "tags", &tags));
    CHECK_OK(drumlin_set_insert(tags, &x, &inserted));
    CHECK(inserted == 1);
    CHECK_OK(drumlin_set_insert(tags, &x, &inserted));
    CHECK(inserted == 0);
    CHECK_OK(drumlin_set_insert_json(tags, "\"x\"", &inserted));
    CHECK(inserted == 0);
    CHECK_RC(drumlin_set_insert_json(tags, "[1]", &inserted), DRUMLIN_ERR_TYPE_MISMATCH);
    CHECK_RC(drumlin_set_insert_json(tags, "\"x", &inserted), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_RC(drumlin_set_insert_many_json(tags, "[\"y\",", NULL), DRUMLIN_ERR_INVALID_ARGUMENT);
    {
        size_t added = 9;
        CHECK_RC(drumlin_set_insert_many_json(tags, "[\"y\", 1]", &added), DRUMLIN_ERR_TYPE_MISMATCH);
        CHECK(added == 9);
        CHECK_OK(drumlin_set_insert_many_json(tags, "[\"x\", \"y\", \"y\"]", &added));
        CHECK(added == 1);
        drumlin_value y = string_value("y");
        CHECK_OK(drumlin_set_erase(tags, &y, NULL));
    }
    CHECK_OK(drumlin_set_find(tags, &x, &found));
    CHECK(found == 1);
    /* The wrong kind of handle is misuse, not a crash. */
    CHECK_RC(drumlin_list_size((drumlin_list *)tags, &size), DRUMLIN_ERR_MISUSE);

    REQUIRE_OK(drumlin_object_get_dict(owner, "byName", &by_name));
    CHECK_OK(drumlin_dict_insert_json(by_name, "r", "\"Rex\""));
    CHECK_RC(drumlin_dict_insert_json(by_name, "a.b", "\"Rex\""), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_RC(drumlin_dict_insert_many_json(by_name, "{\"s\": \"Rex\", \"t\": \"Nobody\"}"), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_RC(drumlin_dict_insert_many_json(by_name, "[]"), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_RC(drumlin_dict_insert_many_json(by_name, "{\"s\": "), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_OK(drumlin_dict_size(by_name, &size));
    CHECK(size == 1);
    memset(&key, 0, sizeof key);
    memset(&value, 0, sizeof value);
    CHECK_OK(drumlin_dict_get(by_name, 0, &key, &value));
    CHECK(key.type == DRUMLIN_TYPE_STRING);
    if (key.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(key.as.string.data, key.as.string.size, "r", 1);
    CHECK(value.type == DRUMLIN_TYPE_LINK);

    CHECK_OK(drumlin_object_get_linked(owner, "home", &home));
    CHECK_RC(drumlin_object_set_link(owner, "home", home), DRUMLIN_ERR_INVALID_ARGUMENT); /* embedded: one owner */
    drumlin_object_release(home);

    CHECK_OK(drumlin_object_append_mixed_json(owner, "extra", "[\"a\"]", "2"));
    CHECK_OK(drumlin_object_set_mixed_json(owner, "extra", "[\"b\"]", "{\"c\": null}"));
    CHECK_JSON_RESULT(drumlin_object_get_mixed_json(owner, "extra", "[]", &out_), "{\"a\":[1,2],\"b\":{\"c\":null}}");
    CHECK_OK(drumlin_object_remove_mixed(owner, "extra", "[\"a\", 0]"));
    CHECK_RC(drumlin_object_remove_mixed(owner, "extra", "[true]"), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_JSON_RESULT(drumlin_object_to_json_depth(owner, 1, &out_),
                      "{\"id\":1,\"dogs\":[{\"name\":\"Bo\"},{\"name\":\"Rex\"}],\"tags\":[\"x\"],"
                      "\"byName\":{\"r\":{\"name\":\"Rex\"}},\"home\":{\"street\":\"S\"},"
                      "\"extra\":{\"a\":[2],\"b\":{\"c\":null}}}");
    CHECK_OK(drumlin_commit(own));

    drumlin_dict_release(by_name);
    drumlin_set_release(tags);
    drumlin_results_release(owners);
    drumlin_object_release(rex);
    drumlin_list_release(dogs);
    drumlin_object_release(owner);
    CHECK_OK(drumlin_close(own));
}

int main(void) {
    char dir[2048], path[4096];
    test_dir_make(dir, sizeof dir, "collections");
    snprintf(path, sizeof path, "%s/collections.drumlin", dir);
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));

    test_links_and_backlinks();
    test_lists();
    test_sets();
    test_dictionaries();
    test_nested_mixed();
    test_every_collection_of_one_object();

    CHECK_OK(drumlin_close(db));
    test_dir_remove(dir);
    return check_report("collections");
}
