// octree_demo: see README.md and `octree_demo --help`.
#include "app/simulation/options.h"
#include "app/simulation/run_modes.h"

int main(int argc, char** argv) {
  int exitCode = 0;
  const auto options = ofps::app::parseOptions(argc, argv, &exitCode);
  if (!options) return exitCode;
  return options->headless ? ofps::app::runHeadless(*options) : ofps::app::runWindowed(*options);
}
