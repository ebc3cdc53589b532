#pragma once
// Blocks of 4 << k entries carved from one growing array, recycled through one free list per
// size class: how the hash grid keeps each cell's ids, and the props cull's cell groups each
// group's cells, in contiguous runs without an allocation per block. Internal (spatial/ and
// culling/ sources).

#include <cstdint>
#include <vector>

namespace ofps::detail {

// k of a block of `capacity` = 4 << k entries.
inline uint32_t blockSizeClass(uint32_t capacity) {
  uint32_t k = 0;
  while ((4u << k) < capacity) ++k;
  return k;
}

// First entry of a free block of `capacity` entries: a recycled one of its class, else `pool`
// grown by `capacity` entries of `fill`. O(1) amortized.
template <class T>
uint32_t allocPoolBlock(std::vector<T>& pool, std::vector<std::vector<uint32_t>>& freeLists,
                        uint32_t capacity, const T& fill) {
  const uint32_t k = blockSizeClass(capacity);
  if (k < freeLists.size() && !freeLists[k].empty()) {
    const uint32_t first = freeLists[k].back();
    freeLists[k].pop_back();
    return first;
  }
  const uint32_t first = static_cast<uint32_t>(pool.size());
  pool.resize(first + capacity, fill);
  return first;
}

// Gives the block back to its class's free list.
inline void freePoolBlock(std::vector<std::vector<uint32_t>>& freeLists, uint32_t first,
                          uint32_t capacity) {
  const uint32_t k = blockSizeClass(capacity);
  if (k >= freeLists.size()) freeLists.resize(k + 1);
  freeLists[k].push_back(first);
}

}  // namespace ofps::detail
