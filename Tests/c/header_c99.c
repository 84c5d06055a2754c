/*
 * header_c99.c — cairn.h compiles as strict C99 (-std=c99 -Wall -Wextra -Werror -pedantic) and
 * its types and constants are usable from C. It also runs: the loaded library must report the
 * version and ABI this header was written for.
 */
#include "cairn.h"

#include <stdio.h>
#include <string.h>

/* Every callback type and handle type must be nameable from C. */
static void free_nothing(void *userdata) { (void)userdata; }

int main(void) {
    cairn_db *db = NULL;
    cairn_object *object = NULL;
    cairn_results *results = NULL;
    cairn_list *list = NULL;
    cairn_set *set = NULL;
    cairn_dict *dict = NULL;
    cairn_token *token = NULL;
    cairn_options *options = NULL;
    cairn_free_fn free_fn = free_nothing;
    cairn_value value;
    cairn_property_info info;
    cairn_link link;
    cairn_timestamp timestamp;
    cairn_decimal128 decimal;
    cairn_object_id object_id;
    cairn_uuid uuid;
    int failures = 0;

    memset(&value, 0, sizeof value);
    memset(&info, 0, sizeof info);
    value.type = CAIRN_TYPE_INT;
    value.as.integer = INT64_C(42);
    link.class_index = 0;
    link.key = 1;
    timestamp.seconds = -1;
    timestamp.nanoseconds = 999999999;
    decimal.w[0] = 0;
    decimal.w[1] = 0;
    memset(object_id.bytes, 0, sizeof object_id.bytes);
    memset(uuid.bytes, 0, sizeof uuid.bytes);
    free_fn(NULL);
    (void)db; (void)object; (void)results; (void)list; (void)set; (void)dict; (void)token;
    (void)options; (void)link; (void)timestamp; (void)decimal;

    /* Layout facts the header promises. */
    if (sizeof object_id.bytes != 12 || sizeof uuid.bytes != 16) failures++;
    if (value.as.integer != 42 || info.name != NULL) failures++;

    /* Status codes and update modes have their documented numbers. */
    if (CAIRN_OK != 0 || CAIRN_NOT_FOUND != 1 || CAIRN_ERR_MISUSE != 2 ||
        CAIRN_ERR_DUPLICATE_PRIMARY_KEY != 12 || CAIRN_ERR_INTERNAL != 24) failures++;
    if (CAIRN_UPDATE_NEVER != 0 || CAIRN_UPDATE_MODIFIED != 1 || CAIRN_UPDATE_ALL != 2) failures++;

    /* The library this program runs against is the one the header describes. */
    if (strcmp(cairn_version(), CAIRN_VERSION) != 0) {
        fprintf(stderr, "cairn_version() = \"%s\", header says \"%s\"\n", cairn_version(), CAIRN_VERSION);
        failures++;
    }
    if (cairn_abi_version() != CAIRN_ABI_VERSION) {
        fprintf(stderr, "cairn_abi_version() = %d, header says %d\n", cairn_abi_version(), CAIRN_ABI_VERSION);
        failures++;
    }
    if (failures) {
        fprintf(stderr, "header_c99: %d failures\n", failures);
        return 1;
    }
    printf("header_c99: cairn %s (ABI %d) OK\n", cairn_version(), cairn_abi_version());
    return 0;
}
