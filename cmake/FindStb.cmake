# FindStb: the stb single-file libraries (stb_image.h, stb_image_write.h, stb_image_resize.h)
# as Debian's libstb-dev ships them: headers in <prefix>/include/stb, their implementations
# compiled into libstb (the project's sources define no STB_*_IMPLEMENTATION).
# Defines the imported target Stb::stb (headers as SYSTEM includes, so our warnings skip them).
# Cache variables: Stb_INCLUDE_DIR (the folder holding stb_image.h), Stb_LIBRARY (libstb).
find_path(Stb_INCLUDE_DIR stb_image.h PATH_SUFFIXES stb)
find_library(Stb_LIBRARY stb)
mark_as_advanced(Stb_INCLUDE_DIR Stb_LIBRARY)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Stb REQUIRED_VARS Stb_LIBRARY Stb_INCLUDE_DIR)

if(Stb_FOUND AND NOT TARGET Stb::stb)
  add_library(Stb::stb UNKNOWN IMPORTED)
  set_target_properties(Stb::stb PROPERTIES
    IMPORTED_LOCATION "${Stb_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Stb_INCLUDE_DIR}")
endif()
