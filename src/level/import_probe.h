#pragma once
// Crash isolation for Assimp: the import is first run in a separate, short-lived process
// (octree_import_probe, built beside octree_demo), so that a file on which Assimp itself
// crashes, asserts or hangs ends in an error for that file instead of taking the caller down.
//
// Why a process: Assimp 5.2.5 crashes inside several importers on damaged files (X, FBX,
// Collada, glTF 1.0, LWO, PLY triangulation: tests/fuzz/assimp-crashes/) and the loader cannot
// reach inside them. The probe imports the same file with the same flags and properties
// (configureAssimpImporter, kAssimpImportFlags); only when it exits normally does the caller
// import in-process. Assimp is deterministic for the same bytes, so a file that passes the probe
// takes the same code paths again. It costs one extra import of the file (the caller's loading
// thread waits for it); files the loader decodes itself (gltfpack output) are not probed.
//
// The probe program is found next to the running executable (/proc/self/exe's folder) or at
// LevelLoadOptions::importProbePath; when it is not there the import runs in-process as before
// (the library used on its own, the fuzzer). Linux (posix_spawn, waitpid); elsewhere: no probe.
// Thread-safety: probeAssimpImport may run on any thread; it blocks until the probe ends.

#include <cstdint>
#include <string>

namespace Assimp {
class Importer;
}

namespace ofps {

// The post-processing flags and importer properties every level import uses (the probe and the
// loader must agree, or the probe would test other code than the loader runs).
unsigned assimpImportFlags();
void configureAssimpImporter(Assimp::Importer& importer);

enum class ProbeOutcome : uint8_t {
  Clean,        // the probe's import returned (with a scene or with an error): safe to import
  Crashed,      // the probe died: a signal, an assertion, a sanitizer report (see detail)
  TimedOut,     // still running after the time limit: killed
  Unavailable,  // no probe program, or it could not be started: import in-process
};

struct ProbeResult {
  ProbeOutcome outcome = ProbeOutcome::Unavailable;
  std::string detail;  // e.g. "signal 11 (Segmentation fault)", "exit status 134"
};

// The probe program's path: `explicitPath` when not empty, else octree_import_probe in the
// folder of the running executable; "" when there is none.
std::string findImportProbe(const std::string& explicitPath);

// Runs `probe path` and waits at most timeoutSeconds (then kills it).
ProbeResult probeAssimpImport(const std::string& probe, const std::string& path,
                              double timeoutSeconds);

// The probe program's body: imports `path` with the level flags; returns 0 when ReadFile
// returned, whatever it returned.
int runImportProbe(const std::string& path);

}  // namespace ofps
