// What the page's JavaScript calls (exported by src/app/web/web.cmake; index.html and
// tests/web use them). Each returns at once; a level load runs in the next frame.
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <glad/gl.h>

#include <nlohmann/json.hpp>
#include <string>

#include "app/web/web_run.h"
#include "app/window/demo_parts.h"

using ofps::app::webRun;

extern "C" {

// The --stats-json content of the running demo, as JSON text ("{}" before the first level). The
// pointer stays valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ofps_stats_json() {
  static std::string text;
  text = webRun() != nullptr ? ofps::app::runStatsJson(webRun()->state).dump() : "{}";
  return text.c_str();
}

// Loads the level at `path` (a file in the page's file system: index.html writes picked and
// dropped files under /levels) as the panel's Level section does: a failed load keeps the level
// and shows the error (stats: level.load_error). Returns 0 when the load was started, 1 when the
// demo is not running or a load is already under way.
EMSCRIPTEN_KEEPALIVE int ofps_load_level(const char* path) {
  if (webRun() == nullptr || webRun()->ended) return 1;
  ofps::app::DemoState& s = webRun()->state;
  if (s.level.loader.busy()) return 1;
  ofps::app::requestLevelLoad(s, path);
  return 0;
}

// A level the page could not hand to the loader (Assimp could not convert it): reported as a
// failed load is (the Level section's error, a toast, stats' level.load_error), the level kept.
EMSCRIPTEN_KEEPALIVE void ofps_report_load_error(const char* error) {
  if (webRun() == nullptr || webRun()->ended) return;
  ofps::app::reportLoadFailure(webRun()->state, error);
}

// -1 while the demo runs, else its exit status (a run that ended by itself).
EMSCRIPTEN_KEEPALIVE int ofps_run_status() {
  if (webRun() == nullptr) return -1;
  return webRun()->ended ? webRun()->status : -1;
}

// 1 when the level is drawn with WEBGL_multi_draw, 0 when by a loop of draws.
EMSCRIPTEN_KEEPALIVE int ofps_multi_draw() {
  return ofpsWebMultiDraw() ? 1 : 0;
}

// Draws with WEBGL_multi_draw (on, where the browser has it) or with the loop of draws a browser
// without it gets (off): the tests draw the same frame both ways. Returns ofps_multi_draw().
EMSCRIPTEN_KEEPALIVE int ofps_use_multi_draw(int on) {
  ofpsWebMultiDraw() = on != 0 && emscripten_webgl_enable_WEBGL_multi_draw(
                                      emscripten_webgl_get_current_context()) != 0;
  return ofps_multi_draw();
}

}  // extern "C"
