# Windows x86-64 with Debian's MinGW-w64 (g++-mingw-w64-x86-64-posix: the POSIX thread model, for
# std::thread); the tests run under Wine (wine64). Executables are linked with the C and C++
# runtimes built in (-static), so Wine needs no DLL beside them.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
# Debian's wine64 package installs the loader as /usr/lib/wine/wine64 (the wine package adds a
# /usr/bin/wine launcher): look in both places.
find_program(OCTREE_FPS_WINE NAMES wine64 wine PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
if(OCTREE_FPS_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${OCTREE_FPS_WINE})
endif()
include(${CMAKE_CURRENT_LIST_DIR}/host-headers.cmake)
