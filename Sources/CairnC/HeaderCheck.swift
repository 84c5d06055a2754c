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
    do { var v = CCairnHeader.cairn_object_create_json; v = CairnC.cairn_object_create_json; keep(v) }
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
    do { var v = CCairnHeader.cairn_object_get_linked; v = CairnC.cairn_object_get_linked; keep(v) }
    do { var v = CCairnHeader.cairn_object_set_link; v = CairnC.cairn_object_set_link; keep(v) }
    do { var v = CCairnHeader.cairn_object_to_json_depth; v = CairnC.cairn_object_to_json_depth; keep(v) }
    do { var v = CCairnHeader.cairn_object_get_backlinks; v = CairnC.cairn_object_get_backlinks; keep(v) }
    do { var v = CCairnHeader.cairn_results_release; v = CairnC.cairn_results_release; keep(v) }
    do { var v = CCairnHeader.cairn_results_count; v = CairnC.cairn_results_count; keep(v) }
    do { var v = CCairnHeader.cairn_results_get_object; v = CairnC.cairn_results_get_object; keep(v) }
    do { var v = CCairnHeader.cairn_results_to_json; v = CairnC.cairn_results_to_json; keep(v) }
    do { var v = CCairnHeader.cairn_object_get_list; v = CairnC.cairn_object_get_list; keep(v) }
    do { var v = CCairnHeader.cairn_list_release; v = CairnC.cairn_list_release; keep(v) }
    do { var v = CCairnHeader.cairn_list_size; v = CairnC.cairn_list_size; keep(v) }
    do { var v = CCairnHeader.cairn_list_get; v = CairnC.cairn_list_get; keep(v) }
    do { var v = CCairnHeader.cairn_list_get_object; v = CairnC.cairn_list_get_object; keep(v) }
    do { var v = CCairnHeader.cairn_list_insert; v = CairnC.cairn_list_insert; keep(v) }
    do { var v = CCairnHeader.cairn_list_insert_json; v = CairnC.cairn_list_insert_json; keep(v) }
    do { var v = CCairnHeader.cairn_list_set; v = CairnC.cairn_list_set; keep(v) }
    do { var v = CCairnHeader.cairn_list_move; v = CairnC.cairn_list_move; keep(v) }
    do { var v = CCairnHeader.cairn_list_erase; v = CairnC.cairn_list_erase; keep(v) }
    do { var v = CCairnHeader.cairn_list_clear; v = CairnC.cairn_list_clear; keep(v) }
    do { var v = CCairnHeader.cairn_list_find; v = CairnC.cairn_list_find; keep(v) }
    do { var v = CCairnHeader.cairn_list_to_json; v = CairnC.cairn_list_to_json; keep(v) }
    do { var v = CCairnHeader.cairn_object_get_set; v = CairnC.cairn_object_get_set; keep(v) }
    do { var v = CCairnHeader.cairn_set_release; v = CairnC.cairn_set_release; keep(v) }
    do { var v = CCairnHeader.cairn_set_size; v = CairnC.cairn_set_size; keep(v) }
    do { var v = CCairnHeader.cairn_set_get; v = CairnC.cairn_set_get; keep(v) }
    do { var v = CCairnHeader.cairn_set_find; v = CairnC.cairn_set_find; keep(v) }
    do { var v = CCairnHeader.cairn_set_insert; v = CairnC.cairn_set_insert; keep(v) }
    do { var v = CCairnHeader.cairn_set_erase; v = CairnC.cairn_set_erase; keep(v) }
    do { var v = CCairnHeader.cairn_set_clear; v = CairnC.cairn_set_clear; keep(v) }
    do { var v = CCairnHeader.cairn_set_to_json; v = CairnC.cairn_set_to_json; keep(v) }
    do { var v = CCairnHeader.cairn_object_get_dict; v = CairnC.cairn_object_get_dict; keep(v) }
    do { var v = CCairnHeader.cairn_dict_release; v = CairnC.cairn_dict_release; keep(v) }
    do { var v = CCairnHeader.cairn_dict_size; v = CairnC.cairn_dict_size; keep(v) }
    do { var v = CCairnHeader.cairn_dict_get; v = CairnC.cairn_dict_get; keep(v) }
    do { var v = CCairnHeader.cairn_dict_find; v = CairnC.cairn_dict_find; keep(v) }
    do { var v = CCairnHeader.cairn_dict_insert; v = CairnC.cairn_dict_insert; keep(v) }
    do { var v = CCairnHeader.cairn_dict_insert_json; v = CairnC.cairn_dict_insert_json; keep(v) }
    do { var v = CCairnHeader.cairn_dict_erase; v = CairnC.cairn_dict_erase; keep(v) }
    do { var v = CCairnHeader.cairn_dict_clear; v = CairnC.cairn_dict_clear; keep(v) }
    do { var v = CCairnHeader.cairn_dict_to_json; v = CairnC.cairn_dict_to_json; keep(v) }
    do { var v = CCairnHeader.cairn_object_get_mixed_json; v = CairnC.cairn_object_get_mixed_json; keep(v) }
    do { var v = CCairnHeader.cairn_object_set_mixed_json; v = CairnC.cairn_object_set_mixed_json; keep(v) }
    do { var v = CCairnHeader.cairn_object_append_mixed_json; v = CairnC.cairn_object_append_mixed_json; keep(v) }
    do { var v = CCairnHeader.cairn_object_remove_mixed; v = CairnC.cairn_object_remove_mixed; keep(v) }
}
