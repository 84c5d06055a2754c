// Compile-time check that include/cairn.h matches the @_cdecl exports: each line assigns an
// export to a variable typed by the header's declaration, so any difference in parameter or
// result types fails the build of libcairn.so itself. tools/check-header.sh checks that this
// list names every function the header declares.
import CCairnHeader

@inline(never) private func keep<T>(_ value: T) {}

func headerMatchesExports() {
    do { var v = CCairnHeader.cairn_version; v = CairnC.cairn_version; keep(v) }
    do { var v = CCairnHeader.cairn_abi_version; v = CairnC.cairn_abi_version; keep(v) }
    do { var v = CCairnHeader.cairn_last_error_code; v = CairnC.cairn_last_error_code; keep(v) }
    do { var v = CCairnHeader.cairn_last_error_message; v = CairnC.cairn_last_error_message; keep(v) }
    do { var v = CCairnHeader.cairn_status_name; v = CairnC.cairn_status_name; keep(v) }
    do { var v = CCairnHeader.cairn_free; v = CairnC.cairn_free; keep(v) }
    do { var v = CCairnHeader.cairn_options_new; v = CairnC.cairn_options_new; keep(v) }
    do { var v = CCairnHeader.cairn_options_free; v = CairnC.cairn_options_free; keep(v) }
    do { var v = CCairnHeader.cairn_options_set_schema_version; v = CairnC.cairn_options_set_schema_version; keep(v) }
    do { var v = CCairnHeader.cairn_options_set_read_only; v = CairnC.cairn_options_set_read_only; keep(v) }
    do { var v = CCairnHeader.cairn_options_set_in_memory; v = CairnC.cairn_options_set_in_memory; keep(v) }
    do { var v = CCairnHeader.cairn_options_set_delete_if_migration_needed; v = CairnC.cairn_options_set_delete_if_migration_needed; keep(v) }
    do { var v = CCairnHeader.cairn_open; v = CairnC.cairn_open; keep(v) }
    do { var v = CCairnHeader.cairn_close; v = CairnC.cairn_close; keep(v) }
    do { var v = CCairnHeader.cairn_schema_json; v = CairnC.cairn_schema_json; keep(v) }
    do { var v = CCairnHeader.cairn_schema_version; v = CairnC.cairn_schema_version; keep(v) }
    do { var v = CCairnHeader.cairn_begin_write; v = CairnC.cairn_begin_write; keep(v) }
    do { var v = CCairnHeader.cairn_commit; v = CairnC.cairn_commit; keep(v) }
    do { var v = CCairnHeader.cairn_rollback; v = CairnC.cairn_rollback; keep(v) }
    do { var v = CCairnHeader.cairn_is_in_write; v = CairnC.cairn_is_in_write; keep(v) }
    do { var v = CCairnHeader.cairn_create_json; v = CairnC.cairn_create_json; keep(v) }
    do { var v = CCairnHeader.cairn_create_many_json; v = CairnC.cairn_create_many_json; keep(v) }
    do { var v = CCairnHeader.cairn_get_json; v = CairnC.cairn_get_json; keep(v) }
    do { var v = CCairnHeader.cairn_count; v = CairnC.cairn_count; keep(v) }
    do { var v = CCairnHeader.cairn_class_count; v = CairnC.cairn_class_count; keep(v) }
    do { var v = CCairnHeader.cairn_class_name; v = CairnC.cairn_class_name; keep(v) }
    do { var v = CCairnHeader.cairn_class_index; v = CairnC.cairn_class_index; keep(v) }
    do { var v = CCairnHeader.cairn_class_kind; v = CairnC.cairn_class_kind; keep(v) }
    do { var v = CCairnHeader.cairn_property_count; v = CairnC.cairn_property_count; keep(v) }
    do { var v = CCairnHeader.cairn_property_index; v = CairnC.cairn_property_index; keep(v) }
    do { var v = CCairnHeader.cairn_property_info_get; v = CairnC.cairn_property_info_get; keep(v) }
    do { var v = CCairnHeader.cairn_object_create; v = CairnC.cairn_object_create; keep(v) }
    do { var v = CCairnHeader.cairn_object_find; v = CairnC.cairn_object_find; keep(v) }
    do { var v = CCairnHeader.cairn_object_find_by_key; v = CairnC.cairn_object_find_by_key; keep(v) }
    do { var v = CCairnHeader.cairn_object_release; v = CairnC.cairn_object_release; keep(v) }
    do { var v = CCairnHeader.cairn_object_key; v = CairnC.cairn_object_key; keep(v) }
    do { var v = CCairnHeader.cairn_object_class_index; v = CairnC.cairn_object_class_index; keep(v) }
    do { var v = CCairnHeader.cairn_object_is_valid; v = CairnC.cairn_object_is_valid; keep(v) }
    do { var v = CCairnHeader.cairn_object_get; v = CairnC.cairn_object_get; keep(v) }
    do { var v = CCairnHeader.cairn_object_get_at; v = CairnC.cairn_object_get_at; keep(v) }
    do { var v = CCairnHeader.cairn_object_get_values; v = CairnC.cairn_object_get_values; keep(v) }
    do { var v = CCairnHeader.cairn_object_set; v = CairnC.cairn_object_set; keep(v) }
    do { var v = CCairnHeader.cairn_object_set_at; v = CairnC.cairn_object_set_at; keep(v) }
    do { var v = CCairnHeader.cairn_object_set_values; v = CairnC.cairn_object_set_values; keep(v) }
    do { var v = CCairnHeader.cairn_object_update_json; v = CairnC.cairn_object_update_json; keep(v) }
    do { var v = CCairnHeader.cairn_object_to_json; v = CairnC.cairn_object_to_json; keep(v) }
    do { var v = CCairnHeader.cairn_object_delete; v = CairnC.cairn_object_delete; keep(v) }
}
