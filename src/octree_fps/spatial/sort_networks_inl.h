// Branch-free sorting networks, largest first, for the child orders of the octree's traversals
// (nearestFirst in octree_traversal_inl.h, the occlusion cull in culling/occlusion_cull_inl.h).
// Their keys pack a distance's bits above a child index, so they are distinct and every sort
// gives the same order; a network has no data-dependent branch to mispredict, which is what
// made it faster than insertion for four to eight children.
// Included INSIDE an anonymous namespace of namespace ofps (as octree_traversal_inl.h is), so
// that each kernel file compiles its own copy for its own instruction set. Needs: <cstdint>.

// k[a] and k[b] in descending order.
inline void compareExchangeDescending(uint64_t* k, uint32_t a, uint32_t b) {
  const uint64_t x = k[a], y = k[b];
  k[a] = x > y ? x : y;
  k[b] = x > y ? y : x;
}

// k[0..4) in descending order (five comparators).
inline void sortDescending4(uint64_t* k) {
  compareExchangeDescending(k, 0, 1);
  compareExchangeDescending(k, 2, 3);
  compareExchangeDescending(k, 0, 2);
  compareExchangeDescending(k, 1, 3);
  compareExchangeDescending(k, 1, 2);
}

// k[0..8) in descending order: the 19-comparator network, the fewest known for eight inputs (it
// sorts every 0/1 input, hence every input: Knuth, TAOCP vol. 3, 5.3.4, the 0-1 principle).
// Written out, not looped over a table: 19 steps exceed what the compiler unrolls whole, and the
// keys must stay in registers.
inline void sortDescending8(uint64_t* k) {
  const auto cx = [k](uint32_t a, uint32_t b) { compareExchangeDescending(k, a, b); };
  cx(0, 2), cx(1, 3), cx(4, 6), cx(5, 7);
  cx(0, 4), cx(1, 5), cx(2, 6), cx(3, 7);
  cx(0, 1), cx(2, 3), cx(4, 5), cx(6, 7);
  cx(2, 4), cx(3, 5);
  cx(1, 4), cx(3, 6);
  cx(1, 2), cx(3, 4), cx(5, 6);
}
