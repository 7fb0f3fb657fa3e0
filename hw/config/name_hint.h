#pragma once
// "Did you mean" hints for names a user types: configuration keys, and the
// configuration and study files shipped in a directory.

#include <string>
#include <vector>

namespace starfish::config {

// The candidate closest to `word` by edit distance, "" when none is close (a
// distance above max(3, |word| / 4)). The first of equally close candidates wins.
std::string closest_name(const std::string &word, const std::vector<std::string> &candidates);

// The base names (".json" removed) of the regular *.json files in `dir`, sorted;
// empty when the directory cannot be read.
std::vector<std::string> json_names_in(const std::string &dir);

// For a name that named no file: " (did you mean 'X'?); DIR has: a, b, c", or
// only the list when nothing is close, or "" when `dir` has no *.json file.
std::string shipped_names_hint(const std::string &word, const std::string &dir);

} // namespace starfish::config
