#pragma once
// The hash grid's cell events: what a structure built over the grid's occupied cells (the props
// cull's cell groups, culling/cell_groups.h) needs to hear to stay in step with the grid without
// the grid knowing what it is for.
//
// The grid calls its listener (HashGrid::setCellListener, at most one) after each change, from
// the thread that mutates the grid, with the grid already in its new state; a listener reads the
// grid (cells(), poolData()) but never mutates it from an event. Cells are named by their dense
// index into HashGrid::cells(). A move that keeps an object in its cell sends nothing: the events
// cost only where the grid itself does hash work.
//
// Ownership: the grid holds a plain pointer. A listener detaches itself (setCellListener(nullptr))
// before it dies; a grid that dies first says so (gridDestroyed), so either may go first. A copy of
// a grid has no listener; a grid assigned over keeps its own and hears cellsRebuilt.

#include <cstdint>

namespace ofps {

class GridCellListener {
 public:
  // A new occupied cell at index `cell` (the last dense index). Its objects follow as
  // cellContentsChanged.
  virtual void cellAdded(uint32_t cell) = 0;
  // The cell's id block changed (an object linked or unlinked: head, count or first entry).
  virtual void cellContentsChanged(uint32_t cell) = 0;
  // The cell kept its index and objects but has new coordinates (its only object moved to an
  // empty cell and took the cell along).
  virtual void cellRelocated(uint32_t cell) = 0;
  // The cell at `cell` emptied and was removed; when last != cell the cell that was at dense
  // index `last` now sits at `cell` (swap-remove). Called after the grid's own swap.
  virtual void cellRemoved(uint32_t cell, uint32_t last) = 0;
  // Every cell was removed (clear): the cell size is unchanged.
  virtual void cellsCleared() = 0;
  // Every cell was made anew (setCellSize, rebuild, assignment over the grid): indices,
  // coordinates and perhaps the cell size changed; cells may follow as cellAdded.
  virtual void cellsRebuilt() = 0;
  // maxExtent() grew (a larger object arrived): cell contents may now reach further.
  virtual void extentGrew() = 0;
  // The grid is being destroyed: forget it.
  virtual void gridDestroyed() = 0;
  // A hint from HashGrid::moveCenters, which overlaps the cache misses of many cell changes: the
  // object in `oldCell` will soon move to the cell (x, y, z); `stage` counts down (3: far ahead,
  // 0: next) so that each stage may fetch what the lines of the stage before point to. Only a
  // hint: the default does nothing.
  virtual void prefetchMove(uint32_t /*stage*/, uint32_t /*oldCell*/, int32_t /*x*/, int32_t /*y*/,
                            int32_t /*z*/) const {}

 protected:
  ~GridCellListener() = default;
};

}  // namespace ofps
