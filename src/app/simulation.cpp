#include "app/simulation.h"

#include <cstdio>
#include <fstream>

namespace ofps::app {

void Simulation::reset(const LevelSession& session, const ControllerParams& params) {
  runner_.reset();
  controller_ = CharacterController(params);
  controller_.setSpawn(session.spawn, session.spawnYaw);
  controller_.setKillPlaneY(killPlaneY(session.level));
  controller_.teleport(session.spawn, session.spawnYaw);
  lastInput_ = {};
  lastInput_.yaw = session.spawnYaw;
  trace_.clear();
  steps_ = 0;
}

void Simulation::attachScript(const LevelSession& session, const Script& script,
                              const ControllerParams& params, bool recordTrace) {
  runner_ = std::make_unique<ScriptRunner>(script, params, session.spawn, session.spawnYaw,
                                           killPlaneY(session.level));
  recordTrace_ = recordTrace;
  trace_.clear();
  steps_ = 0;
  if (recordTrace_) {
    trace_ = traceCsvHeader();
    appendTraceCsvRow(trace_, runner_->initialRow());
  }
}

void Simulation::step(const LevelSession& session, const CharacterInput& liveInput) {
  if (runner_) {
    if (runner_->finished()) return;
    const TraceRow row = runner_->step(session.octree);
    if (recordTrace_) appendTraceCsvRow(trace_, row);
  } else {
    lastInput_ = liveInput;
    controller_.step(session.octree, liveInput, controller_.params().tickSeconds());
  }
  ++steps_;
}

double Simulation::simulatedSeconds() const {
  return static_cast<double>(steps_) * static_cast<double>(controller().params().tickSeconds());
}

std::optional<Script> loadScriptFor(const std::string& path, LevelSession& session,
                                    ControllerParams* ioParams, std::string* error) {
  ScriptParseResult parsed = readScript(path, *ioParams);
  if (!parsed.ok) {
    *error = parsed.error;
    return std::nullopt;
  }
  if (!parsed.script.applyParams(*ioParams, error)) return std::nullopt;
  const OctreeBuildParams wanted = ioParams->octreeBuildParams();
  const OctreeBuildParams& have = session.octree.params();
  if (wanted.trianglesPerLeaf != have.trianglesPerLeaf || wanted.maxLevel != have.maxLevel) {
    if (!session.rebuildOctree(wanted, error)) return std::nullopt;
  }
  return std::move(parsed.script);
}

bool writeTextFile(const std::string& path, const std::string& text, std::string* error) {
  std::ofstream out(path, std::ios::binary);
  if (out) out << text;
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace ofps::app
