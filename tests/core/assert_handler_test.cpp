// OFPS_ASSERT (octree_fps/assert.h) in the core as built for the tests (RelWithDebInfo: on): a
// programmer error reaches the installed handler with its file, line and message, and when the
// handler returns, the call does what its header says for bad input (here: nothing).
#include <gtest/gtest.h>

#include <string>

#include "octree_fps/assert.h"
#include "octree_fps/spatial/hash_grid.h"

namespace ofps::test {
namespace {

struct Seen {
  int calls = 0;
  std::string file, message;
};
Seen gSeen;

void recordingHandler(const char* file, int /*line*/, const char* /*condition*/,
                      const char* message) {
  ++gSeen.calls;
  gSeen.file = file;
  gSeen.message = message;
}

TEST(AssertHandler, ProgrammerErrorsReachTheHandlerAndChangeNothing) {
#if OFPS_ASSERTS
  gSeen = {};
  const AssertHandler previous = setAssertHandler(&recordingHandler);
  HashGrid grid(1.0f);
  grid.insertSphere(7, glm::vec3(0.5f), 0.2f);
  grid.insertSphere(7, glm::vec3(3.5f), 0.2f);  // twice: an error
  grid.remove(8);                               // never inserted: an error
  EXPECT_EQ(setAssertHandler(previous), &recordingHandler);
  EXPECT_EQ(gSeen.calls, 2);
  EXPECT_NE(gSeen.file.find("hash_grid.cpp"), std::string::npos) << gSeen.file;
  EXPECT_NE(gSeen.message.find("remove"), std::string::npos) << gSeen.message;
  // Nothing changed: one object, where it was first put.
  EXPECT_EQ(grid.objectCount(), 1u);
  EXPECT_EQ(grid.object(7).center, glm::vec3(0.5f));
  std::string error;
  EXPECT_TRUE(grid.validate(&error)) << error;
#else
  GTEST_SKIP() << "built with OFPS_ASSERTS=0 (Release): the checks are compiled out";
#endif
}

}  // namespace
}  // namespace ofps::test
