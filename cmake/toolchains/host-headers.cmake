# Included by the toolchain files here. A cross build needs a few header-only libraries that
# Debian installs for the build machine (GLM, CLI11, nlohmann-json, SIMDe) and whose CMake package
# files (/usr/share/cmake/<name>) compute their include folder from their own location: /usr/include.
# Handing /usr/include to a cross compiler would also hand it the build machine's C library headers
# (MinGW then picks up glibc's and fails). So this builds a small tree that holds only those
# libraries, as links (<build>/host-headers/usr/{include,share/cmake}/<name> -> /usr/...), and puts
# it on CMAKE_FIND_ROOT_PATH: find_package() finds Debian's own package files there, and they
# point the compiler at host-headers/usr/include, which holds nothing else. No package file is
# written by hand. Libraries that are not installed are simply absent.
set(_ofps_host_headers "${CMAKE_BINARY_DIR}/host-headers")
foreach(_ofps_item IN ITEMS include/glm include/CLI include/nlohmann include/simde
                           share/cmake/glm share/cmake/CLI11 share/cmake/nlohmann_json)
  set(_ofps_link "${_ofps_host_headers}/usr/${_ofps_item}")
  if(EXISTS "/usr/${_ofps_item}" AND NOT EXISTS "${_ofps_link}")
    get_filename_component(_ofps_parent "${_ofps_link}" DIRECTORY)
    file(MAKE_DIRECTORY "${_ofps_parent}")
    file(CREATE_LINK "/usr/${_ofps_item}" "${_ofps_link}" SYMBOLIC)
  endif()
endforeach()
list(APPEND CMAKE_FIND_ROOT_PATH "${_ofps_host_headers}")
# Only the target's folders and the tree above: never the build machine's libraries or headers.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
