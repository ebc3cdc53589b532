include(${CMAKE_CURRENT_LIST_DIR}/ExactFloat.cmake)

# Options for the project's own code only; third-party sources (ImGui backends, glad) get none.
# Every project target calls this, so it also applies the exact floating-point rules
# (ExactFloat.cmake): a target added later cannot forget them.
function(octree_fps_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
    -Woverloaded-virtual -Wdouble-promotion -Wformat=2
    -Wimplicit-fallthrough -Wmisleading-indentation)
  if(OCTREE_FPS_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  octree_fps_exact_float(${target})
endfunction()
