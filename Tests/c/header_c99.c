/*
 * header_c99.c — drumlin.h compiles as strict C99 (-std=c99 -Wall -Wextra -Werror -pedantic) and
 * its types and constants are usable from C. It also runs: the loaded library must report the
 * version and ABI this header was written for.
 */
#include "drumlin.h"

#include <stdio.h>
#include <string.h>

/* Every callback type and handle type must be nameable from C. */
static void free_nothing(void *userdata) { (void)userdata; }

int main(void) {
    drumlin_db *db = NULL;
    drumlin_object *object = NULL;
    drumlin_results *results = NULL;
    drumlin_list *list = NULL;
    drumlin_set *set = NULL;
    drumlin_dict *dict = NULL;
    drumlin_token *token = NULL;
    drumlin_options *options = NULL;
    drumlin_free_fn free_fn = free_nothing;
    drumlin_value value;
    drumlin_property_info info;
    drumlin_link link;
    drumlin_timestamp timestamp;
    drumlin_decimal128 decimal;
    drumlin_object_id object_id;
    drumlin_uuid uuid;
    int failures = 0;

    memset(&value, 0, sizeof value);
    memset(&info, 0, sizeof info);
    value.type = DRUMLIN_TYPE_INT;
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
    if (DRUMLIN_OK != 0 || DRUMLIN_NOT_FOUND != 1 || DRUMLIN_ERR_MISUSE != 2 ||
        DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY != 12 || DRUMLIN_ERR_INTERNAL != 24) failures++;
    if (DRUMLIN_UPDATE_NEVER != 0 || DRUMLIN_UPDATE_MODIFIED != 1 || DRUMLIN_UPDATE_ALL != 2) failures++;

    /* The library this program runs against is the one the header describes. */
    if (strcmp(drumlin_version(), DRUMLIN_VERSION) != 0) {
        fprintf(stderr, "drumlin_version() = \"%s\", header says \"%s\"\n", drumlin_version(), DRUMLIN_VERSION);
        failures++;
    }
    if (drumlin_abi_version() != DRUMLIN_ABI_VERSION) {
        fprintf(stderr, "drumlin_abi_version() = %d, header says %d\n", drumlin_abi_version(), DRUMLIN_ABI_VERSION);
        failures++;
    }
    if (failures) {
        fprintf(stderr, "header_c99: %d failures\n", failures);
        return 1;
    }
    printf("header_c99: drumlin %s (ABI %d) OK\n", drumlin_version(), drumlin_abi_version());
    return 0;
}
