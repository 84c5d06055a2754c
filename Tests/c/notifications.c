/*
 * notifications.c — observers through the C API: the change sets delivered after a commit on the
 * same handle and on drumlin_refresh() for commits by another handle and another process; object
 * changes with old and new values; list and dictionary changes; key-path filters; rollbacks that
 * deliver nothing; free_userdata running exactly once; a write from inside a callback refused;
 * exact list change sets (issue #45, item 1); callbacks reading the version their change set
 * describes while another handle commits (issue #45, item 2).
 */
#include "check.h"

#include <stdint.h>
#include <sys/wait.h>

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"_id\", \"properties\": {"
    "   \"_id\": \"int\", \"name\": \"string\", \"age\": \"int?\", \"tags\": \"string[]\", \"extra\": \"mixed{}\"}}]";

/* What one observer received: the last change set, flattened to text, and how many calls. */
typedef struct {
    int calls;
    char last[512];
    int frees;
    drumlin_db *db;
    int write_rc;
} received;

static void append_indices(char *out, size_t size, const drumlin_changes *changes, int kind, const char *label) {
    const size_t *indices = NULL;
    size_t count = 0, i;
    char piece[64];
    if (drumlin_changes_indices(changes, kind, &indices, &count) != DRUMLIN_OK) return;
    strncat(out, label, size - strlen(out) - 1);
    for (i = 0; i < count; i++) {
        snprintf(piece, sizeof piece, "%s%zu", i ? "," : "", indices[i]);
        strncat(out, piece, size - strlen(out) - 1);
    }
    strncat(out, " ", size - strlen(out) - 1);
}

static void on_collection(void *userdata, const drumlin_changes *changes) {
    received *r = userdata;
    const size_t *indices = NULL;
    const char *const *keys = NULL;
    size_t count = 99;
    r->calls++;
    /* Bad arguments: a clear error, nothing handed out. */
    CHECK_ERR(drumlin_changes_indices(changes, 7, &indices, &count), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(drumlin_changes_keys(changes, -1, &keys, &count), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(drumlin_changes_indices(changes, DRUMLIN_CHANGE_DELETIONS, NULL, &count), DRUMLIN_ERR_MISUSE);
    CHECK(indices == NULL && keys == NULL);
    r->last[0] = 0;
    append_indices(r->last, sizeof r->last, changes, DRUMLIN_CHANGE_DELETIONS, "del:");
    append_indices(r->last, sizeof r->last, changes, DRUMLIN_CHANGE_INSERTIONS, "ins:");
    append_indices(r->last, sizeof r->last, changes, DRUMLIN_CHANGE_MODIFICATIONS, "mod:");
    if (r->db) {
        r->write_rc = drumlin_begin_write(r->db);
    }
}

static void on_object(void *userdata, const drumlin_changes *changes) {
    received *r = userdata;
    int deleted = -1, has_values = -1;
    const char *const *names = NULL;
    size_t count = 0, i;
    drumlin_value old_value, new_value;
    char piece[128];
    r->calls++;
    r->last[0] = 0;
    CHECK_OK(drumlin_changes_deleted(changes, &deleted));
    if (deleted) {
        strcpy(r->last, "deleted");
        return;
    }
    CHECK_OK(drumlin_changes_properties(changes, &names, &count));
    for (i = 0; i < count; i++) {
        CHECK_OK(drumlin_changes_property_values(changes, i, &old_value, &new_value, &has_values));
        if (has_values && new_value.type == DRUMLIN_TYPE_INT && old_value.type == DRUMLIN_TYPE_INT) {
            snprintf(piece, sizeof piece, "%s:%lld->%lld ", names[i], (long long)old_value.as.integer,
                     (long long)new_value.as.integer);
        } else if (has_values && new_value.type == DRUMLIN_TYPE_STRING) {
            snprintf(piece, sizeof piece, "%s:->%.*s ", names[i], (int)new_value.as.string.size, new_value.as.string.data);
        } else {
            snprintf(piece, sizeof piece, "%s ", names[i]);
        }
        strncat(r->last, piece, sizeof r->last - strlen(r->last) - 1);
    }
    CHECK_ERR(drumlin_changes_property_values(changes, count, &old_value, &new_value, NULL), DRUMLIN_ERR_INVALID_ARGUMENT);
}

static void on_dict(void *userdata, const drumlin_changes *changes) {
    received *r = userdata;
    const char *const *keys = NULL;
    size_t count = 0, i;
    int kind;
    const char *labels[] = {"del:", "ins:", "mod:"};
    r->calls++;
    r->last[0] = 0;
    for (kind = DRUMLIN_CHANGE_DELETIONS; kind <= DRUMLIN_CHANGE_MODIFICATIONS; kind++) {
        CHECK_OK(drumlin_changes_keys(changes, kind, &keys, &count));
        strncat(r->last, labels[kind], sizeof r->last - strlen(r->last) - 1);
        for (i = 0; i < count; i++) {
            strncat(r->last, keys[i], sizeof r->last - strlen(r->last) - 1);
            strncat(r->last, i + 1 < count ? "," : "", sizeof r->last - strlen(r->last) - 1);
        }
        strncat(r->last, " ", sizeof r->last - strlen(r->last) - 1);
    }
}

static void count_free(void *userdata) { ((received *)userdata)->frees++; }

static void exec_ok(drumlin_db *db, const char *class_name, const char *json) {
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, class_name, json, DRUMLIN_UPDATE_MODIFIED, NULL));
    REQUIRE_OK(drumlin_commit(db));
}

static void results_and_objects(const char *path) {
    drumlin_db *db = NULL;
    drumlin_results *people = NULL, *sorted = NULL;
    drumlin_object *ann = NULL;
    drumlin_token *token = NULL, *sorted_token = NULL, *object_token = NULL, *filtered_token = NULL;
    received all = {0}, by_age = {0}, object = {0}, filtered = {0};
    drumlin_value pk;

    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    exec_ok(db, "Person", "{\"_id\": 1, \"name\": \"Ann\", \"age\": 30}");
    exec_ok(db, "Person", "{\"_id\": 2, \"name\": \"Bob\", \"age\": 20}");
    REQUIRE_OK(drumlin_query(db, "Person", NULL, NULL, &people));
    REQUIRE_OK(drumlin_results_sort(people, "age ASC", &sorted));
    REQUIRE_OK(drumlin_results_observe(people, NULL, on_collection, &all, count_free, &token));
    REQUIRE_OK(drumlin_results_observe(sorted, NULL, on_collection, &by_age, count_free, &sorted_token));
    REQUIRE_OK(drumlin_results_observe(people, "[\"age\"]", on_collection, &filtered, count_free, &filtered_token));
    memset(&pk, 0, sizeof pk);
    pk.type = DRUMLIN_TYPE_INT;
    pk.as.integer = 1;
    REQUIRE_OK(drumlin_object_find(db, "Person", &pk, &ann));
    REQUIRE_OK(drumlin_object_observe(ann, NULL, on_object, &object, count_free, &object_token));

    /* An insert: at the end in creation order, first by age. */
    exec_ok(db, "Person", "{\"_id\": 3, \"name\": \"Cy\", \"age\": 10}");
    CHECK(all.calls == 1);
    CHECK_STR(all.last, "del: ins:2 mod: ");
    CHECK_STR(by_age.last, "del: ins:0 mod: ");

    /* A modification that reorders the sorted results, and one filtered out by key paths. */
    exec_ok(db, "Person", "{\"_id\": 1, \"age\": 5}");
    CHECK_STR(all.last, "del: ins: mod:0 ");
    CHECK_STR(by_age.last, "del:2 ins:0 mod: ");
    CHECK_STR(object.last, "age:30->5 ");
    CHECK(filtered.calls == 2);
    exec_ok(db, "Person", "{\"_id\": 1, \"name\": \"Anna\"}");
    CHECK(filtered.calls == 2);
    CHECK_STR(object.last, "name:->Anna ");

    /* A rollback delivers nothing. */
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Person", "{\"_id\": 9, \"name\": \"X\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_rollback(db));
    CHECK(all.calls == 3);

    /* A commit without notifying one token. */
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Person", "{\"_id\": 4, \"name\": \"Di\", \"age\": 40}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_commit_without_notifying(db, &sorted_token, 1));
    CHECK(all.calls == 4);
    CHECK_STR(all.last, "del: ins:3 mod: ");
    CHECK_STR(by_age.last, "del: ins: mod:0 ");   /* still the rename before */

    /* A write from inside a callback is refused, and no transaction is left open. */
    all.db = db;
    exec_ok(db, "Person", "{\"_id\": 5, \"name\": \"Ed\"}");
    CHECK(all.write_rc == DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    all.db = NULL;

    /* A deletion; the object observer reports it, and its token still frees once. */
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_object_delete(ann));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_STR(all.last, "del:0 ins: mod: ");
    CHECK_STR(object.last, "deleted");

    /* Registering inside a write transaction is refused (and frees its userdata). */
    {
        received refused = {0};
        drumlin_token *none = NULL;
        REQUIRE_OK(drumlin_begin_write(db));
        CHECK_ERR(drumlin_results_observe(people, NULL, on_collection, &refused, count_free, &none),
                  DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
        CHECK(none == NULL && refused.frees == 1);
        REQUIRE_OK(drumlin_rollback(db));
    }
    CHECK_ERR(drumlin_results_observe(people, "{\"age\": 1}", on_collection, &filtered, NULL, &filtered_token),
              DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(drumlin_results_observe(people, "[\"nope\"]", on_collection, &filtered, NULL, &filtered_token),
              DRUMLIN_ERR_NO_SUCH_PROPERTY);
    CHECK_ERR(drumlin_results_observe(people, "[\"age\"", on_collection, &filtered, NULL, &filtered_token),
              DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(drumlin_results_observe(people, "[1]", on_collection, &filtered, NULL, &filtered_token),
              DRUMLIN_ERR_INVALID_ARGUMENT);

    /* Releasing tokens stops delivery and frees userdata exactly once; closing frees the rest. */
    drumlin_token_release(token);
    CHECK(all.frees == 1);
    exec_ok(db, "Person", "{\"_id\": 6, \"name\": \"Fay\"}");
    CHECK(all.calls == 6);
    CHECK(by_age.frees == 0);
    drumlin_token_release(object_token);
    CHECK(object.frees == 1);
    CHECK_OK(drumlin_close(db));
    CHECK(by_age.frees == 1 && filtered.frees == 1);
    drumlin_token_release(sorted_token);
    drumlin_token_release(filtered_token);
    CHECK(by_age.frees == 1 && filtered.frees == 1 && all.frees == 1);
    drumlin_object_release(ann);
    drumlin_results_release(sorted);
    drumlin_results_release(people);
}

static void collections(const char *path) {
    drumlin_db *db = NULL;
    drumlin_object *ann = NULL;
    drumlin_list *tags = NULL;
    drumlin_dict *extra = NULL;
    drumlin_token *list_token = NULL, *dict_token = NULL;
    received list = {0}, dict = {0};
    drumlin_value pk, v;

    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    exec_ok(db, "Person", "{\"_id\": 10, \"name\": \"Lu\", \"tags\": [\"a\", \"b\"], \"extra\": {\"k\": 1}}");
    memset(&pk, 0, sizeof pk);
    pk.type = DRUMLIN_TYPE_INT;
    pk.as.integer = 10;
    REQUIRE_OK(drumlin_object_find(db, "Person", &pk, &ann));
    REQUIRE_OK(drumlin_object_get_list(ann, "tags", &tags));
    REQUIRE_OK(drumlin_object_get_dict(ann, "extra", &extra));
    REQUIRE_OK(drumlin_list_observe(tags, NULL, on_collection, &list, count_free, &list_token));
    REQUIRE_OK(drumlin_dict_observe(extra, on_dict, &dict, count_free, &dict_token));

    memset(&v, 0, sizeof v);
    v.type = DRUMLIN_TYPE_STRING;
    v.as.string.data = "z";
    v.as.string.size = 1;
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_list_insert(tags, 0, &v));
    REQUIRE_OK(drumlin_dict_insert_json(extra, "n", "2"));
    REQUIRE_OK(drumlin_dict_insert_json(extra, "k", "5"));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_STR(list.last, "del: ins:0 mod: ");
    CHECK_STR(dict.last, "del: ins:n mod:k ");

    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_list_set(tags, 2, &v));
    REQUIRE_OK(drumlin_dict_erase(extra, "k", NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_STR(list.last, "del: ins: mod:2 ");
    CHECK_STR(dict.last, "del:k ins: mod: ");
    CHECK(list.calls == 2 && dict.calls == 2);

    drumlin_token_release(list_token);
    drumlin_token_release(dict_token);
    CHECK(list.frees == 1 && dict.frees == 1);
    drumlin_list_release(tags);
    drumlin_dict_release(extra);
    drumlin_object_release(ann);
    CHECK_OK(drumlin_close(db));
}

static drumlin_value text_value(const char *text) {
    drumlin_value v;
    memset(&v, 0, sizeof v);
    v.type = DRUMLIN_TYPE_STRING;
    v.as.string.data = text;
    v.as.string.size = strlen(text);
    return v;
}

static drumlin_list *tags_of(drumlin_db *db, int64_t id, drumlin_object **out_object) {
    drumlin_value pk;
    drumlin_list *list = NULL;
    memset(&pk, 0, sizeof pk);
    pk.type = DRUMLIN_TYPE_INT;
    pk.as.integer = id;
    REQUIRE_OK(drumlin_object_find(db, "Person", &pk, out_object));
    REQUIRE_OK(drumlin_object_get_list(*out_object, "tags", &list));
    return list;
}

/* Issue #45, item 1: [1, 2, 3, 4], delete index 0, then index 1, append 5: [2, 4, 5]. The change
 * set deletes old indices 0 and 2 and inserts new index 2 (it said deletions 0, modifications 2,
 * which turns the old list into [2, 3, 5]). */
static void exact_list_change(const char *path) {
    drumlin_db *db = NULL;
    drumlin_object *owner = NULL;
    drumlin_list *tags = NULL;
    drumlin_token *token = NULL;
    received r = {0};
    drumlin_value five = text_value("5");

    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    exec_ok(db, "Person", "{\"_id\": 20, \"name\": \"Xs\", \"tags\": [\"1\", \"2\", \"3\", \"4\"]}");
    tags = tags_of(db, 20, &owner);
    REQUIRE_OK(drumlin_list_observe(tags, NULL, on_collection, &r, NULL, &token));
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_list_erase(tags, 0));
    REQUIRE_OK(drumlin_list_erase(tags, 1));
    REQUIRE_OK(drumlin_list_insert(tags, 2, &five));
    REQUIRE_OK(drumlin_commit(db));
    CHECK(r.calls == 1);
    CHECK_STR(r.last, "del:0,2 ins:2 mod: ");
    drumlin_token_release(token);
    drumlin_list_release(tags);
    drumlin_object_release(owner);
    CHECK_OK(drumlin_close(db));
}

/* What a callback reads (issue #45, item 2): another handle commits from inside the callback;
 * the observed list, read in the callback, is still the version the change set describes. */
typedef struct {
    drumlin_list *observed;    /* the observer's list */
    drumlin_db *writer;
    drumlin_list *written;     /* the same list through the writer */
    int calls;
    size_t sizes[4];           /* the observed list's size in each call */
    char last_element[16];     /* its last element in the last call */
} versioned;

static void on_versioned(void *userdata, const drumlin_changes *changes) {
    versioned *v = userdata;
    drumlin_value x = text_value("later"), last;
    size_t size = 0;
    (void)changes;
    /* Another handle commits first, then the callback reads. */
    CHECK_OK(drumlin_begin_write(v->writer));
    CHECK_OK(drumlin_list_insert(v->written, 0, &x));
    CHECK_OK(drumlin_commit(v->writer));
    CHECK_OK(drumlin_list_size(v->observed, &size));
    if (v->calls < 4) v->sizes[v->calls] = size;
    v->calls++;
    memset(&last, 0, sizeof last);
    if (size > 0 && drumlin_list_get(v->observed, size - 1, &last) == DRUMLIN_OK && last.type == DRUMLIN_TYPE_STRING) {
        snprintf(v->last_element, sizeof v->last_element, "%.*s", (int)last.as.string.size, last.as.string.data);
    }
}

static void callbacks_read_their_version(const char *path) {
    drumlin_db *observer = NULL, *writer = NULL;
    drumlin_object *owner = NULL, *writer_owner = NULL;
    drumlin_token *token = NULL;
    versioned v;
    drumlin_value a = text_value("a"), b = text_value("b");
    int changed = -1;
    size_t size = 0;

    memset(&v, 0, sizeof v);
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &observer));
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &writer));
    exec_ok(observer, "Person", "{\"_id\": 30, \"name\": \"Versions\", \"tags\": []}");
    v.observed = tags_of(observer, 30, &owner);
    v.written = tags_of(writer, 30, &writer_owner);
    v.writer = writer;
    REQUIRE_OK(drumlin_list_observe(v.observed, NULL, on_versioned, &v, NULL, &token));

    /* Delivered after the observer's own commit: [a], whatever the writer adds meanwhile. */
    REQUIRE_OK(drumlin_begin_write(observer));
    REQUIRE_OK(drumlin_list_insert(v.observed, 0, &a));
    REQUIRE_OK(drumlin_commit(observer));
    CHECK(v.calls == 1 && v.sizes[0] == 1);
    CHECK_STR(v.last_element, "a");
    /* After the callback the handle reads the latest commit again: "later" then "a". */
    CHECK_OK(drumlin_list_size(v.observed, &size));
    CHECK(size == 2);

    /* Delivered by drumlin_refresh(): the writer's commit ("later", "a"), not the one the
     * callback makes. */
    CHECK_OK(drumlin_refresh(observer, &changed));
    CHECK(changed == 1 && v.calls == 2 && v.sizes[1] == 2);
    CHECK_STR(v.last_element, "a");
    CHECK_OK(drumlin_list_size(v.observed, &size));
    CHECK(size == 3);

    /* The other handle's append, then the observer's: each delivery reads its own version. */
    REQUIRE_OK(drumlin_begin_write(writer));
    REQUIRE_OK(drumlin_list_insert(v.written, 3, &b));
    REQUIRE_OK(drumlin_commit(writer));
    CHECK_OK(drumlin_refresh(observer, &changed));
    CHECK(changed == 1 && v.calls == 3 && v.sizes[2] == 4);
    CHECK_STR(v.last_element, "b");

    drumlin_token_release(token);
    drumlin_list_release(v.observed);
    drumlin_list_release(v.written);
    drumlin_object_release(owner);
    drumlin_object_release(writer_owner);
    CHECK_OK(drumlin_close(writer));
    CHECK_OK(drumlin_close(observer));
}

/* Commits by another handle, then by another process, arrive on drumlin_refresh(). */
static void other_writers(const char *self_path, const char *path) {
    drumlin_db *observer = NULL, *writer = NULL;
    drumlin_results *people = NULL;
    drumlin_token *token = NULL;
    received r = {0};
    int changed = -1;
    pid_t child;
    int status = 0;

    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &observer));
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &writer));
    REQUIRE_OK(drumlin_query(observer, "Person", "_id >= 100", NULL, &people));
    REQUIRE_OK(drumlin_results_observe(people, NULL, on_collection, &r, NULL, &token));

    CHECK_OK(drumlin_has_changes(observer, &changed));
    CHECK(changed == 0);
    exec_ok(writer, "Person", "{\"_id\": 100, \"name\": \"W\"}");
    CHECK(r.calls == 0);
    CHECK_OK(drumlin_has_changes(observer, &changed));
    CHECK(changed == 1);
    CHECK_OK(drumlin_refresh(observer, &changed));
    CHECK(changed == 1 && r.calls == 1);
    CHECK_STR(r.last, "del: ins:0 mod: ");
    CHECK_OK(drumlin_refresh(observer, &changed));
    CHECK(changed == 0 && r.calls == 1);

    child = fork();
    if (child == 0) {
        /* A fresh process (exec, so it shares no state with this one): see write_as_child(). */
        execl(self_path, self_path, "--write", path, (char *)NULL);
        _exit(127);
    }
    REQUIRE(child > 0);
    waitpid(child, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(r.calls == 1);
    CHECK_OK(drumlin_refresh(observer, &changed));
    CHECK(changed == 1 && r.calls == 2);
    CHECK_STR(r.last, "del: ins:1 mod:0 ");

    drumlin_token_release(token);
    drumlin_results_release(people);
    CHECK_OK(drumlin_close(writer));
    CHECK_OK(drumlin_close(observer));
}

/* The other process of other_writers(): one commit that inserts and modifies. */
static int write_as_child(const char *path) {
    drumlin_db *db = NULL;
    if (drumlin_open(path, SCHEMA, NULL, &db) != DRUMLIN_OK) return 2;
    if (drumlin_begin_write(db) != DRUMLIN_OK) return 3;
    if (drumlin_create_json(db, "Person", "{\"_id\": 101, \"name\": \"P\"}", DRUMLIN_UPDATE_NEVER, NULL) != DRUMLIN_OK) return 4;
    if (drumlin_create_json(db, "Person", "{\"_id\": 100, \"name\": \"W2\"}", DRUMLIN_UPDATE_MODIFIED, NULL) != DRUMLIN_OK) return 5;
    if (drumlin_commit(db) != DRUMLIN_OK) return 6;
    return drumlin_close(db) == DRUMLIN_OK ? 0 : 7;
}

int main(int argc, char **argv) {
    char dir[2048], path[4096], self_path[4096];
    ssize_t length;
    if (argc == 3 && strcmp(argv[1], "--write") == 0) return write_as_child(argv[2]);
    length = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
    REQUIRE(length > 0);
    self_path[length] = 0;
    test_dir_make(dir, sizeof dir, "notifications");
    snprintf(path, sizeof path, "%s/observed.drumlin", dir);
    results_and_objects(path);
    collections(path);
    other_writers(self_path, path);
    exact_list_change(path);
    callbacks_read_their_version(path);
    test_dir_remove(dir);
    return check_report("notifications");
}
