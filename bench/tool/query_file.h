#pragma once
// Reading query files and writing result files (../shared/bench/FORMAT.md), and reading the
// level through the project's canonical OBJ reader. Input is untrusted: every error is returned
// as a message naming the file and line; nothing throws.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "bench_types.h"

namespace ofps::bench {

// Parses query-file text. `name` is used in messages ("q.queries:12: ..."). Rejects unknown
// kinds, wrong field counts, malformed or non-finite numbers, negative radii or tmax, zero ray
// directions and boxes with min > max. Ray directions are normalised (in double precision).
bool parseQueries(std::string_view text, std::string_view name, QuerySet& out,
                  std::string& outError);
bool readQueries(const std::string& path, QuerySet& out, std::string& outError);

// Writes one result line per query in file order. answers[k][i] answers out.byKind[k][i].
bool writeResults(const std::string& path, const QuerySet& queries,
                  const std::array<std::vector<Answer>, kKindCount>& answers,
                  std::string& outError);

// Reads a level OBJ (v/f lines, `f a/b/c` accepted, triangles in file order).
bool readLevel(const std::string& path, Mesh& out, std::string& outError);

}  // namespace ofps::bench
