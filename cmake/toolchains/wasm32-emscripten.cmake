# WebAssembly with Debian's Emscripten (package emscripten); programs run under Node.js. Emscripten's
# own toolchain file first, then the header-only host libraries (host-headers.cmake).
#   -DOCTREE_FPS_WASM_SIMD=ON   compile with -msimd128 (SIMDe then uses WebAssembly SIMD128)
# Programs read and write the real file system (NODERAWFS: the tests open the shared levels and
# write temporary files) and grow their memory on demand; exceptions are enabled (CLI11 and the
# tests use them).
set(_ofps_emscripten_root "$ENV{EMSCRIPTEN_ROOT}")
if(NOT _ofps_emscripten_root)
  set(_ofps_emscripten_root /usr/share/emscripten)
endif()
# Node.js 18 and later define fetch(), and the loader Emscripten 3.1.6 writes then tries to
# fetch() the .wasm file by its path, which fails: the programs run with fetch() turned off.
# (Set before Emscripten.cmake, which otherwise sets a plain node as the emulator.)
find_program(NODE_JS_EXECUTABLE NAMES nodejs node)
if(NODE_JS_EXECUTABLE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${NODE_JS_EXECUTABLE};--no-experimental-fetch")
endif()
include(${_ofps_emscripten_root}/cmake/Modules/Platform/Emscripten.cmake)
option(OCTREE_FPS_WASM_SIMD "Compile for WebAssembly SIMD128 (-msimd128)" OFF)
set(_ofps_wasm_flags "-fexceptions")
if(OCTREE_FPS_WASM_SIMD)
  string(APPEND _ofps_wasm_flags " -msimd128")
endif()
set(CMAKE_C_FLAGS_INIT "${_ofps_wasm_flags}")
set(CMAKE_CXX_FLAGS_INIT "${_ofps_wasm_flags}")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "${_ofps_wasm_flags} -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sNODERAWFS=1 -sEXIT_RUNTIME=1 -sTOTAL_STACK=8MB")
include(${CMAKE_CURRENT_LIST_DIR}/host-headers.cmake)
