# Debian's libimgui-dev ships the core as libimgui.a and the backend sources as examples;
# compile the GLFW and OpenGL3 backends here (no warnings: not our code).
find_package(PkgConfig REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
set(IMGUI_BACKEND_DIR /usr/share/doc/libimgui-dev/examples/backends)
if(NOT EXISTS "${IMGUI_BACKEND_DIR}/imgui_impl_glfw.cpp")
  message(FATAL_ERROR "ImGui backend sources not found in ${IMGUI_BACKEND_DIR} (install libimgui-dev)")
endif()
add_library(imgui_backends STATIC
  "${IMGUI_BACKEND_DIR}/imgui_impl_glfw.cpp"
  "${IMGUI_BACKEND_DIR}/imgui_impl_opengl3.cpp")
target_include_directories(imgui_backends SYSTEM PUBLIC /usr/include/imgui /usr/include/imgui/backends)
target_link_libraries(imgui_backends PUBLIC PkgConfig::IMGUI glfw ${CMAKE_DL_LIBS})
