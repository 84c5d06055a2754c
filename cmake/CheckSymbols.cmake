# Compares the functions declared in drumlin.h with the `drumlin_` functions libdrumlin.so exports.
#
#   cmake -DHEADER=include/drumlin.h -DLIBRARY=libdrumlin.so -DNM=nm -P cmake/CheckSymbols.cmake
#
# Fails when a declared function is not exported (a C program using it would not link) or when
# an exported `drumlin_` function is not declared (an export outside the contract).
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/DrumlinHeaderFunctions.cmake")

foreach(var HEADER LIBRARY NM)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "CheckSymbols.cmake: pass -D${var}=...")
  endif()
endforeach()

drumlin_header_functions("${HEADER}" declared)

execute_process(COMMAND "${NM}" -D --defined-only "${LIBRARY}"
  OUTPUT_VARIABLE nm_output RESULT_VARIABLE nm_result ERROR_VARIABLE nm_error)
if(NOT nm_result EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed: ${nm_error}")
endif()
# Lines look like "0000000000012340 T drumlin_open"; keep code symbols whose name starts with drumlin_.
string(REGEX MATCHALL "[^\n]* [TtWi] drumlin_[A-Za-z0-9_]+" lines "${nm_output}")
set(exported "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE ".* (drumlin_[A-Za-z0-9_]+)$" "\\1" name "${line}")
  list(APPEND exported "${name}")
endforeach()
list(REMOVE_DUPLICATES exported)
list(SORT exported)

set(missing ${declared})
list(REMOVE_ITEM missing ${exported})
set(undeclared ${exported})
list(REMOVE_ITEM undeclared ${declared})

list(LENGTH declared n_declared)
list(LENGTH exported n_exported)
message(STATUS "drumlin.h declares ${n_declared} functions; libdrumlin.so exports ${n_exported} drumlin_ functions")
set(failed OFF)
if(missing)
  list(JOIN missing "\n  " text)
  message(SEND_ERROR "Declared in drumlin.h but not exported by ${LIBRARY}:\n  ${text}")
  set(failed ON)
endif()
if(undeclared)
  list(JOIN undeclared "\n  " text)
  message(SEND_ERROR "Exported by ${LIBRARY} but not declared in drumlin.h:\n  ${text}")
  set(failed ON)
endif()
if(n_declared EQUAL 0)
  message(SEND_ERROR "No functions found in ${HEADER}")
  set(failed ON)
endif()
if(NOT failed)
  message(STATUS "symbols OK: header and exports match")
endif()
