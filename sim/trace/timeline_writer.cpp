#include "sim/trace/timeline_writer.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <stdexcept>

namespace starfish::trace {

namespace {

// Trace-event timestamps are microseconds; six decimals keep picoseconds exact.
std::string micros(uint64_t ps) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%" PRIu64 ".%06" PRIu64, ps / 1000000, ps % 1000000);
    return buf;
}

std::string hex_id(uint64_t id) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "\"0x%" PRIx64 "\"", id);
    return buf;
}

std::string json_string(const std::string &s) {
    return nlohmann::json(s).dump();
}

// "a=1 b=x" as a JSON object of strings.
std::string fields_json(const std::string &fields) {
    nlohmann::json args = nlohmann::json::object();
    size_t start = 0;
    while (start < fields.size()) {
        size_t end = fields.find(' ', start);
        std::string kv = fields.substr(start, end - start);
        size_t eq = kv.find('=');
        if (eq != std::string::npos) {
            args[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    return args.dump();
}

} // namespace

TimelineWriter::TimelineWriter(const std::string &path, ScopeFilter filter)
    : out_(path, "timeline"), file_(out_.get()), filter_(std::move(filter)) {
    std::fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", file_);
}

void TimelineWriter::event(const std::string &json) {
    if (!first_event_) {
        std::fputs(",\n", file_);
    }
    first_event_ = false;
    std::fputs(json.c_str(), file_);
}

TimelineWriter::Track TimelineWriter::track(const std::string &scope, const std::string &name) {
    std::string key = scope + " " + name;
    auto it = tracks_.find(key);
    if (it != tracks_.end()) {
        return it->second;
    }
    std::string process = scope.substr(0, scope.find('.'));
    auto p = pids_.find(process);
    if (p == pids_.end()) {
        int pid = static_cast<int>(pids_.size()) + 1;
        p = pids_.emplace(process, pid).first;
        event("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(pid) +
              ",\"tid\":0,\"args\":{\"name\":" + json_string(process) + "}}");
        event("{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + std::to_string(pid) +
              ",\"tid\":0,\"args\":{\"sort_index\":" + std::to_string(pid) + "}}");
    }
    Track tr{p->second, static_cast<int>(tracks_.size()) + 1};
    tracks_.emplace(key, tr);
    event("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(tr.pid) +
          ",\"tid\":" + std::to_string(tr.tid) + ",\"args\":{\"name\":" + json_string(key) + "}}");
    return tr;
}

void TimelineWriter::slice(const Track &tr, const std::string &name, uint64_t from_ps,
                           uint64_t to_ps, const std::string &extra) {
    event("{\"ph\":\"X\",\"name\":" + json_string(name) + ",\"pid\":" + std::to_string(tr.pid) +
          ",\"tid\":" + std::to_string(tr.tid) + ",\"ts\":" + micros(from_ps) +
          ",\"dur\":" + micros(to_ps - from_ps) + extra + "}");
}

void TimelineWriter::start(const std::vector<SignalInfo> &signals, const std::vector<Value> &values,
                           uint64_t from_ps) {
    signals_ = signals;
    signal_tracks_.assign(signals.size(), Track{});
    open_.assign(signals.size(), OpenSlice{});
    for (uint32_t i = 0; i < signals.size(); ++i) {
        const SignalInfo &s = signals[i];
        if (s.role == TimelineRole::None || !filter_.selects(s.scope)) {
            continue;
        }
        signal_tracks_[i] = track(s.scope, s.name);
        change(from_ps, i, values[i]);
    }
}

void TimelineWriter::change(uint64_t t_ps, uint32_t signal, const Value &value) {
    const SignalInfo &s = signals_[signal];
    if (s.role == TimelineRole::None || signal_tracks_[signal].tid == 0) {
        return;
    }
    const Track &tr = signal_tracks_[signal];
    if (s.role == TimelineRole::Counter) {
        if (value.number != kNoValue) {
            event("{\"ph\":\"C\",\"name\":" + json_string(s.scope + "." + s.name) +
                  ",\"pid\":" + std::to_string(tr.pid) + ",\"tid\":" + std::to_string(tr.tid) +
                  ",\"ts\":" + micros(t_ps) +
                  ",\"args\":{\"value\":" + std::to_string(value.number) + "}}");
        }
        return;
    }
    OpenSlice &o = open_[signal];
    if (o.open) {
        slice(tr, o.name, o.since_ps, t_ps, "");
    }
    o.open = value.text != s.rest;
    o.name = value.text;
    o.since_ps = t_ps;
}

void TimelineWriter::transaction(const Transaction &t) {
    if (t.dir == Direction::Instant || !filter_.selects(t.component) || t.op == "PKT") {
        return; // packets stay in the log: a flow per packet would swamp the view
    }
    if (t.dir == Direction::Begin) {
        begun_[{t.op, t.id}] = Pending{t.t_ps, t.component, t.op, t.fields};
        return;
    }
    auto it = begun_.find({t.op, t.id});
    if (it == begun_.end()) {
        return; // began before the window
    }
    const Pending &b = it->second;
    std::string args =
        ",\"args\":" + fields_json(b.fields + (t.fields.empty() ? "" : " ") + t.fields);
    if (b.component == t.component) {
        // Slices end here in time order, so a lane whose last slice ended by this
        // one's start holds it without overlap.
        std::vector<uint64_t> &ends = lane_ends_[t.component];
        size_t lane = 0;
        while (lane < ends.size() && ends[lane] > b.t_ps) {
            ++lane;
        }
        if (lane == ends.size()) {
            ends.push_back(0);
        }
        ends[lane] = t.t_ps;
        std::string name = lane == 0 ? "transactions" : "transactions " + std::to_string(lane);
        slice(track(t.component, name), b.op, b.t_ps, t.t_ps, args);
    } else {
        // Version-2 flow: the send slice flows out, the delivery slice flows in.
        std::string bind = ",\"bind_id\":" + hex_id(t.id);
        slice(track(b.component, "sent"), b.op, b.t_ps, b.t_ps, bind + ",\"flow_out\":true" + args);
        slice(track(t.component, "received"), b.op, t.t_ps, t.t_ps,
              bind + ",\"flow_in\":true" + args);
    }
    begun_.erase(it);
}

void TimelineWriter::finish(uint64_t end_ps) {
    for (uint32_t i = 0; i < open_.size(); ++i) {
        if (open_[i].open) {
            slice(signal_tracks_[i], open_[i].name, open_[i].since_ps, end_ps, "");
            open_[i].open = false;
        }
    }
    std::fputs("\n]}\n", file_);
    out_.close();
}

} // namespace starfish::trace
