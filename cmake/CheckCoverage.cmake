# Fails unless every function declared in drumlin.h is called somewhere in the given C test, so a
# new export cannot be forgotten by the NULL-handle test.
#
#   cmake -DHEADER=include/drumlin.h -DSOURCE=Tests/c/null_handles.c -P cmake/CheckCoverage.cmake
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/DrumlinHeaderFunctions.cmake")

drumlin_header_functions("${HEADER}" declared)
file(READ "${SOURCE}" source)
set(missing "")
foreach(name IN LISTS declared)
  string(REGEX MATCH "[^A-Za-z0-9_]${name}[ \t]*\\(" found "${source}")
  if(NOT found)
    list(APPEND missing "${name}")
  endif()
endforeach()
list(LENGTH declared n_declared)
if(missing)
  list(JOIN missing "\n  " text)
  message(FATAL_ERROR "${SOURCE} does not call these drumlin.h functions:\n  ${text}")
endif()
message(STATUS "${SOURCE} calls all ${n_declared} functions declared in drumlin.h")
