// Runs Assimp's import in a separate process first (contracts in import_probe.h).
#include "level/import_probe.h"

#include <assimp/config.h>
#include <assimp/postprocess.h>

#include <assimp/Importer.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <thread>

#if defined(__linux__)
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

namespace ofps {

unsigned assimpImportFlags() {
  return aiProcess_ValidateDataStructure | aiProcess_Triangulate | aiProcess_SortByPType |
         aiProcess_GenNormals | aiProcess_FlipUVs;
}

void configureAssimpImporter(Assimp::Importer& importer) {
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, 0);      // points and lines are counted
  importer.SetPropertyBool(AI_CONFIG_FBX_CONVERT_TO_M, false);  // units from metadata
}

int runImportProbe(const std::string& path) {
  Assimp::Importer importer;
  configureAssimpImporter(importer);
  importer.ReadFile(path, assimpImportFlags());
  return 0;
}

std::string findImportProbe(const std::string& explicitPath) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!explicitPath.empty()) return fs::is_regular_file(explicitPath, ec) ? explicitPath : "";
#if defined(__linux__)
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path probe = self.parent_path() / "octree_import_probe";
  if (fs::is_regular_file(probe, ec) && ::access(probe.c_str(), X_OK) == 0) return probe.string();
#endif
  return "";
}

ProbeResult probeAssimpImport(const std::string& probe, const std::string& path,
                              double timeoutSeconds) {
  ProbeResult r;
#if defined(__linux__)
  if (probe.empty()) return r;
  // The probe's output (Assimp's logging, a sanitizer's report) is of no use to the caller:
  // both streams go to /dev/null.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::string arg0 = probe, arg1 = path;
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, probe.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    r.detail = std::string("could not start ") + probe + ": " + std::strerror(rc);
    return r;
  }
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      r.detail = std::string("waiting for the probe failed: ") + std::strerror(errno);
      return r;
    }
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (waited > timeoutSeconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.outcome = ProbeOutcome::TimedOut;
      r.detail = "no answer after " + std::to_string(static_cast<int>(timeoutSeconds)) + " s";
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(waited < 0.1 ? 1 : 10));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    r.outcome = ProbeOutcome::Clean;
  } else if (WIFSIGNALED(status)) {
    r.outcome = ProbeOutcome::Crashed;
    r.detail =
        "signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  } else {
    r.outcome = ProbeOutcome::Crashed;
    r.detail = "exit status " + std::to_string(WEXITSTATUS(status));
  }
#else
  (void)probe;
  (void)path;
  (void)timeoutSeconds;
#endif
  return r;
}

}  // namespace ofps
