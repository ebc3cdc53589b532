#include "level/import_settings.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

namespace ofps {
namespace {

namespace fs = std::filesystem;

std::string absolutePath(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) p = fs::absolute(path, ec);
  return p.lexically_normal().string();
}

uint64_t fnv1a64(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// Minimal reader for a flat JSON object of string / number / bool / null values: enough for
// the settings file, and strict enough to report a broken one instead of guessing.
class FlatJsonReader {
 public:
  explicit FlatJsonReader(const std::string& text) : s_(text) {}

  // Calls onValue(key, stringValue, numberValue, isString) per member. False on a syntax error.
  template <typename F>
  bool read(F&& onValue, std::string* outError) {
    skipSpace();
    if (!consume('{')) return fail("expected '{'", outError);
    skipSpace();
    if (consume('}')) return trailing(outError);
    for (;;) {
      skipSpace();
      std::string key;
      if (!readString(&key)) return fail("expected a quoted key", outError);
      skipSpace();
      if (!consume(':')) return fail("expected ':'", outError);
      skipSpace();
      std::string str;
      double num = 0.0;
      bool isString = false;
      if (peek() == '"') {
        if (!readString(&str)) return fail("unterminated string", outError);
        isString = true;
      } else if (s_.compare(i_, 4, "true") == 0) {
        i_ += 4;
        num = 1.0;
      } else if (s_.compare(i_, 5, "false") == 0) {
        i_ += 5;
      } else if (s_.compare(i_, 4, "null") == 0) {
        i_ += 4;
        num = std::nan("");
      } else {
        const char* begin = s_.c_str() + i_;
        char* end = nullptr;
        errno = 0;
        num = std::strtod(begin, &end);
        if (end == begin || errno == ERANGE) return fail("expected a value", outError);
        i_ += static_cast<size_t>(end - begin);
      }
      onValue(key, str, num, isString);
      skipSpace();
      if (consume(',')) continue;
      if (consume('}')) return trailing(outError);
      return fail("expected ',' or '}'", outError);
    }
  }

 private:
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  bool consume(char c) {
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  void skipSpace() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool readString(std::string* out) {
    if (!consume('"')) return false;
    while (i_ < s_.size()) {
      char c = s_[i_++];
      if (c == '"') return true;
      if (c == '\\' && i_ < s_.size()) c = s_[i_++];  // \" and \\ (paths); others kept verbatim
      out->push_back(c);
    }
    return false;
  }
  bool trailing(std::string* outError) {
    skipSpace();
    return i_ == s_.size() ? true : fail("text after the closing '}'", outError);
  }
  bool fail(const char* what, std::string* outError) const {
    if (outError != nullptr) *outError = std::string(what) + " at byte " + std::to_string(i_);
    return false;
  }

  const std::string& s_;
  size_t i_ = 0;
};

std::string jsonEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

bool readWholeFile(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return true;
}

bool writeWholeFile(const std::string& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return false;
    f << text;
    if (!f.flush()) return false;
  }
  fs::rename(tmp, path, ec);  // atomic replace: a reader never sees half a file
  if (ec) {
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

}  // namespace

std::string importSettingsPathBeside(const std::string& levelPath) {
  return levelPath + ".import.json";
}

std::string importSettingsPathPerUser(const std::string& levelPath) {
  std::string base;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg == '/') {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    base = std::string(home) + "/.config";
  } else {
    base = (fs::temp_directory_path() / "octree-fps-config").string();
  }
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(fnv1a64(absolutePath(levelPath))));
  return base + "/octree-fps/import-settings/" + hash + ".json";
}

bool parseImportSettings(const std::string& text, ImportSettings* result, std::string* outError) {
  ImportSettings out;
  std::string valueError;
  FlatJsonReader reader(text);
  const bool syntaxOk = reader.read(
      [&](const std::string& key, const std::string& str, double num, bool isString) {
        if (key == "up") {
          if (isString && (str == "y" || str == "Y" || str == "z" || str == "Z")) {
            out.upAxis = static_cast<char>(std::tolower(static_cast<unsigned char>(str[0])));
          } else if (valueError.empty()) {
            valueError = "\"up\" must be \"y\" or \"z\"";
          }
        } else if (key == "scale") {
          if (!isString && std::isfinite(num) && num > 0.0 && num < 1e6) {
            out.scale = static_cast<float>(num);
          } else if (valueError.empty()) {
            valueError = "\"scale\" must be a number > 0 (metres per file unit)";
          }
        }
        // Other keys ("level", comments from a user) are ignored.
      },
      outError);
  if (!syntaxOk) return false;
  if (!valueError.empty()) {
    if (outError != nullptr) *outError = valueError;
    return false;
  }
  *result = out;
  return true;
}

std::string formatImportSettings(const ImportSettings& settings, const std::string& levelPath) {
  std::string s = "{\n";
  s += "  \"level\": \"" + jsonEscape(absolutePath(levelPath)) + "\"";
  if (settings.upAxis) s += ",\n  \"up\": \"" + std::string(1, *settings.upAxis) + "\"";
  if (settings.scale) {
    // Shortest text that reads back as the same float: 0.0254, not 0.0253999997.
    char buf[64];
    for (int precision = 6; precision <= 9; ++precision) {
      std::snprintf(buf, sizeof buf, "%.*g", precision, static_cast<double>(*settings.scale));
      if (std::strtof(buf, nullptr) == *settings.scale) break;
    }
    s += ",\n  \"scale\": " + std::string(buf);
  }
  s += "\n}\n";
  return s;
}

std::optional<LoadedImportSettings> readImportSettings(const std::string& levelPath,
                                                       std::string* warning) {
  // Both may exist when the level's folder was read-only once: the newer file is the user's
  // latest choice.
  std::vector<std::string> paths;
  for (const std::string& path :
       {importSettingsPathBeside(levelPath), importSettingsPathPerUser(levelPath)}) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) paths.push_back(path);
  }
  if (paths.size() == 2) {
    std::error_code e1, e2;
    if (fs::last_write_time(paths[1], e1) > fs::last_write_time(paths[0], e2)) {
      std::swap(paths[0], paths[1]);
    }
  }
  for (const std::string& path : paths) {
    std::string text;
    std::string error;
    if (!readWholeFile(path, &text)) {
      error = "cannot be read";
    } else if (ImportSettings parsed; parseImportSettings(text, &parsed, &error)) {
      return LoadedImportSettings{parsed, path};
    }
    if (warning != nullptr) {
      *warning = "import settings " + path + " ignored: " + error;
    }
  }
  return std::nullopt;
}

// A folder (or settings file) without any write permission bit is read-only by intent; respect
// that even when running as root, who could write there anyway (the team's shared levels).
bool markedReadOnly(const fs::path& p) {
  std::error_code ec;
  const fs::file_status st = fs::status(p, ec);
  if (ec || !fs::exists(st)) return false;
  const fs::perms w = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
  return (st.permissions() & w) == fs::perms::none;
}

std::string writeImportSettings(const std::string& levelPath, const ImportSettings& settings,
                                std::string* warning) {
  const std::string text = formatImportSettings(settings, levelPath);
  const std::string beside = importSettingsPathBeside(levelPath);
  fs::path folder = fs::path(beside).parent_path();
  if (folder.empty()) folder = ".";
  if (!markedReadOnly(folder) && !markedReadOnly(beside) && writeWholeFile(beside, text)) {
    return beside;
  }
  const std::string perUser = importSettingsPathPerUser(levelPath);
  if (writeWholeFile(perUser, text)) {
    if (warning != nullptr) {
      *warning = "cannot write import settings beside the level (" + beside + "); saved them to " +
                 perUser;
    }
    return perUser;
  }
  if (warning != nullptr) {
    *warning = "cannot write import settings to " + beside + " nor " + perUser +
               "; pass the same --up/--scale next time";
  }
  return {};
}

void forgetImportSettings(const std::string& levelPath, std::string* warning) {
  for (const std::string& path :
       {importSettingsPathBeside(levelPath), importSettingsPathPerUser(levelPath)}) {
    std::error_code ec;
    if (!fs::exists(path, ec)) continue;
    if (!fs::remove(path, ec) && warning != nullptr) {
      *warning = "cannot delete import settings " + path + " (" + ec.message() +
                 "); the level will keep loading with them";
    }
  }
}

}  // namespace ofps
