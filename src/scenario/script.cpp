#include "scenario/script.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ofps {

namespace {

// Builds "'text'" with appends: GCC 12 at -O3 reports a false -Wrestrict on
// "'" + std::string(...) chains.
std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out.append(text.data(), text.size());
  out += '\'';
  return out;
}

constexpr const char* kKeyNames[kScriptKeyCount] = {"forward", "back",   "left",  "right",
                                                    "jump",    "sprint", "crouch"};

std::vector<std::string_view> tokenize(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    if (i >= line.size()) break;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool parseNumber(std::string_view token, double& out) {
  if (token.empty() || token.size() > 64) return false;
  const std::string s(token);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return false;
  out = v;
  return true;
}

class Parser {
 public:
  Parser(std::string_view name, const ScenarioParams& base)
      : name_(name), base_(base), params_(base) {}

  ScriptParseResult run(std::string_view text) {
    ScriptParseResult result;
    uint32_t lineNo = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t eol = text.find('\n', pos);
      if (eol == std::string_view::npos) eol = text.size();
      std::string_view line = text.substr(pos, eol - pos);
      ++lineNo;
      if (const size_t hash = line.find('#'); hash != std::string_view::npos) {
        line = line.substr(0, hash);
      }
      const std::vector<std::string_view> tokens = tokenize(line);
      if (!tokens.empty()) lastContentLine_ = lineNo;
      if (!parseLine(tokens, lineNo)) {
        result.error = error_;
        return result;
      }
      if (eol == text.size()) break;
      pos = eol + 1;
    }
    if (!haveEnd_) {
      fail(std::max(lastContentLine_, 1u),
           "missing 'end T' (the script must say when the simulation stops)");
      result.error = error_;
      return result;
    }
    if (!script_.params.empty()) {
      std::string why;
      applyDependentDefaults(params_, setMask_, base_);
      if (!validateParams(params_, &why)) {
        fail(script_.params.back().line, "parameters do not fit together: " + why);
        result.error = error_;
        return result;
      }
    }
    result.ok = true;
    result.script = std::move(script_);
    return result;
  }

 private:
  bool fail(uint32_t line, const std::string& message) {
    error_ = std::string(name_) + ":" + std::to_string(line) + ": " + message;
    return false;
  }

  bool numbers(const std::vector<std::string_view>& t, size_t first, size_t count, double* out,
               uint32_t line) {
    for (size_t i = 0; i < count; ++i) {
      if (!parseNumber(t[first + i], out[i])) {
        return fail(line, quoted(t[first + i]) + " is not a number");
      }
    }
    return true;
  }

  // Values a 32-bit float holds, and positions no farther from the origin than a level's
  // coordinates may be (level loader: 1e7 m); out:
  // "prop 0 1 1e39 0.1: '1e39' is out of range (...)".
  bool inFloatRange(const std::vector<std::string_view>& t, size_t first, size_t count,
                    const double* v, uint32_t line) {
    for (size_t i = 0; i < count; ++i) {
      if (!std::isfinite(static_cast<float>(v[i]))) {
        return fail(line, quoted(t[first + i]) + " is out of range (32-bit floats: up to 3.4e38)");
      }
    }
    return true;
  }
  bool positionInRange(const std::vector<std::string_view>& t, size_t first, const double* v,
                       uint32_t line) {
    for (size_t i = 0; i < 3; ++i) {
      if (std::abs(v[i]) > kMaxScriptCoordinate) {
        return fail(line, "coordinate " + quoted(t[first + i]) +
                              " is farther than 1e7 m from the origin (the levels' limit)");
      }
    }
    return true;
  }
  // A prop's radius or half-extent: kMinPropSize..kMaxPropSize metres.
  bool propSizeInRange(const std::vector<std::string_view>& t, size_t first, size_t count,
                       const double* v, uint32_t line) {
    for (size_t i = 0; i < count; ++i) {
      if (!(v[i] >= kMinPropSize && v[i] <= kMaxPropSize)) {
        return fail(line, std::string(count == 1 ? "sphere radius " : "box half-extent ") +
                              quoted(t[first + i]) + " is out of range (0.001 to 1000 m)");
      }
    }
    return true;
  }

  bool beforeRun(std::string_view cmd, uint32_t line) {
    if (firstAtLine_ != 0) {
      return fail(line, quoted(cmd) + " must come before the first 'at' (line " +
                            std::to_string(firstAtLine_) + ")");
    }
    return true;
  }

  bool parseLine(const std::vector<std::string_view>& t, uint32_t line) {
    if (t.empty()) return true;
    if (haveEnd_) return fail(line, "command after 'end' (line " + std::to_string(endLine_) + ")");
    const std::string_view cmd = t[0];
    if (cmd == "set") return parseSet(t, line);
    if (cmd == "spawn") return parseSpawn(t, line);
    if (cmd == "prop") return parseProp(t, line);
    if (cmd == "at") return parseAt(t, line);
    if (cmd == "end") return parseEnd(t, line);
    return fail(
        line, "unknown command '" + std::string(cmd) + "' (expected set, spawn, prop, at or end)");
  }

  bool parseSet(const std::vector<std::string_view>& t, uint32_t line) {
    if (!beforeRun("set", line)) return false;
    if (t.size() != 3) return fail(line, "expected 'set NAME VALUE'");
    if (!findParam(t[1])) {
      std::string known;
      for (const ParamInfo& info : paramInfos()) {
        known += known.empty() ? "" : ", ";
        known += info.name;
      }
      return fail(line, "unknown parameter '" + std::string(t[1]) + "' (known: " + known + ")");
    }
    double v = 0.0;
    if (!numbers(t, 2, 1, &v, line)) return false;
    std::string why;
    if (!setParam(params_, t[1], static_cast<float>(v), &why)) return fail(line, why);
    script_.params.push_back({std::string(t[1]), static_cast<float>(v), line});
    setMask_ |= paramBit(t[1]);
    return true;
  }

  bool parseSpawn(const std::vector<std::string_view>& t, uint32_t line) {
    if (!beforeRun("spawn", line)) return false;
    if (script_.spawn) {
      return fail(line, "second 'spawn' (the first is at line " +
                            std::to_string(script_.spawn->line) + ")");
    }
    if (t.size() < 4 || t.size() > 6) return fail(line, "expected 'spawn X Y Z [YAW [PITCH]]'");
    double v[5] = {};
    if (!numbers(t, 1, t.size() - 1, v, line) || !inFloatRange(t, 1, t.size() - 1, v, line) ||
        !positionInRange(t, 1, v, line)) {
      return false;
    }
    ScriptSpawn s;
    s.feet =
        glm::vec3(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2]));
    if (t.size() >= 5) s.yawDegrees = static_cast<float>(v[3]);
    if (t.size() >= 6) s.pitchDegrees = static_cast<float>(v[4]);
    s.line = line;
    script_.spawn = s;
    return true;
  }

  bool parseProp(const std::vector<std::string_view>& t, uint32_t line) {
    if (!beforeRun("prop", line)) return false;
    if (t.size() < 2) return fail(line, "expected 'prop sphere ...' or 'prop box ...'");
    ScriptProp p;
    p.line = line;
    double v[9] = {};
    if (t[1] == "sphere") {
      if (t.size() != 6 && t.size() != 9)
        return fail(line, "expected 'prop sphere X Y Z R [VX VY VZ]'");
      if (!numbers(t, 2, t.size() - 2, v, line)) return false;
      if (!(v[3] > 0.0)) return fail(line, "sphere radius must be > 0");
      if (!inFloatRange(t, 2, t.size() - 2, v, line) || !positionInRange(t, 2, v, line) ||
          !propSizeInRange(t, 5, 1, v + 3, line)) {
        return false;
      }
      p.shape = ScriptProp::Shape::Sphere;
      p.halfExtents = glm::vec3(static_cast<float>(v[3]));
      if (t.size() == 9) p.velocity = glm::vec3(glm::dvec3(v[4], v[5], v[6]));
    } else if (t[1] == "box") {
      if (t.size() != 8 && t.size() != 11) {
        return fail(line, "expected 'prop box X Y Z HX HY HZ [VX VY VZ]'");
      }
      if (!numbers(t, 2, t.size() - 2, v, line)) return false;
      if (!(v[3] > 0.0 && v[4] > 0.0 && v[5] > 0.0))
        return fail(line, "box half-extents must be > 0");
      if (!inFloatRange(t, 2, t.size() - 2, v, line) || !positionInRange(t, 2, v, line) ||
          !propSizeInRange(t, 5, 3, v + 3, line)) {
        return false;
      }
      p.shape = ScriptProp::Shape::Box;
      p.halfExtents = glm::vec3(glm::dvec3(v[3], v[4], v[5]));
      if (t.size() == 11) p.velocity = glm::vec3(glm::dvec3(v[6], v[7], v[8]));
    } else {
      return fail(line, "unknown prop shape '" + std::string(t[1]) + "' (expected sphere or box)");
    }
    p.center = glm::vec3(glm::dvec3(v[0], v[1], v[2]));
    script_.props.push_back(p);
    return true;
  }

  bool parseTime(std::string_view token, uint32_t line, double& out) {
    if (!parseNumber(token, out)) return fail(line, quoted(token) + " is not a time");
    if (out < 0.0) return fail(line, "time " + std::string(token) + " is negative");
    if (out < lastTime_) {
      return fail(line, "time " + std::string(token) + " goes backwards (line " +
                            std::to_string(lastTimeLine_) + " is at " + lastTimeText_ + ")");
    }
    lastTime_ = out;
    lastTimeLine_ = line;
    lastTimeText_ = std::string(token);
    return true;
  }

  bool parseKey(std::string_view token, uint32_t line, ScriptKey& out) {
    for (uint32_t k = 0; k < kScriptKeyCount; ++k) {
      if (token == kKeyNames[k]) {
        out = static_cast<ScriptKey>(k);
        return true;
      }
    }
    return fail(line, "unknown key '" + std::string(token) +
                          "' (expected forward, back, left, right, jump, sprint or crouch)");
  }

  bool parseAt(const std::vector<std::string_view>& t, uint32_t line) {
    if (t.size() < 3) return fail(line, "expected 'at T COMMAND ...'");
    ScriptEvent e;
    e.line = line;
    if (!parseTime(t[1], line, e.time)) return false;
    if (firstAtLine_ == 0) firstAtLine_ = line;
    const std::string_view cmd = t[2];
    if (cmd == "hold" || cmd == "release" || cmd == "tap") {
      if (t.size() != 4) return fail(line, "expected 'at T " + std::string(cmd) + " KEY'");
      e.action = cmd == "hold" ? ScriptAction::Hold
                               : (cmd == "release" ? ScriptAction::Release : ScriptAction::Tap);
      if (!parseKey(t[3], line, e.key)) return false;
    } else if (cmd == "look" || cmd == "turn") {
      if (t.size() != 5) return fail(line, "expected 'at T " + std::string(cmd) + " YAW PITCH'");
      double v[2];
      if (!numbers(t, 3, 2, v, line)) return false;
      e.action = cmd == "look" ? ScriptAction::Look : ScriptAction::Turn;
      e.a = static_cast<float>(v[0]);
      e.b = static_cast<float>(v[1]);
    } else if (cmd == "fly") {
      if (t.size() != 4 || (t[3] != "on" && t[3] != "off")) {
        return fail(line, "expected 'at T fly on' or 'at T fly off'");
      }
      e.action = ScriptAction::Fly;
      e.on = t[3] == "on";
    } else if (cmd == "throw") {
      if (t.size() != 3) return fail(line, "expected 'at T throw' (no arguments)");
      e.action = ScriptAction::Throw;
    } else {
      return fail(line, "unknown command '" + std::string(cmd) +
                            "' after 'at T' (expected hold, release, tap, look, turn, fly or "
                            "throw)");
    }
    script_.events.push_back(e);
    return true;
  }

  bool parseEnd(const std::vector<std::string_view>& t, uint32_t line) {
    if (t.size() != 2) return fail(line, "expected 'end T'");
    double v = 0.0;
    if (!parseTime(t[1], line, v)) return false;
    // A bound keeps a typo ("end 1e9") from running for days with nothing written.
    constexpr double kMaxScriptSeconds = 3600.0;
    if (v > kMaxScriptSeconds) {
      return fail(line,
                  "end time " + std::to_string(v) + " s is beyond the one-hour limit of a script");
    }
    script_.endTime = v;
    script_.endLine = line;
    haveEnd_ = true;
    endLine_ = line;
    return true;
  }

  std::string_view name_;
  ScenarioParams base_;
  ScenarioParams params_;
  ParamMask setMask_ = 0;
  Script script_;
  std::string error_;
  double lastTime_ = 0.0;
  uint32_t lastTimeLine_ = 0;
  std::string lastTimeText_;
  uint32_t firstAtLine_ = 0;
  uint32_t endLine_ = 0;
  uint32_t lastContentLine_ = 0;
  bool haveEnd_ = false;
};

}  // namespace

const char* scriptKeyName(ScriptKey key) {
  const auto k = static_cast<uint32_t>(key);
  return k < kScriptKeyCount ? kKeyNames[k] : "?";
}

bool Script::applyParams(ScenarioParams& ioParams, std::string* outError) const {
  ScenarioParams p = ioParams;
  ParamMask set = 0;
  for (const ScriptParam& sp : params) {
    std::string why;
    if (!setParam(p, sp.name, sp.value, &why)) {
      if (outError) *outError = "line " + std::to_string(sp.line) + ": " + why;
      return false;
    }
    set |= paramBit(sp.name);
  }
  applyDependentDefaults(p, set, ioParams);
  if (!validateParams(p, outError)) return false;
  ioParams = p;
  return true;
}

ScriptParseResult parseScript(std::string_view text, std::string_view name,
                              const ScenarioParams& base) {
  return Parser(name, base).run(text);
}

ScriptParseResult readScript(const std::string& path, const ScenarioParams& base) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ScriptParseResult r;
    r.error = path + ": cannot open the script file";
    return r;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parseScript(ss.str(), path, base);
}

Script Script::translated(const glm::dvec3& offset) const {
  Script out = *this;
  const auto move = [&offset](glm::vec3& p) { p = glm::vec3(glm::dvec3(p) + offset); };
  if (out.spawn) move(out.spawn->feet);
  for (ScriptProp& prop : out.props) move(prop.center);
  return out;
}

}  // namespace ofps
