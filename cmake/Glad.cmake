# Generates a GL 3.3 core loader with Debian's python3-glad (glad 2) into the build tree at
# configure time. --reproducible uses the Khronos XML bundled with the package (no network).
# The exact command is:
#   glad --api gl:core=3.3 --extensions GL_KHR_debug --out-path <build>/glad --reproducible --quiet c
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(GLAD_OUT "${CMAKE_BINARY_DIR}/glad")
if(NOT EXISTS "${GLAD_OUT}/src/gl.c")
  execute_process(
    COMMAND ${GLAD_EXECUTABLE} --api gl:core=3.3 --extensions GL_KHR_debug
            --out-path ${GLAD_OUT} --reproducible --quiet c
    RESULT_VARIABLE glad_result
    OUTPUT_QUIET ERROR_VARIABLE glad_err)
  if(NOT glad_result EQUAL 0 OR NOT EXISTS "${GLAD_OUT}/src/gl.c")
    message(FATAL_ERROR "glad failed to generate the GL loader: ${glad_err}")
  endif()
endif()
add_library(glad STATIC "${GLAD_OUT}/src/gl.c")
target_include_directories(glad SYSTEM PUBLIC "${GLAD_OUT}/include")
target_link_libraries(glad PUBLIC ${CMAKE_DL_LIBS})
