#include "tlm_models/common/trace_hub.h"

#include <systemc>

#include <algorithm>
#include <stdexcept>

namespace starfish::trace {

namespace {
// Records are sorted and handed on in batches of about this many.
constexpr size_t kBatch = 1 << 15;
} // namespace

TraceHub::TraceHub(uint64_t from_ps, uint64_t to_ps) : from_ps_(from_ps), to_ps_(to_ps) {}

TraceHub::~TraceHub() = default;

void TraceHub::add_sink(std::unique_ptr<TraceSink> sink) {
    sinks_.push_back(std::move(sink));
}

uint32_t TraceHub::signal(const SignalInfo &info, Value initial) {
    if (started_) {
        throw std::logic_error("TraceHub: signal " + info.scope + "." + info.name +
                               " declared after records were handed on");
    }
    signals_.push_back(info);
    values_.push_back(std::move(initial));
    last_group_.push_back(0);
    return static_cast<uint32_t>(signals_.size() - 1);
}

void TraceHub::set(uint32_t signal, uint64_t t_ps, int64_t number) {
    push(Record{t_ps, signal, Value{number, {}}, nullptr});
}

void TraceHub::set_text(uint32_t signal, uint64_t t_ps, std::string text) {
    push(Record{t_ps, signal, Value{0, std::move(text)}, nullptr});
}

void TraceHub::log(Transaction t) {
    uint64_t at = t.t_ps;
    // Made before the record: GCC 12 at -O3 otherwise warns that the record's empty
    // Value may be destroyed uninitialised if the allocation throws.
    auto transaction = std::make_unique<Transaction>(std::move(t));
    push(Record{at, kTransaction, Value{}, std::move(transaction)});
}

void TraceHub::push(Record r) {
    pending_.push_back(std::move(r));
    if (pending_.size() >= flush_at_ && !catching_up_) {
        uint64_t now = sc_core::sc_time_stamp().value();
        catching_up_ = true; // their records come back through push()
        for (auto &f : catch_ups_) {
            f(now);
        }
        catching_up_ = false;
        flush(now, false);
        flush_at_ = pending_.size() + kBatch;
    }
}

void TraceHub::flush(uint64_t before_ps, bool all) {
    std::stable_sort(pending_.begin(), pending_.end(),
                     [](const Record &a, const Record &b) { return a.t_ps < b.t_ps; });
    size_t n = 0;
    while (n < pending_.size() && (all || pending_[n].t_ps < before_ps)) {
        ++n;
    }
    // A signal set more than once at one time takes its last value: the earlier
    // ones would be zero-length glitches (a channel freed and taken again by the
    // next packet in the same instant). Every record of one time is in one flush,
    // since records are never stamped before the current time.
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && pending_[end].t_ps == pending_[i].t_ps) {
            ++end;
        }
        ++group_;
        for (size_t k = end; k-- > i;) {
            Record &r = pending_[k];
            if (r.signal != kTransaction) {
                r.superseded = last_group_[r.signal] == group_;
                last_group_[r.signal] = group_;
            }
        }
        for (; i < end; ++i) {
            if (!pending_[i].superseded) {
                deliver(pending_[i]);
            }
        }
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
}

void TraceHub::start_sinks(uint64_t from_ps) {
    started_ = true;
    for (auto &s : sinks_) {
        s->start(signals_, values_, from_ps);
    }
}

void TraceHub::deliver(Record &r) {
    bool inside = r.t_ps >= from_ps_ && r.t_ps <= to_ps_;
    if (r.t_ps > to_ps_) {
        return;
    }
    if (inside && !started_) {
        start_sinks(from_ps_);
    }
    if (r.signal == kTransaction) {
        if (inside) {
            for (auto &s : sinks_) {
                s->transaction(*r.transaction);
            }
        }
        return;
    }
    Value &v = values_.at(r.signal);
    bool text = signals_[r.signal].kind == SignalKind::Text;
    if (text ? v.text == r.value.text : v.number == r.value.number) {
        return; // no change
    }
    v = r.value;
    if (inside) {
        for (auto &s : sinks_) {
            s->change(r.t_ps, r.signal, v);
        }
    }
}

void TraceHub::finish(uint64_t end_ps) {
    if (finished_) {
        return;
    }
    for (auto &f : finishers_) {
        f(end_ps);
    }
    flush(0, true);
    if (!started_) {
        start_sinks(from_ps_);
    }
    uint64_t end = std::max(from_ps_, std::min(end_ps, to_ps_));
    for (auto &s : sinks_) {
        s->finish(end);
    }
    finished_ = true;
}

} // namespace starfish::trace
