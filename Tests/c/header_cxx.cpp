/*
 * header_cxx.cpp — drumlin.h compiles as C++11 (-std=c++11 -Wall -Wextra -Werror -pedantic), with
 * C linkage: the functions resolve against libdrumlin.so, so a missing extern "C" fails the link.
 */
#include "drumlin.h"

#include <cstdio>
#include <cstring>

namespace {

// Handles are distinct incomplete types: overloads on them must compile.
int kind(drumlin_db *) { return 1; }
int kind(drumlin_object *) { return 2; }

extern "C" void free_nothing(void *userdata) { static_cast<void>(userdata); }

}  // namespace

static_assert(DRUMLIN_OK == 0 && DRUMLIN_NOT_FOUND == 1, "status code numbers are part of the ABI");
static_assert(DRUMLIN_ERR_WRONG_TRANSACTION_STATE == 14, "status code numbers are part of the ABI");
static_assert(DRUMLIN_TYPE_UUID == 11 && DRUMLIN_UPDATE_ALL == 2, "constants are part of the ABI");
static_assert(sizeof(drumlin_object_id) == 12 && sizeof(drumlin_uuid) == 16, "fixed-size identifiers");

int main() {
    drumlin_db *db = nullptr;
    drumlin_object *object = nullptr;
    drumlin_free_fn free_fn = free_nothing;
    free_fn(nullptr);

    drumlin_value value = drumlin_value();
    value.type = DRUMLIN_TYPE_STRING;
    value.as.string.data = "text";
    value.as.string.size = 4;
    drumlin_property_info info = drumlin_property_info();

    int failures = 0;
    if (kind(db) != 1 || kind(object) != 2) failures++;
    if (value.as.string.size != 4 || info.flags != 0) failures++;
    if (std::strcmp(drumlin_version(), DRUMLIN_VERSION) != 0) failures++;
    if (drumlin_abi_version() != DRUMLIN_ABI_VERSION) failures++;
    if (drumlin_close(nullptr) != DRUMLIN_OK) failures++;
    drumlin_free(nullptr);
    if (failures) {
        std::fprintf(stderr, "header_cxx: %d failures\n", failures);
        return 1;
    }
    std::printf("header_cxx: drumlin %s OK\n", drumlin_version());
    return 0;
}
