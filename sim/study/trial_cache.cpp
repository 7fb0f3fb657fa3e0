#include "sim/study/trial_cache.h"

#include "sim/report/run_result.h"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace starfish::sim {

using nlohmann::json;

namespace {

constexpr uint64_t kFnvPrime = 0x100000001b3ull;

std::string hex64(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// Hash of a whole file, 8 bytes per step (the executable is tens of MB).
std::optional<uint64_t> file_fingerprint(const char *path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    uint64_t h = 0xcbf29ce484222325ull;
    uint64_t size = 0;
    std::vector<char> buf(1 << 20);
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        size_t n = static_cast<size_t>(in.gcount());
        size_t words = n / 8;
        for (size_t i = 0; i < words; ++i) {
            uint64_t w;
            std::memcpy(&w, buf.data() + 8 * i, 8);
            h = (h ^ w) * kFnvPrime;
        }
        h = fnv1a64(buf.data() + 8 * words, n - 8 * words, h);
        size += n;
    }
    return h ^ size;
}

// Integral reals become integers, so the key does not depend on how a value was
// written (10 or 10.0); everything else is kept as is.
json canonical_value(const json &v) {
    if (v.is_number_float()) {
        double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15) {
            return static_cast<long long>(d);
        }
    }
    return v;
}

} // namespace

uint64_t fnv1a64(const void *data, size_t size, uint64_t seed) {
    const auto *p = static_cast<const unsigned char *>(data);
    uint64_t h = seed;
    for (size_t i = 0; i < size; ++i) {
        h = (h ^ p[i]) * kFnvPrime;
    }
    return h;
}

const std::string &simulator_identity() {
    static const std::string identity = [] {
        std::string id = starfish_version();
        if (auto h = file_fingerprint("/proc/self/exe")) {
            id += "+exe." + hex64(*h);
        } else {
            // Without the executable the build cannot be told apart: make the key
            // unique to this process so nothing stale is ever reused.
            id += "+pid." + std::to_string(::getpid());
        }
        return id;
    }();
    return identity;
}

std::string default_trial_cache_dir() {
    if (const char *dir = std::getenv("STARFISH_CACHE_DIR"); dir != nullptr && *dir) {
        return dir;
    }
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg) {
        return std::string(xdg) + "/starfish/trials";
    }
    if (const char *home = std::getenv("HOME"); home != nullptr && *home) {
        return std::string(home) + "/.cache/starfish/trials";
    }
    return "";
}

TrialCache::TrialCache(std::string dir, std::string identity, Layout layout)
    : dir_(std::move(dir)), identity_(std::move(identity)), layout_(layout) {}

json TrialCache::key_document(const config::Config &cfg, int trial) const {
    json config = json::object();
    json flat = cfg.to_flat_json();
    for (auto it = flat.begin(); it != flat.end(); ++it) {
        if (it.key() == "workload.trials" || it.key() == "workload.jobs") {
            continue;
        }
        config[it.key()] = canonical_value(*it);
    }
    return json{{"config", config}, {"trial", trial}, {"simulator", identity_}};
}

std::string TrialCache::entry_name(const config::Config &cfg, int trial) const {
    std::string text = key_document(cfg, trial).dump();
    return hex64(fnv1a64(text.data(), text.size()));
}

std::string TrialCache::entry_path(const config::Config &cfg, int trial) const {
    std::string name = entry_name(cfg, trial);
    if (layout_ == Layout::Flat) {
        return dir_ + "/" + name + ".json";
    }
    // Two-level fan-out keeps directories small for studies of thousands of trials.
    return dir_ + "/" + name.substr(0, 2) + "/" + name + ".json";
}

std::optional<json> TrialCache::read(const config::Config &cfg, int trial,
                                     std::string &problem) const {
    problem.clear();
    std::string path = entry_path(cfg, trial);
    const char *noun = layout_ == Layout::Flat ? "result file" : "cache entry";
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return std::nullopt;
    }
    std::ifstream in(path);
    if (!in) {
        problem = std::string("cannot read ") + noun + " '" + path + "'";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    json entry;
    try {
        entry = json::parse(text.str());
    } catch (const json::exception &e) {
        problem = std::string("ignoring corrupt ") + noun + " '" + path + "' (" + e.what() + ")";
        return std::nullopt;
    }
    if (!entry.is_object() || !entry.contains("key") || !entry.contains("result") ||
        !entry["result"].is_object()) {
        problem = std::string("ignoring corrupt ") + noun + " '" + path + "' (no key or result)";
        return std::nullopt;
    }
    if (entry["key"] != key_document(cfg, trial)) {
        return std::nullopt; // another key with the same hash: a plain miss
    }
    return entry["result"];
}

std::optional<json> TrialCache::load(const config::Config &cfg, int trial,
                                     std::string &warning) const {
    auto result = read(cfg, trial, warning);
    if (!warning.empty()) {
        warning += "; running the trial";
    }
    return result;
}

bool TrialCache::has_entry(const config::Config &cfg, int trial) const {
    std::error_code ec;
    return std::filesystem::exists(entry_path(cfg, trial), ec);
}

std::string TrialCache::store(const config::Config &cfg, int trial, const json &result) const {
    static std::atomic<unsigned> serial{0};
    std::string path = entry_path(cfg, trial);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec) {
        return "cannot create cache directory for '" + path + "': " + ec.message();
    }
    // Unique per process and call, so concurrent studies sharing the cache never
    // write the same temporary file.
    std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
    {
        std::ofstream out(tmp);
        out << json{{"key", key_document(cfg, trial)}, {"result", result}}.dump() << "\n";
        if (!out.flush()) {
            std::remove(tmp.c_str());
            return "cannot write cache entry '" + path + "'";
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        return "cannot rename '" + tmp + "' to '" + path + "'";
    }
    return "";
}

} // namespace starfish::sim
