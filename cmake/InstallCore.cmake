# `cmake --install` rules for the core (octree_fps::core) and the OBJ reader (octree_fps::obj):
#   <prefix>/lib/liboctree_core.a, liboctree_obj.a
#   <prefix>/include/octree_fps/               the public headers: the repository's include/, as is
#   <prefix>/include/octree_fps/version.h      the generated version header
#   <prefix>/lib/cmake/octree_fps/             package config, version file, exported targets
#   <prefix>/lib/pkgconfig/octree_fps.pc       for build systems other than CMake
#   <prefix>/share/doc/octree_fps/             the documents the headers cite (README.md, ...)
# Included from src/CMakeLists.txt after both targets exist (OCTREE_FPS_INSTALL).
include(CMakePackageConfigHelpers)

set(octree_fps_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/octree_fps)

install(TARGETS octree_core octree_obj EXPORT octree_fps_targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# include/ holds the public headers of the core and the reader (io) and nothing else: what is
# there is installed (.ci/check-install.sh compiles each one alone against the prefix).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/octree_fps DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(FILES ${OCTREE_FPS_GENERATED_INCLUDE_DIR}/octree_fps/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/octree_fps)

# The documents the public headers cite by path, installed with the same relative paths under
# <prefix>/share/doc/octree_fps/, so every such reference resolves inside the package. A header
# that names any other file of the repository (tests/, src/, cmake/) says "the repository's";
# scripts/check_header_refs.py (a test) holds the headers to both rules.
set(OCTREE_FPS_CITED_DOCS README.md CONTRIBUTING.md docs/script-format.md bench/micro/RESULTS.md
    bench/micro/GRID_RESULTS.md bench/micro/OCCLUSION_RESULTS.md)
foreach(doc IN LISTS OCTREE_FPS_CITED_DOCS)
  get_filename_component(doc_dir ${doc} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${doc} DESTINATION ${CMAKE_INSTALL_DOCDIR}/${doc_dir})
endforeach()

install(EXPORT octree_fps_targets NAMESPACE octree_fps:: FILE octree_fpsTargets.cmake
        DESTINATION ${octree_fps_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/octree_fpsConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/octree_fpsConfig.cmake
                              INSTALL_DESTINATION ${octree_fps_cmake_dir})
# Before 1.0 a minor version may break the API (version.h): 0.1 accepts 0.1.x only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/octree_fpsConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/octree_fpsConfig.cmake
              ${PROJECT_BINARY_DIR}/octree_fpsConfigVersion.cmake
        DESTINATION ${octree_fps_cmake_dir})

# pkg-config: relocatable (${pcfiledir}), so --prefix at install time is honoured.
file(RELATIVE_PATH OCTREE_FPS_PC_PREFIX_FROM_PCDIR
     ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" OCTREE_FPS_PC_PREFIX_FROM_PCDIR "${OCTREE_FPS_PC_PREFIX_FROM_PCDIR}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/octree_fps.pc.in ${PROJECT_BINARY_DIR}/octree_fps.pc
               @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/octree_fps.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
