/*
 * header_cxx.cpp — cairn.h compiles as C++11 (-std=c++11 -Wall -Wextra -Werror -pedantic), with
 * C linkage: the functions resolve against libcairn.so, so a missing extern "C" fails the link.
 */
#include "cairn.h"

#include <cstdio>
#include <cstring>

namespace {

// Handles are distinct incomplete types: overloads on them must compile.
int kind(cairn_db *) { return 1; }
int kind(cairn_object *) { return 2; }

extern "C" void free_nothing(void *userdata) { static_cast<void>(userdata); }

}  // namespace

static_assert(CAIRN_OK == 0 && CAIRN_NOT_FOUND == 1, "status code numbers are part of the ABI");
static_assert(CAIRN_ERR_WRONG_TRANSACTION_STATE == 14, "status code numbers are part of the ABI");
static_assert(CAIRN_TYPE_UUID == 11 && CAIRN_UPDATE_ALL == 2, "constants are part of the ABI");
static_assert(sizeof(cairn_object_id) == 12 && sizeof(cairn_uuid) == 16, "fixed-size identifiers");

int main() {
    cairn_db *db = nullptr;
    cairn_object *object = nullptr;
    cairn_free_fn free_fn = free_nothing;
    free_fn(nullptr);

    cairn_value value = cairn_value();
    value.type = CAIRN_TYPE_STRING;
    value.as.string.data = "text";
    value.as.string.size = 4;
    cairn_property_info info = cairn_property_info();

    int failures = 0;
    if (kind(db) != 1 || kind(object) != 2) failures++;
    if (value.as.string.size != 4 || info.flags != 0) failures++;
    if (std::strcmp(cairn_version(), CAIRN_VERSION) != 0) failures++;
    if (cairn_abi_version() != CAIRN_ABI_VERSION) failures++;
    if (cairn_close(nullptr) != CAIRN_OK) failures++;
    cairn_free(nullptr);
    if (failures) {
        std::fprintf(stderr, "header_cxx: %d failures\n", failures);
        return 1;
    }
    std::printf("header_cxx: cairn %s OK\n", cairn_version());
    return 0;
}
