#include "hw/config/name_hint.h"

#include "hw/config/input_file.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace starfish::config {

namespace {
size_t edit_distance(const std::string &a, const std::string &b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) {
        prev[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}
} // namespace

std::string closest_name(const std::string &word, const std::vector<std::string> &candidates) {
    std::string best;
    if (word.size() > 200) {
        return best; // nothing is that long; spare the quadratic distance
    }
    size_t best_dist = std::max<size_t>(3, word.size() / 4) + 1;
    for (const auto &name : candidates) {
        size_t d = edit_distance(word, name);
        if (d < best_dist) {
            best_dist = d;
            best = name;
        }
    }
    return best;
}

std::vector<std::string> json_names_in(const std::string &dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::filesystem::path &p = it->path();
        if (p.extension() == ".json" && regular_file_problem(p.string()).empty()) {
            names.push_back(p.stem().string());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string shipped_names_hint(const std::string &word, const std::string &dir) {
    std::vector<std::string> names = json_names_in(dir);
    if (names.empty()) {
        return "";
    }
    std::string stem = word;
    if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) {
        stem.resize(stem.size() - 5);
    }
    std::string hint;
    std::string close = closest_name(stem, names);
    if (!close.empty()) {
        hint += " (did you mean '" + close + "'?)";
    }
    hint += "; " + dir + " has:";
    for (size_t i = 0; i < names.size(); ++i) {
        hint += (i ? ", " : " ") + names[i];
    }
    return hint;
}

} // namespace starfish::config
