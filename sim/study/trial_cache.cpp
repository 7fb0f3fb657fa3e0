#include "sim/study/trial_cache.h"

#include "hw/config/input_file.h"
#include "hw/config/json_text.h"
#include "sim/report/run_result.h"
#include "sim/report/safe_output.h"
#include "sim/workload_params.h"

#include <unistd.h>

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

// A result is a few KB; an entry this large is not one of ours.
constexpr size_t kMaxEntryBytes = 16u << 20;

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
        if (it.key() == keys::workload_trials.name || it.key() == keys::workload_jobs.name) {
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

std::string content_digest(const std::string &text) {
    return "fnv1a64:" + hex64(fnv1a64(text.data(), text.size()));
}

std::string TrialCache::digest(const json &key, const json &result) {
    return content_digest(key.dump() + "\n" + result.dump());
}

bool TrialCache::done(const json &result) {
    return result.value("verified", false) == true;
}

std::optional<json> TrialCache::read(const config::Config &cfg, int trial,
                                     std::string &problem) const {
    problem.clear();
    std::string path = entry_path(cfg, trial);
    const char *noun = layout_ == Layout::Flat ? "result file" : "cache entry";
    auto corrupt = [&](const std::string &why) {
        problem = std::string("ignoring corrupt ") + noun + " '" + config::printable(path, 300) +
                  "' (" + config::printable(why, 300) + ")";
        return std::nullopt;
    };
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
        return std::nullopt;
    }
    config::InputFile in = config::read_regular_file(path, kMaxEntryBytes);
    if (!in.ok) {
        return corrupt("it " + in.problem);
    }
    json entry;
    try {
        entry = json::parse(in.text);
    } catch (const json::exception &e) {
        return corrupt(e.what());
    }
    if (!entry.is_object() || !entry.contains("key") || !entry.contains("result") ||
        !entry["result"].is_object()) {
        return corrupt("no key or result");
    }
    if (!entry.contains("digest") || !entry["digest"].is_string() ||
        entry["digest"].get<std::string>() != digest(entry["key"], entry["result"])) {
        return corrupt("its digest does not match its content: it was changed after it was "
                       "written");
    }
    if (entry["key"] != key_document(cfg, trial)) {
        return std::nullopt; // another key with the same hash: a plain miss
    }
    const json &result = entry["result"];
    if (!result.contains("verified") || !result["verified"].is_boolean() ||
        !result.contains("trial") || result["trial"] != trial) {
        return corrupt("the result lacks a boolean 'verified' or its trial number");
    }
    return result;
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
    std::string path = entry_path(cfg, trial);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec) {
        return "cannot create cache directory for '" + config::printable(path, 300) +
               "': " + ec.message();
    }
    json key = key_document(cfg, trial);
    std::string text =
        json{{"key", key}, {"result", result}, {"digest", digest(key, result)}}.dump();
    std::string problem = replace_file_atomically(path, text + "\n");
    return problem.empty() ? "" : "cannot write " + config::printable(path, 300) + ": " + problem;
}

} // namespace starfish::sim
