/*
 * mixed_links.c — links inside mixed values (Realm's AnyRealmValue.object) through the C API:
 *
 *   - a payload's {"$link": {"class": "Dog", "key": <drumlin_object_key()>}} and a typed
 *     DRUMLIN_TYPE_LINK value store an object in a mixed property and a mixed list;
 *   - reads give DRUMLIN_TYPE_LINK (class index, object key), drumlin_object_get_linked follows
 *     a mixed property, JSON prints the $link form;
 *   - queries: == obj(...), == $0 with a $link argument, @type == 'objectlink', mixed.name;
 *   - an embedded target is DRUMLIN_ERR_NOT_SUPPORTED, a missing one DRUMLIN_ERR_INVALIDATED_OBJECT,
 *     each changing nothing;
 *   - deleting the target makes the mixed property null and removes the list element.
 *
 * Usage: drumlin_test_mixed_links   (the database goes to a fresh directory under $TMPDIR or /tmp)
 */
#include "check.h"

#include <inttypes.h>
#include <stdint.h>

static const char *SCHEMA =
    "[{\"name\": \"Holder\", \"primaryKey\": \"id\", \"properties\": {"
    "   \"id\": \"int\", \"any\": \"mixed\", \"items\": \"mixed[]\", \"spot\": \"Spot\"}},"
    " {\"name\": \"Dog\", \"primaryKey\": \"name\", \"properties\": {\"name\": \"string\", \"age\": \"int?\"}},"
    " {\"name\": \"Spot\", \"embedded\": true, \"properties\": {\"street\": \"string\"}}]";

static int64_t count(drumlin_db *db, const char *query, const char *args_json) {
    int64_t n = -1;
    CHECK_OK(drumlin_count(db, "Holder", query, args_json, &n));
    return n;
}

int main(void) {
    char dir[2048], path[4096], json[512];
    drumlin_db *db = NULL;
    drumlin_object *rex = NULL, *bo = NULL, *holder = NULL, *followed = NULL, *spot = NULL;
    int64_t rex_key = 0, bo_key = 0;
    int32_t dog_index = -1;

    test_dir_make(dir, sizeof dir, "mixed_links");
    snprintf(path, sizeof path, "%s/mixed_links.drumlin", dir);
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    REQUIRE_OK(drumlin_class_index(db, "Dog", &dog_index));

    /* Writes: the $link form in a payload, a typed DRUMLIN_TYPE_LINK value in a list. */
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_object_create_json(db, "Dog", "{\"name\": \"Rex\", \"age\": 3}", DRUMLIN_UPDATE_NEVER, &rex));
    REQUIRE_OK(drumlin_object_create_json(db, "Dog", "{\"name\": \"Bo\", \"age\": 9}", DRUMLIN_UPDATE_NEVER, &bo));
    REQUIRE_OK(drumlin_object_key(rex, &rex_key));
    REQUIRE_OK(drumlin_object_key(bo, &bo_key));
    snprintf(json, sizeof json, "{\"id\": 1, \"any\": {\"$link\": {\"class\": \"Dog\", \"key\": %" PRId64 "}},"
             " \"spot\": {\"street\": \"Main\"}}", rex_key);
    REQUIRE_OK(drumlin_object_create_json(db, "Holder", json, DRUMLIN_UPDATE_NEVER, &holder));
    drumlin_list *items = NULL;
    REQUIRE_OK(drumlin_object_get_list(holder, "items", &items));
    drumlin_value link = {0};
    link.type = DRUMLIN_TYPE_LINK;
    link.as.link.class_index = dog_index;
    link.as.link.key = bo_key;
    CHECK_OK(drumlin_list_insert(items, 0, &link));
    link.as.link.key = rex_key;
    CHECK_OK(drumlin_list_insert(items, 1, &link));

    /* Refusals: an embedded object, a missing object; nothing changes. */
    REQUIRE_OK(drumlin_object_get_linked(holder, "spot", &spot));
    int64_t spot_key = 0;
    int32_t spot_index = -1;
    REQUIRE_OK(drumlin_object_key(spot, &spot_key));
    REQUIRE_OK(drumlin_object_class_index(spot, &spot_index));
    drumlin_value bad = {0};
    bad.type = DRUMLIN_TYPE_LINK;
    bad.as.link.class_index = spot_index;
    bad.as.link.key = spot_key;
    CHECK_ERR(drumlin_object_set(holder, "any", &bad), DRUMLIN_ERR_NOT_SUPPORTED);
    CHECK_STR(drumlin_last_error_message(), "A mixed value cannot hold an embedded object ('Spot'), as in Realm.");
    bad.as.link.class_index = dog_index;
    bad.as.link.key = 999;
    CHECK_ERR(drumlin_list_insert(items, 0, &bad), DRUMLIN_ERR_INVALIDATED_OBJECT);
    CHECK_ERR(drumlin_create_json(db, "Holder", "{\"id\": 2, \"any\": {\"$link\": {\"class\": \"Cat\", \"key\": 1}}}",
                                  DRUMLIN_UPDATE_NEVER, NULL), DRUMLIN_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(drumlin_commit(db));
    size_t size = 0;
    CHECK_OK(drumlin_list_size(items, &size));
    CHECK(size == 2);
    CHECK(count(db, NULL, NULL) == 1);

    /* Reads: a typed link, the object through drumlin_object_get_linked, the $link JSON form. */
    drumlin_value got = {0};
    CHECK_OK(drumlin_object_get(holder, "any", &got));
    CHECK(got.type == DRUMLIN_TYPE_LINK);
    CHECK(got.as.link.class_index == dog_index && got.as.link.key == rex_key);
    CHECK_OK(drumlin_object_get_linked(holder, "any", &followed));
    int64_t followed_key = 0;
    CHECK_OK(drumlin_object_key(followed, &followed_key));
    CHECK(followed_key == rex_key);
    drumlin_object_release(followed);
    followed = NULL;
    CHECK_OK(drumlin_list_get(items, 0, &got));
    CHECK(got.type == DRUMLIN_TYPE_LINK && got.as.link.key == bo_key);
    char *text = NULL;
    CHECK_OK(drumlin_object_to_json(holder, &text));
    snprintf(json, sizeof json, "\"any\":{\"$link\":{\"class\":\"Dog\",\"key\":%" PRId64 "}}", rex_key);
    CHECK_JSON_HAS(text, json);
    drumlin_free(text);

    /* Queries. */
    CHECK(count(db, "any == obj('Dog', 'Rex')", NULL) == 1);
    CHECK(count(db, "any == obj('Dog', 'Bo')", NULL) == 0);
    snprintf(json, sizeof json, "[{\"$link\": {\"class\": \"Dog\", \"key\": %" PRId64 "}}]", rex_key);
    CHECK(count(db, "any == $0", json) == 1);
    CHECK(count(db, "any != $0", json) == 0);
    CHECK(count(db, "any.@type == 'objectlink'", NULL) == 1);
    CHECK(count(db, "any.name == 'Rex'", NULL) == 1);
    CHECK(count(db, "any.name == 'Bo'", NULL) == 0);
    CHECK(count(db, "ANY items.age > 5", NULL) == 1);

    /* Deleting the target clears it: the mixed property becomes null, the list element goes. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_delete(rex));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_object_get(holder, "any", &got));
    CHECK(got.type == DRUMLIN_TYPE_NULL);
    CHECK_RC(drumlin_object_get_linked(holder, "any", &followed), DRUMLIN_NOT_FOUND);
    CHECK_OK(drumlin_list_size(items, &size));
    CHECK(size == 1);
    CHECK(count(db, "any == NULL", NULL) == 1);

    drumlin_list_release(items);
    drumlin_object_release(rex);
    drumlin_object_release(bo);
    drumlin_object_release(holder);
    drumlin_object_release(spot);
    CHECK_OK(drumlin_close(db));
    test_dir_remove(dir);
    return check_report("mixed_links");
}
