#pragma once
// On-disk cache of study trial results (docs/studies.md, "Result cache").
//
// A trial's result depends only on its effective configuration, its trial number
// (the seed stream) and the simulator build, so those three, in canonical form,
// are the entry's key: a re-run or an interrupted study runs only what is missing.
// The key document is stored in the entry and checked on reading, so a hash
// collision is a miss, never a wrong result. A digest of key and result is stored
// beside them and checked on reading too: an entry changed after it was written
// (by hand, a bad copy, a failing disk) is corrupt, reported by name and run again.
// Entries are read only when they are regular files of reasonable size (a FIFO or
// a link to /dev/zero in their place is corrupt, never read).

#include "hw/config/config.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace starfish::sim {

// 64-bit FNV-1a: the cache's file names and the executable's fingerprint; the
// full key stored in the entry guards against collisions.
uint64_t fnv1a64(const void *data, size_t size, uint64_t seed = 0xcbf29ce484222325ull);

// "fnv1a64:" and the 16 hex digits of fnv1a64(text): the digest a cache entry, a
// study-directory result and a study manifest carry of their content.
std::string content_digest(const std::string &text);

// The build that produces the results: the version string plus a hash of this
// process's executable file, since the version does not change with every
// development build. Computed once per process.
const std::string &simulator_identity();

// $STARFISH_CACHE_DIR, else $XDG_CACHE_HOME/starfish/trials, else
// $HOME/.cache/starfish/trials ("" when none of them is set).
std::string default_trial_cache_dir();

class TrialCache {
public:
    // FanOut: DIR/ab/<name>.json, for the shared cache of thousands of studies;
    // Flat: DIR/<name>.json, for one study directory (docs/cluster.md).
    enum class Layout { FanOut, Flat };

    TrialCache(std::string dir, std::string identity, Layout layout = Layout::FanOut);

    // {"config": every parameter except those that cannot change a trial's result
    // (workload.trials, workload.jobs), "trial": t, "simulator": identity}, with
    // integral reals written as integers so 10 and 10.0 give the same key.
    nlohmann::json key_document(const config::Config &cfg, int trial) const;
    // The hash of the key document (16 hex digits): the entry's file name without
    // ".json", and a trial's id in a study directory.
    std::string entry_name(const config::Config &cfg, int trial) const;
    std::string entry_path(const config::Config &cfg, int trial) const;

    // The entry's digest: FNV-1a 64 of the key's and the result's canonical JSON
    // ("fnv1a64:<16 hex digits>").
    static std::string digest(const nlohmann::json &key, const nlohmann::json &result);
    // Whether a result counts as done: its data verified. A trial that failed its
    // verification is stored (its record) but runs again.
    static bool done(const nlohmann::json &result);

    // The cached result, or nullopt. An entry that cannot be read, does not parse,
    // does not match its digest or lacks the fields of a result is a miss and sets
    // `warning` (it is overwritten when the trial has run).
    std::optional<nlohmann::json> load(const config::Config &cfg, int trial,
                                       std::string &warning) const;
    // The same, with `problem` saying what is wrong with an unreadable entry but not
    // what the caller does about it ("ignoring corrupt result file '...' (...)").
    std::optional<nlohmann::json> read(const config::Config &cfg, int trial,
                                       std::string &problem) const;
    // Whether an entry file exists for the trial; it is not read (a corrupt entry
    // counts), so this is for estimates such as the work a run still has to do.
    bool has_entry(const config::Config &cfg, int trial) const;
    // Writes the entry (key, result, digest) to a temporary file, flushes it and
    // renames it into place, so an interrupted run never leaves a partial entry.
    // Returns a warning, or "" on success; a cache that cannot be written never
    // fails the study.
    std::string store(const config::Config &cfg, int trial, const nlohmann::json &result) const;

    const std::string &dir() const { return dir_; }
    const std::string &identity() const { return identity_; }

private:
    std::string dir_;
    std::string identity_;
    Layout layout_;
};

} // namespace starfish::sim
