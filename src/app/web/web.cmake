# The demo as a web page (scripts/web.sh; README "In the browser"), included from src/CMakeLists.txt
# when Emscripten builds the app. The same sources as the native demo, with three seams:
#   - the level loader: level/web_level_loader.cpp (glTF/GLB through tinygltf, OBJ through the
#     core's OBJ reader) instead of Assimp, with the native loader's own checks (mesh_checks,
#     level_frame's guess, level_origin, spawn_search);
#   - OpenGL: WebGL2 (OpenGL ES 3.0) through Emscripten's GLFW 3; app/web/gles/glad/gl.h stands in
#     for glad's header and maps what WebGL2 lacks (multi-draw, polygon mode, debug output);
#   - the run loop: app/web/web_window.cpp (emscripten_set_main_loop) instead of
#     window/demo_window.cpp, and app/web/web_hooks.cpp (what the page's JavaScript calls).
# Output: <build>/site/, a static site (index.html, octree_demo.js, .wasm, .data).
set(OCTREE_FPS_IMGUI_SOURCE_DIR "" CACHE PATH
    "Dear ImGui's sources, as `apt-get source imgui` unpacks them (scripts/web.sh fetches them)")
if(NOT EXISTS "${OCTREE_FPS_IMGUI_SOURCE_DIR}/imgui.cpp")
  message(FATAL_ERROR "Dear ImGui's sources not found in '${OCTREE_FPS_IMGUI_SOURCE_DIR}': set "
                      "-DOCTREE_FPS_IMGUI_SOURCE_DIR (scripts/web.sh runs apt-get source imgui)")
endif()
set(web_dir ${CMAKE_CURRENT_SOURCE_DIR}/app/web)
set(site_dir ${CMAKE_BINARY_DIR}/site)

# Header-only libraries Debian installs for the build machine, as links in the build tree (as
# cmake/toolchains/host-headers.cmake does): /usr/include itself would hand Emscripten glibc's
# headers. tinygltf (libtinygltf-dev), stb (libstb-dev; implementations compiled here) and
# Assimp's headers (libassimp-dev: the loader-internal MeshBuild holds an aiMatrix4x4; nothing of
# Assimp is linked).
set(web_headers ${CMAKE_BINARY_DIR}/web-headers)
foreach(item IN ITEMS tiny_gltf.h stb assimp)
  if(NOT EXISTS "/usr/include/${item}")
    message(FATAL_ERROR "/usr/include/${item} missing: scripts/install-deps.sh --web")
  endif()
  if(NOT EXISTS "${web_headers}/${item}")
    file(MAKE_DIRECTORY ${web_headers})
    file(CREATE_LINK "/usr/include/${item}" "${web_headers}/${item}" SYMBOLIC)
  endif()
endforeach()

find_package(nlohmann_json REQUIRED)
find_package(CLI11 CONFIG REQUIRED)

# --- stb: libstb-dev's headers, their implementations compiled here --------------------------
add_library(stb_web STATIC ${web_dir}/stb_impl.c)
target_include_directories(stb_web SYSTEM PUBLIC ${web_headers}/stb)
add_library(Stb::stb ALIAS stb_web)

# --- Dear ImGui from Debian's source package, with its GLFW and OpenGL3 (ES 3) backends ------
set(imgui_dir ${OCTREE_FPS_IMGUI_SOURCE_DIR})
add_library(imgui_backends STATIC ${imgui_dir}/imgui.cpp ${imgui_dir}/imgui_draw.cpp
  ${imgui_dir}/imgui_tables.cpp ${imgui_dir}/imgui_widgets.cpp
  ${imgui_dir}/backends/imgui_impl_glfw.cpp ${imgui_dir}/backends/imgui_impl_opengl3.cpp)
target_include_directories(imgui_backends SYSTEM PUBLIC ${imgui_dir} ${imgui_dir}/backends)
# "#version 300 es" shaders and <GLES3/gl3.h> in the OpenGL3 backend (it would pick ES 2 on
# Emscripten by itself).
target_compile_definitions(imgui_backends PUBLIC IMGUI_IMPL_OPENGL_ES3)

# --- level loading without Assimp ------------------------------------------------------------
add_library(octree_level STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/level/web_level_loader.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/level/load_steps.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/level/level_conventions.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/level/mesh_checks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/level/level_frame.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/level/level_origin.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/level/spawn_search.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/level/import_settings.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/level/memory_budget.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/level/header_checks.cpp)
add_library(octree_fps::level ALIAS octree_level)
target_include_directories(octree_level PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_include_directories(octree_level SYSTEM PRIVATE ${web_headers})
target_link_libraries(octree_level PUBLIC octree_core PRIVATE octree_obj stb_web
                                                              nlohmann_json::nlohmann_json)
octree_fps_set_warnings(octree_level)

# --- renderer: WebGL2 behind glad's header --------------------------------------------------
add_library(octree_render STATIC)
target_include_directories(octree_render PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_include_directories(octree_render SYSTEM PUBLIC ${web_dir}/gles)
target_link_libraries(octree_render PUBLIC octree_core octree_level)
# The shaders are packed into the page's file system at /shaders (below).
target_compile_definitions(octree_render PUBLIC OCTREE_FPS_SHADER_DIR="/shaders")
octree_fps_set_warnings(octree_render)
add_subdirectory(render)

# --- the demo: the app's own sources, its windowed loop replaced by the page's ----------------
add_executable(octree_demo)
target_link_libraries(octree_demo PRIVATE octree_core octree_scenario octree_level octree_render
                                          imgui_backends Stb::stb)
target_compile_definitions(octree_demo PRIVATE OCTREE_FPS_ASSET_DIR="/assets")
octree_fps_set_warnings(octree_demo)
# Clang (Emscripten's compiler) flags the panel's printf-style helpers, which GCC accepts.
target_compile_options(octree_demo PRIVATE -Wno-format-nonliteral)
add_subdirectory(app)
get_target_property(demo_sources octree_demo SOURCES)
list(FILTER demo_sources EXCLUDE REGEX "/window/demo_window\\.cpp$")
set_target_properties(octree_demo PROPERTIES SOURCES "${demo_sources}")
target_sources(octree_demo PRIVATE ${web_dir}/web_window.cpp ${web_dir}/web_hooks.cpp)
set_target_properties(octree_demo PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${site_dir} SUFFIX ".js")
# One comma-separated value (a CMake list would put ';' between parts, which em++ refuses).
set(web_exports "_main,_ofps_stats_json,_ofps_load_level,_ofps_run_status,_ofps_multi_draw")
string(APPEND web_exports ",_ofps_use_multi_draw,_ofps_report_load_error")
target_link_options(octree_demo PRIVATE
  # The cross toolchain's flags are for Node.js programs; a page has no raw file system and keeps
  # running after main returns.
  -sNODERAWFS=0 -sEXIT_RUNTIME=0 -sENVIRONMENT=web
  -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sFORCE_FILESYSTEM=1
  -sEXPORTED_FUNCTIONS=${web_exports} -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString,FS
  "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/assets/arena.glb@/assets/arena.glb"
  "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/assets/walk.script@/assets/walk.script"
  "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/shaders@/shaders")
# The packed files: a change relinks (the .data file is written by the link).
file(GLOB web_shaders CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/shaders/*)
set_property(TARGET octree_demo APPEND PROPERTY LINK_DEPENDS
  ${PROJECT_SOURCE_DIR}/assets/arena.glb ${PROJECT_SOURCE_DIR}/assets/walk.script ${web_shaders})
# The page around the canvas.
configure_file(${web_dir}/index.html ${site_dir}/index.html COPYONLY)
# Assimp for the page (npm's assimpjs, pinned by src/app/web/package-lock.json and installed by
# scripts/install-deps.sh --web): the page fetches it only when a dropped level is neither glTF nor
# OBJ, converts the file to GLB with it and loads that.
set(assimpjs_dir ${web_dir}/node_modules/assimpjs/dist)
if(EXISTS ${assimpjs_dir}/assimpjs.js)
  foreach(f assimpjs.js assimpjs.wasm license.assimp.txt license.assimpjs.txt)
    configure_file(${assimpjs_dir}/${f} ${site_dir}/assimpjs/${f} COPYONLY)
  endforeach()
else()
  message(WARNING "src/app/web/node_modules/assimpjs is missing (scripts/install-deps.sh --web "
                  "installs it): the page will read glTF and OBJ only")
endif()
