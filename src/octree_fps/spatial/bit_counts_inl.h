// Bits set in small masks, without std::popcount (a library call on the x86-64 baseline, without
// -mpopcnt), for the lane masks of the octree's query kernels and of the occlusion cull.
// Included INSIDE an anonymous namespace of namespace ofps (as octree_traversal_inl.h is), so
// that each kernel file compiles its own copy for its own instruction set. Needs: <cstdint>.

// Number of lanes set in a 4-bit mask: a table of sixteen counts packed in one constant.
inline uint32_t laneCount(uint32_t mask) {
  return static_cast<uint32_t>((0x4332322132212110ull >> (4 * mask)) & 0xFu);
}

// Number of bits set in a 16-bit mask.
inline uint32_t bitCount16(uint32_t m) {
  m = m - ((m >> 1) & 0x5555u);
  m = (m & 0x3333u) + ((m >> 2) & 0x3333u);
  m = (m + (m >> 4)) & 0x0F0Fu;
  return (m + (m >> 8)) & 0x1Fu;
}
