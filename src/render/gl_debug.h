#pragma once
// GL error reporting. Every GL error is printed to stderr as a line starting with "GL error",
// which the CI smoke run greps for. Requires a current context with glad loaded.

namespace ofps::gl {

// Routes KHR_debug messages of type ERROR (and high-severity others) to stderr when the driver
// offers GL_KHR_debug; otherwise does nothing and checkErrors() is the only safety net.
void installDebugOutput();

// Drains glGetError(); prints one "GL error 0x.... (NAME) at WHERE" line per error.
// Returns how many errors were pending.
int checkErrors(const char* where);

// Total errors reported by either path since start-up.
int errorCount();

}  // namespace ofps::gl
