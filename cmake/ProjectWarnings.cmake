# Warnings for project code only; third-party sources (ImGui backends, glad) get none.
function(octree_fps_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
    -Woverloaded-virtual -Wdouble-promotion -Wformat=2
    -Wimplicit-fallthrough -Wmisleading-indentation)
  if(OCTREE_FPS_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
