// The octree_fps core from an engine's side: load a level, build the octree, query it, and walk
// a character over it. Prints one line per result; .ci/check-install.sh checks the numbers.
//
// Level: floor_and_step.obj (metres, Y up): a floor at y = 0, a 0.25 m step from z = -1 on, a
// wall at z = 5.
#include <octree_fps/controller/character_controller.h>
#include <octree_fps/io/obj_reader.h>
#include <octree_fps/spatial/octree.h>
#include <octree_fps/version.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <glm/vec3.hpp>
#include <vector>

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : CONSUMER_LEVEL;
  std::printf("octree_fps %s\n", OCTREE_FPS_VERSION_STRING);

  // Untrusted input: errors come back as a message, nothing is thrown.
  ofps::ObjReadResult obj = ofps::readObj(path);
  if (!obj.ok) {
    std::fprintf(stderr, "%s\n", obj.error.c_str());
    return 1;
  }
  // A level this small would fit one leaf (8 triangles per leaf by default); 2 makes a tree.
  ofps::OctreeBuildParams params;
  params.trianglesPerLeaf = 2;
  ofps::Octree octree;
  const ofps::OctreeBuildReport report =
      octree.build(obj.mesh.positions, obj.mesh.indices, {}, params);
  if (!report.ok) {
    std::fprintf(stderr, "octree build failed: %s\n", report.error.c_str());
    return 1;
  }
  std::printf("built: triangles=%u nodes=%u depth=%u\n", report.storedTriangles, report.nodeCount,
              report.depth);

  // Ray straight down from 2 m above the floor: t is in multiples of dir, so t = 2 m here.
  ofps::RayHit ray;
  ofps::QueryStats stats;
  if (octree.raycast({0.0f, 2.0f, 2.0f}, {0.0f, -1.0f, 0.0f}, 100.0f, ofps::kOctreeAllLayers, ray,
                     &stats)) {
    std::printf("ray: hit t=%.4f point=(%.3f %.3f %.3f) normal=(%.3f %.3f %.3f) triangle=%u\n",
                ray.t, ray.point.x, ray.point.y, ray.point.z, ray.normal.x, ray.normal.y,
                ray.normal.z, ray.triangle);
    // The work it took (brute force would test every triangle).
    std::printf("ray stats: nodes=%u triangles tested=%u of %u\n", stats.nodesVisited,
                stats.trianglesTested, octree.triangleCount());
  } else {
    std::printf("ray: miss\n");
  }

  // A standing capsule (radius 0.35 m, its segment 0.4 .. 1.45 m above the floor) swept 5 m
  // back, toward the wall at z = 5: first contact when its back reaches the wall.
  const float radius = 0.35f;
  const glm::vec3 a{0.0f, 0.4f, 1.0f};
  const glm::vec3 b{0.0f, 1.45f, 1.0f};
  ofps::SweepHit sweep;
  if (octree.sweepCapsule(a, b, radius, {0.0f, 0.0f, 5.0f}, ofps::kOctreeAllLayers, sweep)) {
    std::printf("sweep: toi=%.4f normal=(%.3f %.3f %.3f) triangle=%u\n", sweep.toi, sweep.normal.x,
                sweep.normal.y, sweep.normal.z, sweep.triangle);
  } else {
    std::printf("sweep: free\n");
  }

  // Which triangles a capsule lying on the floor, sunk 5 cm into it, overlaps.
  std::vector<uint32_t> touched(16);
  const uint32_t count = octree.collectCapsule({-1.0f, 0.3f, 2.0f}, {1.0f, 0.3f, 2.0f}, radius,
                                               ofps::kOctreeAllLayers, touched);
  std::printf("overlap: capsule on the floor overlaps %u triangle(s)\n", count);

  // A character walks forward (yaw 0 looks along -Z) for 1.5 s, over the step, then stands.
  ofps::CharacterController character;
  character.setSpawn({0.0f, 0.0f, 3.0f}, 0.0f);
  character.teleport({0.0f, 0.0f, 3.0f}, 0.0f);
  const float dt = character.params().tickSeconds();
  ofps::CharacterInput input;
  const int walkSteps = static_cast<int>(std::lround(1.5f / dt));
  const int totalSteps = static_cast<int>(std::lround(2.0f / dt));
  for (int i = 0; i < totalSteps; ++i) {
    input.forward = i < walkSteps;
    character.step(octree, input, dt);
  }
  const glm::vec3 feet = character.feet();
  std::printf("controller: steps=%d feet=(%.3f %.4f %.3f) grounded=%d\n", totalSteps, feet.x,
              feet.y, feet.z, character.grounded() ? 1 : 0);
  return 0;
}
