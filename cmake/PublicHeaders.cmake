# octree_fps_public_headers(<out-var> <include-root> <folder>...): the headers under
# <include-root>/octree_fps/<folder>/ that `cmake --install` copies, as paths relative to
# <include-root> (e.g. octree_fps/spatial/octree.h).
#
# The rule, so that a new or moved header needs no CMake edit:
# - A header is public unless its file name marks it internal: *_inl.h (inline kernels of a
#   .cpp: traversal loops, classification) or simd*.h (SIMD helpers).
# - An internal header that a public header includes (#include "octree_fps/...") is installed
#   too, or the public one would not compile; it stays internal by name: consumers do not
#   include it themselves. Followed transitively.
# .ci/check-install.sh compiles every installed header alone against the install prefix, which
# proves that none of them includes a header left behind.
function(octree_fps_public_headers out root)
  set(all "")
  foreach(folder IN LISTS ARGN)
    file(GLOB_RECURSE found CONFIGURE_DEPENDS RELATIVE "${root}" "${root}/octree_fps/${folder}/*.h")
    list(APPEND all ${found})
  endforeach()
  set(public "")
  set(internal "")
  foreach(header IN LISTS all)
    get_filename_component(name "${header}" NAME)
    if(name MATCHES "_inl\\.h$" OR name MATCHES "^simd.*\\.h$")
      list(APPEND internal "${header}")
    else()
      list(APPEND public "${header}")
    endif()
  endforeach()
  set(queue ${public})
  while(queue)
    list(POP_FRONT queue header)
    file(STRINGS "${root}/${header}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]octree_fps/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">].*$" "\\1" included
                           "${line}")
      if(included IN_LIST internal)
        list(REMOVE_ITEM internal "${included}")
        list(APPEND public "${included}")
        list(APPEND queue "${included}")
      endif()
    endforeach()
  endwhile()
  list(SORT public)
  set(${out} ${public} PARENT_SCOPE)
endfunction()
