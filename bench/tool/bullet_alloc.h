#pragma once
// Counts the bytes Bullet allocates, for the two Bullet peers of `octree_bench --compare`
// (peer_bullet.cpp, peer_bullet_contact.cpp). Compiled only when CMake finds Bullet.
//
// btAlignedAllocSetCustom replaces Bullet's allocator for the whole process, and a block must be
// freed by the allocator that made it, so both peers install the same hook, once, before their
// first Bullet allocation: installBulletAllocCounter() is idempotent and every make*Engine()
// calls it.

#include <cstdint>

namespace ofps::bench {

void installBulletAllocCounter();
int64_t bulletLiveBytes();  // bytes Bullet holds now (through btAlignedAlloc)
int64_t bulletPeakBytes();  // highest bulletLiveBytes() since the last resetBulletPeak()
void resetBulletPeak();     // peak = live

}  // namespace ofps::bench
