#include "tlm_models/storage/scsi_bus.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace starfish::storage {

const char *phase_name(ScsiPhase phase) {
    switch (phase) {
    case ScsiPhase::Free:
        return "free";
    case ScsiPhase::Arbitration:
        return "arbitration";
    case ScsiPhase::Command:
        return "command";
    case ScsiPhase::DataIn:
        return "data-in";
    case ScsiPhase::DataOut:
        return "data-out";
    case ScsiPhase::Status:
        return "status";
    case ScsiPhase::Message:
        return "message";
    }
    return "?";
}

nlohmann::json ScsiBusStats::to_json() const {
    return nlohmann::json{{"busy_s", busy_ps * 1e-12},
                          {"tenures", tenures},
                          {"data_bytes", data_bytes},
                          {"data_s", data_ps * 1e-12},
                          {"max_queue", max_queue}};
}

ScsiBus::ScsiBus(sc_core::sc_module_name name, const ScsiBusParams &params)
    : sc_core::sc_module(name), params_(params) {
    SC_METHOD(on_wake);
    sensitive << wake_;
    dont_initialize();
}

void ScsiBus::attach_initiator(ScsiInitiator *initiator) {
    initiator_ = initiator;
}

unsigned ScsiBus::attach_target(ScsiTarget *target) {
    targets_.push_back(target);
    return static_cast<unsigned>(targets_.size() - 1);
}

void ScsiBus::request(ScsiBusClient *client, uint32_t token, int priority) {
    waiting_.push_back(Request{client, token, priority});
    if (waiting_.size() > stats_.max_queue) {
        stats_.max_queue = waiting_.size();
    }
    if (owner_ == nullptr) {
        wake_.notify(sc_core::SC_ZERO_TIME);
    }
}

ScsiBusStats ScsiBus::stats() const {
    ScsiBusStats s = stats_;
    if (owner_ != nullptr) {
        s.busy_ps += sc_core::sc_time_stamp().value() - tenure_start_;
    }
    return s;
}

void ScsiBus::wake_at(uint64_t t) {
    uint64_t now = sc_core::sc_time_stamp().value();
    if (t <= now) {
        wake_.notify(sc_core::SC_ZERO_TIME);
    } else {
        wake_.notify(sc_core::sc_time::from_value(t - now));
    }
}

void ScsiBus::on_wake() {
    ++events_;
    uint64_t now = sc_core::sc_time_stamp().value();
    // A tenure's steps may end back to back (zero-length steps): run them all.
    while (owner_ != nullptr && step_end_ <= now) {
        ScsiBusClient *owner = owner_;
        ScsiBusStep next = owner->bus_phase_done(token_, now);
        if (next.phase == ScsiPhase::Free) {
            stats_.busy_ps += now - tenure_start_;
            owner_ = nullptr;
            if (hub_ != nullptr) {
                observe_phase(ScsiPhase::Free, now);
            }
        } else {
            start_step(next, now);
        }
    }
    if (owner_ == nullptr && !waiting_.empty()) {
        grant_next(now);
    }
    if (owner_ != nullptr) {
        wake_at(step_end_);
    }
}

void ScsiBus::grant_next(uint64_t now) {
    auto pick = waiting_.begin();
    if (params_.arbitration == ScsiArbitration::Priority) {
        for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
            if (it->priority > pick->priority) {
                pick = it;
            }
        }
    } else if (params_.arbitration == ScsiArbitration::Fair) {
        for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
            if (it->priority == kInitiatorPriority) {
                pick = it;
                break;
            }
        }
    }
    Request r = *pick;
    waiting_.erase(pick);
    owner_ = r.client;
    token_ = r.token;
    tenure_start_ = now;
    ++stats_.tenures;
    ScsiBusStep first = r.client->bus_granted(r.token, now);
    if (first.phase == ScsiPhase::Free) {
        throw std::logic_error(std::string(name()) + ": a bus client won arbitration and released");
    }
    if (hub_ != nullptr) {
        observe_phase(ScsiPhase::Arbitration, now);
    }
    start_step(first, now + params_.arbitration_ps);
}

void ScsiBus::start_step(const ScsiBusStep &step, uint64_t start) {
    if (step.owner != nullptr) {
        owner_ = step.owner;
    }
    step_end_ = start + step.duration_ps;
    if (hub_ != nullptr) {
        observe_phase(step.phase, start);
    }
    if (step.phase == ScsiPhase::DataIn || step.phase == ScsiPhase::DataOut) {
        stats_.data_bytes += step.data_bytes;
        stats_.data_ps += step.duration_ps;
    }
}

// ---- observation ---------------------------------------------------------------------

void ScsiBus::observe(trace::TraceHub *hub, const std::string &scope) {
    hub_ = hub;
    scope_ = scope;
    sig_phase_ = hub->signal(
        {scope, "phase", trace::SignalKind::Text, 12, trace::TimelineRole::Slices, "free"},
        {0, "free"});
    sig_owner_ = hub->signal(
        {scope, "owner", trace::SignalKind::Text, 8, trace::TimelineRole::None, ""}, {0, ""});
}

std::string ScsiBus::owner_name() const {
    for (size_t t = 0; t < targets_.size(); ++t) {
        if (targets_[t] == owner_) {
            return "disk" + std::to_string(t);
        }
    }
    return owner_ != nullptr ? "host" : "";
}

void ScsiBus::observe_phase(ScsiPhase phase, uint64_t at_ps) {
    // A step after arbitration starts when arbitration ends: stamped then.
    std::string owner = owner_name();
    hub_->set_text(sig_phase_, at_ps, phase_name(phase));
    hub_->set_text(sig_owner_, at_ps, owner);
    hub_->log(
        {at_ps, "SCSI", scope_, trace::Direction::Instant, "PHASE", 0,
         std::string("phase=") + phase_name(phase) + (owner.empty() ? "" : " owner=" + owner)});
}

} // namespace starfish::storage
