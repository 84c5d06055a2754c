# drumlin_header_functions(<header> <out_var>)
#
# Sets <out_var> to the sorted list of function names declared in the C header: identifiers
# starting with `drumlin_` that are followed by `(`, after comments are removed. Typedef'd callback
# types (`(*drumlin_free_fn)(`) do not match, because their name is followed by `)`.
function(drumlin_header_functions header out_var)
  file(READ "${header}" text)
  # Drop /* ... */ comments (non-greedy by construction) and // comments.
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" " " text "${text}")
  string(REGEX REPLACE "//[^\n]*" " " text "${text}")
  string(REGEX MATCHALL "[^A-Za-z0-9_]drumlin_[A-Za-z0-9_]+[ \t\r\n]*\\(" calls "${text}")
  set(names "")
  foreach(call IN LISTS calls)
    string(REGEX REPLACE "^[^A-Za-z0-9_](drumlin_[A-Za-z0-9_]+).*" "\\1" name "${call}")
    list(APPEND names "${name}")
  endforeach()
  list(REMOVE_DUPLICATES names)
  list(SORT names)
  set(${out_var} "${names}" PARENT_SCOPE)
endfunction()
