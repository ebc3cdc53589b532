#pragma once
// Header-count checks: the counts a level file's header states, checked against the file's size
// before Assimp sees the file. Assimp 5.2 trusts these counts and reserves memory for them, so a
// 60-byte OFF file that claims 1.5 billion vertices makes it allocate ~23 GB. Here such a claim
// is refused up front with one message naming the file, the claim and the size.
//
// Formats (detected by content, whatever the extension, because Assimp falls back to content
// detection when the importer chosen by extension gives up):
//   OFF         first token ends in "OFF" (OFF, COFF, NOFF, STOFF, ...): vertex and face counts.
//   PLY         "ply" magic, ascii or binary (either endianness): every element's count.
//   binary STL  extension .stl and not ASCII ("solid ..."): the facet count at byte 80.
// OBJ and the other text formats state no counts; the memory budget (level/memory_budget.h)
// guards them through the file size.
//
// Also refused: a PLY header without an 'end_header' line in the first 64 KiB, or with a NUL byte
// before it (Assimp 5.2.5's PLY importer never returns on those; found by the fuzzer).
//
// Lower bounds used (a claim is refused only when even the smallest encoding cannot fit):
//   ASCII: each number takes at least 2 bytes (a digit and a separator); an element instance
//   with no properties at least 1 byte. Binary PLY: the sum of the property sizes, a list
//   counting only its length field. Binary STL: 84 + 50 bytes per facet.
//
// Thread-safety: pure function of the file's bytes; safe from any thread.
#include <cstdint>
#include <string>

namespace ofps {

struct HeaderCounts {
  // False: the file must be refused; `error` names the file, the claim and the file size.
  bool ok = true;
  std::string error;
  // The format recognised, for messages ("OFF", "PLY ascii", "PLY binary", "binary STL"), or
  // empty when none of the formats above was recognised (nothing was checked).
  std::string format;
  // What the header claims (0 when the format has no such count): vertices, faces (PLY: the
  // "face" element; STL: facets) and, for PLY, the sum over all elements.
  uint64_t vertices = 0;
  uint64_t faces = 0;
  uint64_t elements = 0;
};

// in path: the file, read only in its first 64 KiB; in ext: its lower-case extension without
// the dot; in fileSize: its size in bytes. Never throws; a header it cannot parse is left to
// Assimp (format set, no error, counts 0).
HeaderCounts checkHeaderCounts(const std::string& path, const std::string& ext, uint64_t fileSize);

// The same on bytes already in memory: head = the file's first bytes (up to 64 KiB is enough),
// fileSize = the whole file's size. For tests and the fuzzer.
HeaderCounts checkHeaderCountsOfBytes(const std::string& path, const std::string& ext,
                                      const std::string& head, uint64_t fileSize);

}  // namespace ofps
