include(${CMAKE_CURRENT_LIST_DIR}/ExactFloat.cmake)

# Options for the project's own code only; third-party sources (ImGui backends, glad) get none.
# Every project target calls this, so it also applies the exact floating-point rules
# (ExactFloat.cmake): a target added later cannot forget them.
# (MSVC gets /W4: a project that adds this one as a subproject may use it.)
set(OCTREE_FPS_ASSERTS AUTO CACHE STRING
    "OFPS_ASSERT checks: AUTO (on except in Release and MinSizeRel), ON or OFF")
set_property(CACHE OCTREE_FPS_ASSERTS PROPERTY STRINGS AUTO ON OFF)
function(octree_fps_set_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${OCTREE_FPS_WERROR}>:/WX>)
  else()
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
      -Woverloaded-virtual -Wdouble-promotion -Wformat=2
      -Wimplicit-fallthrough -Wmisleading-indentation)
    # Clang's -Wdouble-promotion also flags every float widened into a double variable, which the
    # double-precision references do on purpose; GCC's flags the silent promotions in
    # arithmetic and variadic calls, the ones that matter, and GCC builds every CI run.
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      target_compile_options(${target} PRIVATE -Wno-double-promotion)
    endif()
    if(OCTREE_FPS_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
      # GCC 12 at -O3 (Release) inlines libstdc++'s string and vector copies into memcpy/memmove
      # calls it then flags with impossible sizes (e.g. GCC bug 105329 for -Wrestrict); the
      # code is fine and the other build types keep them as errors, so in Release they stay
      # warnings.
      if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12)
        target_compile_options(${target} PRIVATE
          "$<$<CONFIG:Release>:-Wno-error=restrict;-Wno-error=stringop-overflow>")
      endif()
    endif()
  endif()
  octree_fps_exact_float(${target})
  # OFPS_ASSERT (include/octree_fps/assert.h): on in Debug and RelWithDebInfo, off in Release and
  # MinSizeRel, unless OCTREE_FPS_ASSERTS forces it.
  if(OCTREE_FPS_ASSERTS STREQUAL "AUTO")
    target_compile_definitions(${target} PRIVATE
      $<IF:$<CONFIG:Release,MinSizeRel>,OFPS_ASSERTS=0,OFPS_ASSERTS=1>)
  elseif(OCTREE_FPS_ASSERTS)
    target_compile_definitions(${target} PRIVATE OFPS_ASSERTS=1)
  else()
    target_compile_definitions(${target} PRIVATE OFPS_ASSERTS=0)
  endif()
endfunction()
