/* The page's stb implementations: Debian's libstb-dev compiles them into libstb.so for the build
   machine only, so the WebAssembly build compiles them here from the same headers. */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_resize.h>
#include <stb_image_write.h>
