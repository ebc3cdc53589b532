// Octree build, validation and bookkeeping (layout and rules in octree.h).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

#include "octree_fps/geometry/scalar_inl.h"
#include "octree_fps/geometry/simd4.h"
#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/platform.h"
#include "octree_fps/spatial/octree.h"
#include "octree_fps/spatial/octree_grid.h"

namespace ofps {
namespace {

double nowMs() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
}

std::string formatVec(const glm::vec3& v) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "(%g, %g, %g)", static_cast<double>(v.x),
                static_cast<double>(v.y), static_cast<double>(v.z));
  return buf;
}

// The octree's large arrays are put on transparent huge pages where Linux offers them (madvise;
// a hint, nothing happens where they are off): at 1M-10M triangles a ray's node and triangle
// loads are scattered over hundreds of MB, and with 4 KiB pages most of them also miss the TLB.
// Reserves `count` elements in a vector that has no storage yet and advises its 2 MiB-aligned
// part before anything touches it (a vector that already has storage is left as it is).
template <class T>
void reserveOnHugePages(std::vector<T>& v, size_t count) {
  const bool fresh = v.capacity() == 0;
  v.reserve(count);
  if (fresh) platform::adviseHugePages(v.data(), v.capacity() * sizeof(T));
}

// What the partition moves around: 20 bytes per triangle.
struct BuildRecord {
  glm::vec3 centroid;  // centre of the triangle's bounding box
  float size;          // largest edge of the triangle's bounding box
  uint32_t index;      // position in the arrays being rebuilt
};
// The partition loads centroid and size as one four-float vector.
static_assert(offsetof(BuildRecord, size) == 3 * sizeof(float),
              "centroid and size must be adjacent");

using detail::kQuantMax;

// More threads than this only add start-up cost (the work is split into about 4 per thread).
constexpr uint32_t kMaxBuildThreads = 64;
using detail::QuantAxis;

struct WorkItem {
  uint32_t begin, end;  // record range
  glm::vec3 cellCenter;
  float cellHalf;
  uint32_t level;
  uint32_t parent;
  uint32_t inTmp;  // 1: the range's records are in Partitioner::tmp, 0: in recs
};

// Splits one node's record range (the octree rule in octree.h). The records of disjoint ranges
// are independent, so different threads may split different subtrees at once.
// The records move between two arrays: a split scatters its range from the array that holds it
// into the other one, where its children's ranges then are (no copy back per level). A range
// whose place in slot order is final (a leaf's records, the records kept in a node) is copied
// into `recs` if it is not there already, so that recs ends in slot order.
struct Partitioner {
  std::vector<BuildRecord>& recs;
  std::vector<BuildRecord>& tmp;
  // Per record position: its code (below) in the last counting pass over it, so that the
  // scatter need not compute it again.
  std::vector<uint8_t>& codes;
  uint32_t leafSize, maxLevel;
  float looseness;
  uint32_t minChild;

  // Reorders item's records (kept first, then octants 0..7) and writes the children's work items
  // in octant order (parent left to the caller). Returns the number of children; 0: a leaf.
  uint32_t split(const WorkItem& item, WorkItem (&kids)[8]) const {
    const BuildRecord* const src = item.inTmp ? tmp.data() : recs.data();
    BuildRecord* const dst = item.inTmp ? recs.data() : tmp.data();
    auto leaf = [&] {
      if (item.inTmp) std::copy(src + item.begin, src + item.end, recs.data() + item.begin);
      return 0u;
    };
    const uint32_t count = item.end - item.begin;
    if (count <= leafSize || item.level >= maxLevel) return leaf();

    // Find the octant of every record; shrink the cell while everything falls in one octant.
    std::array<uint32_t, 9> counts{};
    uint32_t level = item.level;
    glm::vec3 center = item.cellCenter;
    float cellHalf = item.cellHalf;
    float keepSize = cellHalf * looseness;
    uint8_t* const code = codes.data();
    for (bool first = true;; first = false) {
      // A record's code: its octant in bits 0-2 (centroid >= the cell's centre on x, y, z), and
      // bit 3 when it is kept here (size > looseness x a child cell's edge); bucket 8 (kept) is
      // every code >= 8. Two four-lane compares of (centroid, size): the same float comparisons
      // as the scalar form, lane by lane.
      const float centerLanes[4] = {center.x, center.y, center.z, 0.0f};
      const simd::F4 centerV = simd::load(centerLanes), keepV = simd::splat(keepSize);
      auto codeOf = [&](const BuildRecord& r) -> uint32_t {
        float lanes[4];
        std::memcpy(lanes, &r, sizeof(lanes));  // centroid x, y, z, size
        const simd::F4 v = simd::load(lanes);
        return (simd::bits(simd::ge(v, centerV)) & 7u) | (simd::bits(simd::gt(v, keepV)) & 8u);
      };
      std::array<uint32_t, 16> byCode{};
      for (uint32_t i = item.begin; i < item.end; ++i) {
        const uint32_t c = codeOf(src[i]);
        code[i] = static_cast<uint8_t>(c);
        ++byCode[c];
      }
      for (uint32_t k = 0; k < 8; ++k) counts[k] = byCode[k];
      counts[8] = 0;
      for (uint32_t k = 8; k < 16; ++k) counts[8] += byCode[k];
      uint32_t nonEmpty = 0, only = 0;
      for (uint32_t k = 0; k < 8; ++k) {
        if (counts[k] != 0) {
          ++nonEmpty;
          only = k;
        }
      }
      // All centroids at one point: no split can separate them, a leaf. Only possible when at
      // most one octant is occupied; with none (everything kept) the node is a leaf anyway
      // (below), so the check costs a pass only when exactly one octant is.
      if (first && nonEmpty == 1) {
        const glm::vec3 c0 = src[item.begin].centroid;
        bool same = true;
        for (uint32_t i = item.begin; i < item.end && same; ++i) {
          const glm::vec3& c = src[i].centroid;
          same = c.x == c0.x && c.y == c0.y && c.z == c0.z;
        }
        if (same) return leaf();
      }
      if (counts[8] != 0 || nonEmpty != 1 || level + 1 >= maxLevel) break;
      // Everything goes to one child: descend the cell without making a node.
      cellHalf *= 0.5f;
      keepSize = cellHalf * looseness;
      center += glm::vec3((only & 1u) ? cellHalf : -cellHalf, (only & 2u) ? cellHalf : -cellHalf,
                          (only & 4u) ? cellHalf : -cellHalf);
      ++level;
    }
    // Children too small to pay for a node stay here.
    std::array<uint32_t, 9> remap;
    for (uint32_t k = 0; k < 8; ++k) remap[k] = (counts[k] != 0 && counts[k] < minChild) ? 8u : k;
    remap[8] = 8;
    std::array<uint32_t, 9> finalCounts{};
    for (uint32_t k = 0; k < 9; ++k) finalCounts[remap[k]] += counts[k];
    if (finalCounts[8] == count) return leaf();  // nothing left to split off
    // Stable counting sort: kept first, then octants 0..7.
    std::array<uint32_t, 9> offset{};
    uint32_t run = item.begin;
    offset[8] = run;
    run += finalCounts[8];
    for (uint32_t k = 0; k < 8; ++k) {
      offset[k] = run;
      run += finalCounts[k];
    }
    std::array<uint32_t, 9> firstOf = offset;
    std::array<uint8_t, 16> bucketOfCode;
    for (uint32_t c = 0; c < 16; ++c) bucketOfCode[c] = static_cast<uint8_t>(remap[c < 8 ? c : 8]);
    for (uint32_t i = item.begin; i < item.end; ++i) dst[offset[bucketOfCode[code[i]]]++] = src[i];
    // The kept records' slots are final here; the children's ranges stay in dst.
    if (!item.inTmp)
      std::copy(dst + item.begin, dst + item.begin + finalCounts[8], recs.data() + item.begin);
    const float childHalf = cellHalf * 0.5f;
    uint32_t n = 0;
    for (uint32_t k = 0; k < 8; ++k) {
      const uint32_t c = finalCounts[k];
      if (c == 0) continue;
      const glm::vec3 childCenter =
          center + glm::vec3((k & 1u) ? childHalf : -childHalf, (k & 2u) ? childHalf : -childHalf,
                             (k & 4u) ? childHalf : -childHalf);
      kids[n++] = {firstOf[k], firstOf[k] + c,      childCenter,    childHalf,
                   level + 1,  kOctreeInvalidIndex, 1u - item.inTmp};
    }
    return n;
  }
};

// Nodes in depth-first preorder: first slot, parent (index in these arrays; kOctreeInvalidIndex
// for the first node's parent), level.
struct PreorderNodes {
  std::vector<uint32_t> first, parent, level;
  void push(const WorkItem& item, uint32_t parentIndex) {
    first.push_back(item.begin);
    parent.push_back(parentIndex);
    level.push_back(item.level);
  }
};

// The whole subtree under `root`, on the calling thread (iterative, no recursion).
void partitionSubtree(const Partitioner& part, const WorkItem& root, PreorderNodes& out) {
  std::vector<WorkItem> work{root};
  work.back().parent = kOctreeInvalidIndex;
  while (!work.empty()) {
    const WorkItem item = work.back();
    work.pop_back();
    const uint32_t index = static_cast<uint32_t>(out.first.size());
    out.push(item, item.parent);
    WorkItem kids[8];
    // Children pushed in reverse so that octant 0 is built next (preorder).
    for (uint32_t k = part.split(item, kids); k-- > 0;) {
      kids[k].parent = index;
      work.push_back(kids[k]);
    }
  }
}

// Builds the preorder node arrays, with up to `threads` threads: the top levels are split on the
// calling thread until there are about 4 subtrees per thread, the subtrees are built in parallel,
// and the results are spliced in preorder. Identical output for any thread count. Returns the
// number of threads used.
uint32_t partitionTree(const Partitioner& part, const WorkItem& root, uint32_t threads,
                       std::vector<uint32_t>& outFirst, std::vector<uint32_t>& outParent,
                       std::vector<uint32_t>& outLevel) {
  PreorderNodes all;
  all.first.swap(outFirst);
  all.parent.swap(outParent);
  all.level.swap(outLevel);
  const uint32_t n = root.end - root.begin;
  if (threads <= 1 || n < 4096) {
    partitionSubtree(part, root, all);
    all.first.swap(outFirst);
    all.parent.swap(outParent);
    all.level.swap(outLevel);
    return 1;
  }
  // Top nodes, split breadth-first; those left unsplit become tasks.
  struct Top {
    WorkItem item;
    uint32_t kids[8];
    uint32_t kidCount = 0;
    int task = -1;
  };
  std::vector<Top> top{{root, {}, 0, -1}};
  std::vector<uint32_t> frontier{0};
  for (int depth = 0; depth < 4 && frontier.size() < 4 * threads; ++depth) {
    std::vector<uint32_t> next;
    for (const uint32_t t : frontier) {
      WorkItem kids[8];
      const uint32_t k = part.split(top[t].item, kids);
      top[t].kidCount = k;
      for (uint32_t i = 0; i < k; ++i) {
        top[t].kids[i] = static_cast<uint32_t>(top.size());
        next.push_back(static_cast<uint32_t>(top.size()));
        top.push_back({kids[i], {}, 0, -1});
      }
    }
    frontier.swap(next);
  }
  std::vector<PreorderNodes> tasks(frontier.size());
  for (size_t i = 0; i < frontier.size(); ++i) top[frontier[i]].task = static_cast<int>(i);
  std::atomic<size_t> nextTask{0};
  auto worker = [&] {
    for (size_t i = nextTask++; i < frontier.size(); i = nextTask++) {
      partitionSubtree(part, top[frontier[i]].item, tasks[i]);
    }
  };
  const uint32_t used =
      static_cast<uint32_t>(std::min<size_t>(threads, std::max<size_t>(1, frontier.size())));
  {
    std::vector<std::thread> pool;
    for (uint32_t i = 1; i < used; ++i) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
  }
  // Splice in preorder (top nodes first, each task's nodes where its root belongs).
  std::vector<std::pair<uint32_t, uint32_t>> stack{{0u, kOctreeInvalidIndex}};  // (top, parent)
  while (!stack.empty()) {
    const auto [t, parent] = stack.back();
    stack.pop_back();
    if (top[t].task >= 0) {
      const PreorderNodes& sub = tasks[static_cast<size_t>(top[t].task)];
      const uint32_t offset = static_cast<uint32_t>(all.first.size());
      for (size_t j = 0; j < sub.first.size(); ++j) {
        all.first.push_back(sub.first[j]);
        all.parent.push_back(sub.parent[j] == kOctreeInvalidIndex ? parent
                                                                  : sub.parent[j] + offset);
        all.level.push_back(sub.level[j]);
      }
      continue;
    }
    const uint32_t index = static_cast<uint32_t>(all.first.size());
    all.push(top[t].item, parent);
    for (uint32_t k = top[t].kidCount; k-- > 0;) stack.push_back({top[t].kids[k], index});
  }
  all.first.swap(outFirst);
  all.parent.swap(outParent);
  all.level.swap(outLevel);
  return used;
}

// The next build id (0 is "never built").
uint64_t takeBuildId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

void Octree::clear() {
  buildId_ = takeBuildId();
  clearStorage();
}

void Octree::clearStorage() {
  qBounds_.clear();
  boundsSlot_.clear();
  qOrigin_ = glm::vec3(0.0f);
  qScale_ = glm::vec3(0.0f);
  qInvScale_ = glm::vec3(0.0f);
  rootBounds_ = Aabb{};
  links_.clear();
  blocks_.clear();
  degenerateLanes_.clear();
  originalIndex_.clear();
  layers_.clear();
  report_ = {};
}

size_t Octree::bytes() const {
  return qBounds_.size() * sizeof(uint16_t) + boundsSlot_.size() +
         links_.size() * sizeof(OctreeNodeLinks) + blocks_.size() * sizeof(OctreeTriangleBlock) +
         degenerateLanes_.size() + originalIndex_.size() * sizeof(uint32_t) +
         layers_.size() * sizeof(uint32_t);
}

namespace {

// FNV-1a style mixing, eight bytes at a time (the tail byte by byte). Not for security: it only
// has to tell two builds apart.
struct Hasher {
  uint64_t h = 0xcbf29ce484222325ull;
  void mix(uint64_t word) { h = (h ^ word) * 0x100000001b3ull; }
  void bytes(const void* data, size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    mix(size);  // arrays of different lengths must differ even when one is a prefix
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      mix(w);
    }
    for (; i < size; ++i) mix(p[i]);
  }
  template <class T>
  void array(const std::vector<T>& v) {
    bytes(v.data(), v.size() * sizeof(T));
  }
};

}  // namespace

uint64_t Octree::structureHash() const {
  Hasher hs;
  hs.array(links_);
  hs.array(qBounds_);
  hs.array(boundsSlot_);
  const glm::vec3 grid[5] = {qOrigin_, qScale_, qInvScale_, rootBounds_.min, rootBounds_.max};
  hs.bytes(grid, sizeof(grid));
  hs.array(blocks_);
  hs.array(degenerateLanes_);
  hs.array(originalIndex_);
  hs.array(layers_);
  return hs.h;
}

float Octree::dequantize(uint32_t k, uint32_t q) const {
  const int axis = static_cast<int>(k % 3);
  // Exactly simd::F4's origin + float(q) * scale, lane by lane (no FMA: -ffp-contract=off).
  return qOrigin_[axis] + static_cast<float>(q) * qScale_[axis];
}

Aabb Octree::nodeBounds(uint32_t node) const {
  Aabb b;
  for (uint32_t k = 0; k < 3; ++k) {
    b.min[static_cast<int>(k)] = dequantize(k, qBounds_[boundsIndex(node, k)]);
    b.max[static_cast<int>(k)] = dequantize(k + 3, qBounds_[boundsIndex(node, k + 3)]);
  }
  return b;
}

TriangleRange Octree::subtreeRange(uint32_t node) const {
  uint32_t last = node;
  while (links_[last].childCount != 0)
    last = links_[last].firstChild + links_[last].childCount - 1u;
  return {links_[node].firstTriangle, links_[last].ownEnd - links_[node].firstTriangle};
}

// What a build reads: its input triangles by position (0 .. count() - 1), either gathered from
// positions and indices or given as triangles, with each position's original index and layers.
// The build reads each input triangle twice, once to check it and make its partition record,
// and once to store it in its slot; it never copies the whole input.
struct Octree::BuildSource {
  std::span<const glm::vec3> positions;  // with indices (3 per triangle) ...
  std::span<const uint32_t> indices;
  std::span<const Triangle> triangles;  // ... or the triangles themselves (indexed == false)
  bool indexed = false;
  bool validate = true;                // check indices and finiteness (untrusted input)
  std::span<const uint32_t> original;  // position -> original index; empty: the position
  std::span<const uint32_t> layers;    // per position; used only when keepLayers
  bool keepLayers = false;

  size_t count() const { return indexed ? indices.size() / 3 : triangles.size(); }
  Triangle at(size_t t) const {
    if (!indexed) return triangles[t];
    return {positions[indices[3 * t]], positions[indices[3 * t + 1]],
            positions[indices[3 * t + 2]]};
  }
  // at(t), or false with the message naming the first bad vertex (an index out of range or a
  // non-finite coordinate; for indexed input each vertex's index is checked before its value).
  bool checkedAt(size_t t, Triangle& out, std::string* outError) const {
    if (!indexed) {
      out = triangles[t];
      if (!validate) return true;
      for (const glm::vec3* v : {&out.v0, &out.v1, &out.v2}) {
        if (!finite3(*v)) {
          *outError = "triangle " + std::to_string(t) + " has a non-finite vertex " + formatVec(*v);
          return false;
        }
      }
      return true;
    }
    glm::vec3* v[3] = {&out.v0, &out.v1, &out.v2};
    for (size_t k = 0; k < 3; ++k) {
      const uint32_t idx = indices[3 * t + k];
      if (idx >= positions.size()) {
        *outError = "triangle " + std::to_string(t) + " has vertex index " + std::to_string(idx) +
                    " out of range (" + std::to_string(positions.size()) + " vertices)";
        return false;
      }
      *v[k] = positions[idx];
      if (!finite3(*v[k])) {
        *outError =
            "triangle " + std::to_string(t) + " has a non-finite vertex " + formatVec(*v[k]);
        return false;
      }
    }
    return true;
  }
};

OctreeBuildReport Octree::build(std::span<const glm::vec3> positions,
                                std::span<const uint32_t> indices, std::span<const uint32_t> layers,
                                const OctreeBuildParams& params) {
  const double start = nowMs();
  clear();  // the build's one id: an early failure leaves an empty tree under it
  OctreeBuildReport fail;
  if (indices.size() % 3 != 0) {
    fail.error = "index count " + std::to_string(indices.size()) + " is not a multiple of 3";
    report_ = fail;
    return fail;
  }
  const size_t triCount = indices.size() / 3;
  if (triCount >= kOctreeInvalidIndex) {
    fail.error = "too many triangles (" + std::to_string(triCount) + ")";
    report_ = fail;
    return fail;
  }
  fail.inputTriangles = static_cast<uint32_t>(triCount);
  if (!layers.empty() && layers.size() != triCount) {
    fail.error = "layers has " + std::to_string(layers.size()) + " entries for " +
                 std::to_string(triCount) + " triangles";
    report_ = fail;
    return fail;
  }
  BuildSource source;
  source.positions = positions;
  source.indices = indices;
  source.indexed = true;
  source.layers = layers;
  // Layers are stored only when some triangle is not in every layer.
  source.keepLayers =
      std::any_of(layers.begin(), layers.end(), [](uint32_t m) { return m != kOctreeAllLayers; });
  return buildFrom(source, static_cast<uint32_t>(triCount), params, start);
}

OctreeBuildReport Octree::build(std::span<const Triangle> triangles,
                                std::span<const uint32_t> layers, const OctreeBuildParams& params) {
  const double start = nowMs();
  clear();  // the build's one id: an early failure leaves an empty tree under it
  OctreeBuildReport fail;
  fail.inputTriangles =
      static_cast<uint32_t>(std::min<size_t>(triangles.size(), kOctreeInvalidIndex));
  if (triangles.size() >= kOctreeInvalidIndex) {
    fail.error = "too many triangles (" + std::to_string(triangles.size()) + ")";
    report_ = fail;
    return fail;
  }
  if (!layers.empty() && layers.size() != triangles.size()) {
    fail.error = "layers has " + std::to_string(layers.size()) + " entries for " +
                 std::to_string(triangles.size()) + " triangles";
    report_ = fail;
    return fail;
  }
  BuildSource source;
  source.triangles = triangles;
  source.layers = layers;
  source.keepLayers =
      std::any_of(layers.begin(), layers.end(), [](uint32_t m) { return m != kOctreeAllLayers; });
  return buildFrom(source, static_cast<uint32_t>(triangles.size()), params, start);
}

OctreeBuildReport Octree::rebuild(const OctreeBuildParams& params) {
  const double start = nowMs();
  buildId_ = takeBuildId();  // the rebuild's one id (build() takes its own in clear())
  const OctreeBuildReport old = report_;
  // Restore input order first so that rebuild() gives exactly what build() gives.
  const size_t n = originalIndex_.size();
  std::vector<uint32_t> bySlot(n);
  std::iota(bySlot.begin(), bySlot.end(), 0u);
  std::sort(bySlot.begin(), bySlot.end(),
            [&](uint32_t a, uint32_t b) { return originalIndex_[a] < originalIndex_[b]; });
  std::vector<Triangle> tris(n);
  std::vector<uint32_t> orig(n), lay(layers_.empty() ? 0 : n);
  for (size_t i = 0; i < n; ++i) {
    tris[i] = triangle(bySlot[i]);
    orig[i] = originalIndex_[bySlot[i]];
    if (!lay.empty()) lay[i] = layers_[bySlot[i]];
  }
  BuildSource source;
  source.triangles = tris;
  source.validate = false;  // stored by an earlier build: already checked
  source.original = orig;
  source.layers = lay;
  source.keepLayers = !lay.empty();
  // Triangles an earlier build dropped stay dropped, and stay counted; a build that drops
  // degenerate triangles after one that kept them drops those still stored.
  OctreeBuildReport r = buildFrom(source, old.inputTriangles, params, start);
  r.degenerateTriangles = old.degenerateTriangles;
  r.droppedTriangles += old.droppedTriangles;
  report_.degenerateTriangles = r.degenerateTriangles;
  report_.droppedTriangles = r.droppedTriangles;
  return r;
}

OctreeBuildReport Octree::buildFrom(const BuildSource& source, uint32_t inputTriangles,
                                    const OctreeBuildParams& params, double startMs) {
  // The caller took this build's id (build(): clear(); rebuild()).
  // One pass over the input: check each triangle, count (and maybe drop) the zero-area ones,
  // and make the partition's record of each triangle kept (its index: its input position).
  const size_t count = source.count();
  std::vector<BuildRecord> recs(count);
  std::vector<uint8_t> degenerateFlags(count);  // by input position
  uint32_t degenerate = 0, dropped = 0, n = 0;
  Aabb all;
  {
    std::string error;
    for (size_t t = 0; t < count; ++t) {
      Triangle tri;
      if (!source.checkedAt(t, tri, &error)) {
        clearStorage();  // under the id the caller took: an empty tree
        OctreeBuildReport fail;
        fail.inputTriangles = inputTriangles;
        fail.error = error;
        report_ = fail;
        return fail;
      }
      const bool d = isDegenerateTriangle(tri);
      if (d) {
        ++degenerate;
        if (params.dropDegenerate) {
          ++dropped;
          continue;
        }
      }
      degenerateFlags[t] = d ? 1 : 0;
      const Aabb b = tri.bounds();
      const glm::vec3 s = b.size();
      recs[n++] = {b.center(), std::max(s.x, std::max(s.y, s.z)), static_cast<uint32_t>(t)};
      all.grow(b);
    }
  }
  recs.resize(n);
  params_ = params;
  params_.trianglesPerLeaf = std::max(1u, params.trianglesPerLeaf);
  params_.maxLevel = std::min(params.maxLevel, kOctreeMaxLevel);
  const uint32_t leafSize = params_.trianglesPerLeaf;
  const uint32_t maxLevel = params_.maxLevel;
  const float looseness = params_.looseness >= 0.0f ? params_.looseness : 1.0f;
  // A child that would hold fewer than this many triangles stays in its parent (see octree.h).
  const uint32_t minChild = leafSize >= 6 ? 3u : (leafSize >= 4 ? 2u : 1u);
  links_.clear();
  qBounds_.clear();
  // The partition produces nodes in depth-first preorder (first slot, parent, level); they are
  // re-laid out with contiguous children at the end.
  std::vector<uint32_t> preFirst, levels;
  std::vector<BuildRecord> tmp(n);
  std::vector<uint8_t> codes(n);
  std::vector<uint32_t> parents;
  // A build without threads (WebAssembly without -pthread) runs on the calling thread whatever
  // params.threads asks; the result is the same (see partitionTree).
  const uint32_t requestedThreads =
      !platform::threadsAvailable()
          ? 1u
          : std::min(kMaxBuildThreads,
                     params.threads != 0 ? params.threads : platform::buildThreads());
  uint32_t threadsUsed = 1;
  if (n > 0) {
    preFirst.reserve(n / 2 + 2);
    parents.reserve(n / 2 + 2);
    levels.reserve(n / 2 + 2);
    const glm::vec3 ext = all.size();
    // Root cell: the bounding cube. Cells only assign triangles; rounding of cell bounds cannot
    // lose anything because culling uses the tight bounds computed below.
    const float half = std::max(ext.x, std::max(ext.y, ext.z)) * 0.5f;
    const Partitioner part{recs, tmp, codes, leafSize, maxLevel, looseness, minChild};
    const WorkItem root{0, n, all.center(), half, 0, kOctreeInvalidIndex, 0};
    threadsUsed = partitionTree(part, root, requestedThreads, preFirst, parents, levels);
  }
  const uint32_t nodeCount = static_cast<uint32_t>(preFirst.size());
  // Apply the permutation: records are now in slot order. The triangles are read from the input
  // a second time, straight into their blocks of four (lanes past the last triangle repeat it),
  // with their degenerate flags; the passes below read them from the blocks.
  {
    reserveOnHugePages(originalIndex_, n);
    originalIndex_.resize(n);
    layers_.resize(source.keepLayers ? n : 0);
    for (uint32_t s = 0; s < n; ++s) {
      const uint32_t i = recs[s].index;
      originalIndex_[s] = source.original.empty() ? i : source.original[i];
      if (source.keepLayers) layers_[s] = source.layers[i];
    }
    reserveOnHugePages(blocks_, (n + 3) / 4);
    blocks_.resize((n + 3) / 4);
    degenerateLanes_.assign(blocks_.size(), 0);
    // The reads are scattered over the input (slot order is the octree's): each triangle (its
    // indices, then its vertices) is prefetched a few dozen slots ahead so that the cache misses
    // overlap.
    constexpr uint32_t kAhead = 32;
    for (uint32_t s = 0; s < blocks_.size() * 4; ++s) {
      if (source.indexed) {
        if (s + kAhead < n) simd::prefetch(&source.indices[3 * size_t{recs[s + kAhead].index}]);
      } else if (s + kAhead < n) {
        simd::prefetch(&source.triangles[recs[s + kAhead].index]);
      }
      const uint32_t i = recs[std::min(s, n - 1)].index;
      const Triangle t = source.at(i);
      const glm::vec3* v[3] = {&t.v0, &t.v1, &t.v2};
      for (int k = 0; k < 9; ++k) blocks_[s >> 2].c[k][s & 3u] = (*v[k / 3])[k % 3];
      if (s < n && degenerateFlags[i] != 0)
        degenerateLanes_[s >> 2] |= static_cast<uint8_t>(1u << (s & 3u));
    }
  }
  preFirst.push_back(n);  // own ranges end at the next node's first slot
  // The octree as built, in preorder: node i owns slots [preFirst[i], preFirst[i + 1]). Now its
  // final form, as a temporary tree (t*) with explicit ranges and up to kOctreeMaxChildren children
  // per node:
  // Step 1 below adds one node (a leaf) per inner node with triangles of its own: the arrays are
  // sized for all of them at once, so that nothing is reallocated and copied as it goes. Only the
  // octree's nodes have rows of children (the added leaves have none); the rows are not
  // zero-filled, as only the first tKidCount[p] entries of a row are ever read.
  std::vector<uint32_t> tKidCount(nodeCount, 0);
  for (uint32_t i = 1; i < nodeCount; ++i) ++tKidCount[parents[i]];
  uint32_t added = 0;
  for (uint32_t p = 0; p < nodeCount; ++p) {
    added +=
        tKidCount[p] != 0 && tKidCount[p] != kOctreeMaxChildren && preFirst[p + 1] != preFirst[p];
  }
  const uint32_t tCount = nodeCount + added;
  tKidCount.resize(tCount, 0);
  std::vector<uint32_t> tFirst(tCount), tEnd(tCount);
  std::copy(preFirst.begin(), preFirst.end() - 1, tFirst.begin());
  std::copy(preFirst.begin() + 1, preFirst.end(), tEnd.begin());
  std::vector<uint32_t> tLevel = std::move(levels);
  tLevel.resize(tCount);
  // new[] without (): left uninitialised, as make_unique_for_overwrite would (which
  // Emscripten 3.1.6's libc++ 13 lacks).
  const std::unique_ptr<uint32_t[]> tKids(
      new uint32_t[static_cast<size_t>(nodeCount) * kOctreeMaxChildren]);
  {
    std::vector<uint32_t> filled(nodeCount, 0);
    for (uint32_t i = 1; i < nodeCount; ++i) {
      tKids[static_cast<size_t>(parents[i]) * kOctreeMaxChildren + filled[parents[i]]++] =
          i;  // octant order
    }
  }
  std::vector<Aabb> tBox(tCount);
  // Tight bounds, children before parents (reverse preorder).
  for (uint32_t i = nodeCount; i-- > 0;) {
    for (uint32_t s = tFirst[i]; s < tEnd[i]; ++s) tBox[i].grow(triangle(s).bounds());
    if (parents[i] != kOctreeInvalidIndex) tBox[parents[i]].grow(tBox[i]);
  }
  // 1. Triangles kept in an inner node move into a new leaf, its first child, with their own
  //    tight box: a query then tests them only when it meets that box, sorted among the other
  //    children by distance, instead of on entering the node. The leaf keeps the node's level
  //    (the triangles are still "kept in the parent"). Not when the node already has
  //    kOctreeMaxChildren.
  for (uint32_t p = 0, v = nodeCount; p < nodeCount; ++p) {
    const uint32_t k = tKidCount[p];
    if (k == 0 || k == kOctreeMaxChildren || tEnd[p] == tFirst[p]) continue;
    tFirst[v] = tFirst[p];
    tEnd[v] = tEnd[p];
    tLevel[v] = tLevel[p];
    Aabb own;
    for (uint32_t s = tFirst[p]; s < tEnd[p]; ++s) own.grow(triangle(s).bounds());
    tBox[v] = own;
    uint32_t* kids = &tKids[static_cast<size_t>(p) * kOctreeMaxChildren];
    for (uint32_t i = k; i-- > 0;) kids[i + 1] = kids[i];
    kids[0] = v++;
    ++tKidCount[p];
    tEnd[p] = tFirst[p];
  }
  // 2. Collapse: a child that holds no triangles of its own is replaced by its children while the
  //    parent then still has at most kOctreeMaxChildren (largest box first), so traversals take one
  //    wide step instead of several narrow ones. The removed node's triangles were all in its
  //    children, so slot ranges stay contiguous and in preorder; every node keeps its octree level.
  auto area = [&](uint32_t i) {
    const glm::vec3 e = tBox[i].size();
    return e.x * e.y + e.y * e.z + e.z * e.x;
  };
  std::vector<uint32_t> finalIndex(tCount, kOctreeInvalidIndex), walk;
  uint32_t finalCount = 0;
  if (nodeCount > 0) {
    rootBounds_ = tBox[0];
    finalIndex[0] = finalCount++;
    walk.push_back(0);
    while (!walk.empty()) {
      const uint32_t p = walk.back();
      walk.pop_back();
      uint32_t* kids = &tKids[static_cast<size_t>(p) * kOctreeMaxChildren];
      uint32_t k = tKidCount[p];
      for (;;) {
        uint32_t pick = kOctreeMaxChildren;
        for (uint32_t i = 0; i < k; ++i) {
          const uint32_t c = kids[i];
          if (tEnd[c] == tFirst[c] && tKidCount[c] != 0 &&
              k - 1 + tKidCount[c] <= kOctreeMaxChildren &&
              (pick == kOctreeMaxChildren || area(c) > area(kids[pick]))) {
            pick = i;
          }
        }
        if (pick == kOctreeMaxChildren) break;
        const uint32_t c = kids[pick];
        const uint32_t add = tKidCount[c];
        for (uint32_t i = k; i-- > pick + 1;) kids[i + add - 1] = kids[i];
        for (uint32_t i = 0; i < add; ++i)
          kids[pick + i] = tKids[static_cast<size_t>(c) * kOctreeMaxChildren + i];
        k += add - 1;
      }
      tKidCount[p] = k;
      // 3. Layout: each node's children get the next free block of indices, depth-first.
      for (uint32_t i = 0; i < k; ++i) finalIndex[kids[i]] = finalCount++;
      for (uint32_t i = k; i-- > 0;) walk.push_back(kids[i]);
    }
  }
  reserveOnHugePages(links_, finalCount);
  links_.resize(finalCount);
  for (uint32_t p = 0; p < tCount; ++p) {
    if (finalIndex[p] == kOctreeInvalidIndex) continue;
    OctreeNodeLinks& l = links_[finalIndex[p]];
    l.firstTriangle = tFirst[p];
    l.ownEnd = tEnd[p];
    l.childCount = static_cast<uint16_t>(tKidCount[p]);
    l.firstChild =
        tKidCount[p] != 0 ? finalIndex[tKids[static_cast<size_t>(p) * kOctreeMaxChildren]] : 0;
    l.level = static_cast<uint16_t>(tLevel[p]);
  }
  // Quantized bounds, rounded outward on one grid over the level's box.
  reserveOnHugePages(qBounds_, finalCount > 0 ? 6 * static_cast<size_t>(finalCount) + 8 : 0);
  qBounds_.assign(finalCount > 0 ? 6 * static_cast<size_t>(finalCount) + 8 : 0, 0);
  boundsSlot_.assign(finalCount, 0);  // the root: lane 0 of a block of one
  for (const OctreeNodeLinks& l : links_) {
    for (uint32_t c = 0; c < l.childCount; ++c)
      boundsSlot_[l.firstChild + c] = static_cast<uint8_t>(c | ((l.childCount - 1u) << 4));
  }
  if (nodeCount > 0) {
    QuantAxis axes[3];
    for (int k = 0; k < 3; ++k) {
      axes[k] = QuantAxis::spanning(rootBounds_.min[k], rootBounds_.max[k]);
      qOrigin_[k] = axes[k].origin;
      qScale_[k] = axes[k].scale;
      qInvScale_[k] = axes[k].invScale;
    }
    for (uint32_t i = 0; i < tCount; ++i) {
      const uint32_t f = finalIndex[i];
      if (f == kOctreeInvalidIndex) continue;
      for (uint32_t k = 0; k < 3; ++k) {
        const int a = static_cast<int>(k);
        qBounds_[boundsIndex(f, k)] = static_cast<uint16_t>(axes[a].down(tBox[i].min[a]));
        qBounds_[boundsIndex(f, k + 3)] = static_cast<uint16_t>(axes[a].up(tBox[i].max[a]));
      }
    }
  }

  OctreeBuildReport r;
  r.ok = true;
  r.inputTriangles = inputTriangles;
  r.storedTriangles = n;
  r.degenerateTriangles = degenerate;
  r.droppedTriangles = dropped;
  r.nodeCount = finalCount;
  r.threadsUsed = threadsUsed;
  for (uint32_t i = 0; i < finalCount; ++i) {
    if (isLeaf(i)) ++r.leafCount;
    r.depth = std::max<uint32_t>(r.depth, nodeLevel(i));
    r.maxTrianglesInNode = std::max(r.maxTrianglesInNode, ownRange(i).count);
  }
  r.bytes = bytes();
  r.buildMs = nowMs() - startMs;
  report_ = r;
  return r;
}

// The rules of octree.h that the build follows, checked on the final form (see validate()).
bool Octree::validateBuildRules(std::string* outError) const {
  auto fail = [&](const std::string& msg) {
    if (outError) *outError = msg;
    return false;
  };
  const uint32_t leafSize = std::max(1u, params_.trianglesPerLeaf);
  const uint32_t maxLevel = std::min(params_.maxLevel, kOctreeMaxLevel);
  const float looseness = params_.looseness >= 0.0f ? params_.looseness : 1.0f;
  const uint32_t minChild = leafSize >= 6 ? 3u : (leafSize >= 4 ? 2u : 1u);
  const glm::vec3 ext = rootBounds_.size();
  const float rootHalf = std::max(ext.x, std::max(ext.y, ext.z)) * 0.5f;
  // The build halves the cell per level (exact in float), and keeps a triangle in a node of
  // level L when its size exceeds looseness x the level-L cell's half edge.
  auto keepSizeAt = [&](uint32_t level) {
    return std::ldexp(rootHalf, -static_cast<int>(level)) * looseness;
  };
  auto sizeOf = [](const Triangle& t) {
    const glm::vec3 s = t.bounds().size();
    return std::max(s.x, std::max(s.y, s.z));
  };
  const float tiny = maxLevel >= 1 ? keepSizeAt(maxLevel - 1) : 0.0f;
  for (uint32_t i = 0; i < nodeCount(); ++i) {
    const std::string at = "node " + std::to_string(i) + ": ";
    const uint32_t level = links_[i].level;
    if (level > maxLevel) return fail(at + "deeper than maxLevel");
    const TriangleRange own = ownRange(i);
    if (level >= 1) {
      const float limit = keepSizeAt(level - 1);
      for (uint32_t s = own.first; s < own.first + own.count; ++s) {
        if (sizeOf(triangle(s)) > limit) {
          return fail(at + "triangle slot " + std::to_string(s) +
                      " is larger than looseness x its cell's edge" + " at level " +
                      std::to_string(level) + ": it should have been kept above");
        }
      }
    }
    if (!isLeaf(i) || own.count <= leafSize || level >= maxLevel) continue;
    Aabb centroids;
    uint32_t small = 0;
    for (uint32_t s = own.first; s < own.first + own.count; ++s) {
      const Triangle t = triangle(s);
      centroids.grow(t.bounds().center());
      small += sizeOf(t) <= tiny ? 1u : 0u;
    }
    if (centroids.min == centroids.max) continue;
    if (small > 8u * (minChild - 1u)) {
      return fail(at + "leaf holds " + std::to_string(own.count) + " triangles (trianglesPerLeaf " +
                  std::to_string(leafSize) + ") at level " + std::to_string(level) +
                  " below maxLevel, " + std::to_string(small) + " of them small enough to split");
    }
  }
  return true;
}

bool Octree::validate(std::string* outError) const {
  auto fail = [&](const std::string& msg) {
    if (outError) *outError = msg;
    return false;
  };
  const uint32_t n = triangleCount();
  if (blocks_.size() != (static_cast<size_t>(n) + 3) / 4 ||
      degenerateLanes_.size() != blocks_.size()) {
    return fail("triangle blocks differ from triangle count");
  }
  for (uint32_t s = 0; s < n; ++s) {
    if (isDegenerateSlot(s) != isDegenerateTriangle(triangle(s))) {
      return fail("degenerate flag of slot " + std::to_string(s) + " is wrong");
    }
  }
  if (!layers_.empty() && layers_.size() != n)
    return fail("layers size differs from triangle count");
  const uint32_t nc = nodeCount();
  if (nc == 0) {
    if (n != 0) return fail("triangles without nodes");
    return true;
  }
  if (n == 0) return fail("nodes without triangles");
  if (qBounds_.size() != 6 * static_cast<size_t>(nc) + 8 || boundsSlot_.size() != nc)
    return fail("bounds planes mis-sized");
  if (boundsSlot_[0] != 0) return fail("root bounds slot is not a block of one");
  if (links_[0].firstTriangle != 0 || subtreeRange(0).count != n || links_[0].level != 0) {
    return fail("root does not cover every slot");
  }
  QuantAxis axes[3];
  for (int k = 0; k < 3; ++k) {
    axes[k] = {qOrigin_[k], qScale_[k], qInvScale_[k]};
    if (axes[k].value(kQuantMax) < rootBounds_.max[k] || qOrigin_[k] != rootBounds_.min[k]) {
      return fail("quantization grid does not span the level");
    }
  }
  // Children have higher indices than their parent, so a reverse sweep sees them first.
  std::vector<uint32_t> parentOf(nc, kOctreeInvalidIndex);
  std::vector<Aabb> tight(nc);
  for (uint32_t i = 0; i < nc; ++i) {
    const OctreeNodeLinks& l = links_[i];
    const std::string at = "node " + std::to_string(i) + ": ";
    if (l.ownEnd < l.firstTriangle || l.ownEnd > n) return fail(at + "own range out of order");
    if (l.childCount > kOctreeMaxChildren) return fail(at + "too many children");
    if (l.childCount == 0) continue;
    if (l.firstChild <= i || l.firstChild + l.childCount > nc)
      return fail(at + "children out of range");
    uint32_t slot = l.ownEnd;
    for (uint32_t c = l.firstChild; c < l.firstChild + l.childCount; ++c) {
      if (parentOf[c] != kOctreeInvalidIndex)
        return fail(at + "child " + std::to_string(c) + " has two parents");
      parentOf[c] = i;
      if (boundsSlot_[c] != ((c - l.firstChild) | ((l.childCount - 1u) << 4)))
        return fail(at + "child " + std::to_string(c) + " has a wrong bounds slot");
      if (links_[c].level < l.level) return fail(at + "child level above the parent's");
      if (links_[c].firstTriangle != slot)
        return fail(at + "child ranges do not follow in preorder");
      slot += subtreeRange(c).count;
    }
    if (slot != l.firstTriangle + subtreeRange(i).count) return fail(at + "subtree range mismatch");
  }
  for (uint32_t i = 1; i < nc; ++i) {
    if (parentOf[i] == kOctreeInvalidIndex)
      return fail("node " + std::to_string(i) + " is no node's child");
  }
  for (uint32_t i = nc; i-- > 0;) {
    const std::string at = "node " + std::to_string(i) + ": ";
    const Aabb nb = nodeBounds(i);
    if (nb.isEmpty()) return fail(at + "empty bounds");
    const TriangleRange own = ownRange(i);
    if (subtreeRange(i).count == 0) return fail(at + "empty subtree");
    for (uint32_t s = own.first; s < own.first + own.count; ++s) {
      const Aabb tb = triangle(s).bounds();
      if (!nb.contains(tb))
        return fail(at + "triangle slot " + std::to_string(s) + " outside bounds");
      tight[i].grow(tb);
    }
    for (uint32_t c = links_[i].firstChild; c < links_[i].firstChild + links_[i].childCount; ++c) {
      if (!nb.contains(nodeBounds(c))) return fail(at + "child bounds outside parent bounds");
      tight[i].grow(tight[c]);
    }
    for (uint32_t k = 0; k < 3; ++k) {
      const int a = static_cast<int>(k);
      if (qBounds_[boundsIndex(i, k)] != axes[a].down(tight[i].min[a]) ||
          qBounds_[boundsIndex(i, k + 3)] != axes[a].up(tight[i].max[a])) {
        return fail(at + "bounds not as tight as the quantization allows");
      }
    }
  }
  if (tight[0].min != rootBounds_.min || tight[0].max != rootBounds_.max)
    return fail("level bounds not tight");
  if (!validateBuildRules(outError)) return false;
  // The permutation is a permutation of distinct original indices.
  std::vector<uint32_t> sorted(originalIndex_.begin(), originalIndex_.end());
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    return fail("triangleOrder repeats an original index");
  }
  if (!sorted.empty() && report_.inputTriangles != 0 && sorted.back() >= report_.inputTriangles) {
    return fail("triangleOrder holds an index past the input");
  }
  return true;
}

}  // namespace ofps
