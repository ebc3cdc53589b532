#include "octree_fps/io/obj_reader.h"

#include <gtest/gtest.h>

namespace ofps {
namespace {

TEST(ObjReader, ParsesCanonicalAndSlashForms) {
  const ObjReadResult r = parseObj(
      "# comment\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvn 0 0 1\nf 1 2 3\nf 2/5/1 4/6/1 3//1\n"
      "f -4 -3 -2 -1\ng group\n",
      "t.obj");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.mesh.positions.size(), 4u);
  ASSERT_EQ(r.mesh.triangleCount(), 4u);  // quad fanned into 2
  EXPECT_EQ(r.mesh.indices[3], 1u);
  EXPECT_EQ(r.mesh.indices[4], 3u);
  EXPECT_EQ(r.mesh.indices[5], 2u);
  EXPECT_EQ(r.mesh.indices[6], 0u);  // -4 relative to 4 vertices
  EXPECT_EQ(r.mesh.indices[11], 3u);
}

TEST(ObjReader, ErrorsNameTheLine) {
  ObjReadResult r = parseObj("v 0 0 0\nv 1 0 0\nf 1 2 3\n", "a.obj");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "a.obj:3: face index 3 out of range (2 vertices)");
  r = parseObj("v 0 zero 0\n", "b.obj");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "b.obj:1: bad vertex coordinate 'zero'");
  r = parseObj("v 0 0 0\nf 1 1\n", "c.obj");
  EXPECT_FALSE(r.ok);
  r = readObj("/nonexistent/level.obj");
  EXPECT_FALSE(r.ok);
}

}  // namespace
}  // namespace ofps
