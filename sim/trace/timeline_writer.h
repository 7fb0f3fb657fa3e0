#pragma once
// The timeline sink of the observation layer: Chrome trace-event JSON for
// Perfetto's UI and chrome://tracing (docs/observe.md, "Timeline"). One process
// per top-level component (cp0, iop0, net), one named track per traced state
// (slices for each value other than the rest value: CPU activity, disk state, SCSI
// phase) and per component's transactions (disk commands, firmware Memputs as
// slices, on as many lanes as overlap), counters for
// queue depths and cache fill, and a version-2 flow (bind_id = message id) from
// each message's send to its delivery.

#include "sim/trace/output_file.h"
#include "sim/trace/scope_filter.h"
#include "tlm_models/common/trace_hub.h"

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace starfish::trace {

class TimelineWriter : public TraceSink {
public:
    TimelineWriter(const std::string &path, ScopeFilter filter);

    void start(const std::vector<SignalInfo> &signals, const std::vector<Value> &values,
               uint64_t from_ps) override;
    void change(uint64_t t_ps, uint32_t signal, const Value &value) override;
    void transaction(const Transaction &t) override;
    void finish(uint64_t end_ps) override;

private:
    struct Track {
        int pid = 0;
        int tid = 0;
    };
    struct OpenSlice {
        bool open = false;
        std::string name;
        uint64_t since_ps = 0;
    };
    struct Pending {
        uint64_t t_ps;
        std::string component;
        std::string op;
        std::string fields;
    };

    Track track(const std::string &scope, const std::string &name);
    void event(const std::string &json);
    void slice(const Track &tr, const std::string &name, uint64_t from_ps, uint64_t to_ps,
               const std::string &extra);

    OutputFile out_;
    std::FILE *file_; // out_'s
    ScopeFilter filter_;
    bool first_event_ = true;
    std::vector<SignalInfo> signals_;
    std::vector<Track> signal_tracks_;
    std::vector<OpenSlice> open_;
    std::map<std::string, int> pids_;
    std::map<std::string, Track> tracks_;
    // Open transactions by (op, id): ids of different kinds (messages, disk
    // commands, firmware notes) may coincide.
    std::map<std::pair<std::string, uint64_t>, Pending> begun_;
    // Per component, the end of the last slice on each of its transaction lanes:
    // transactions that overlap without nesting (a firmware's outstanding Memputs)
    // go on separate lanes, so every track's slices nest.
    std::map<std::string, std::vector<uint64_t>> lane_ends_;
};

} // namespace starfish::trace
