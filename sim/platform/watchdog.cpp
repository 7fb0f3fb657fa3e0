#include "sim/platform/watchdog.h"

#include "sim/platform/machine.h"

#include <systemc>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace starfish::platform {

namespace {

uint64_t now_ps() {
    return sc_core::sc_time_stamp().value();
}

std::string seconds(uint64_t ps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f s", static_cast<double>(ps) * 1e-12);
    return buf;
}

// What a semaphore is called in a report.
std::string semaphore_text(Node &n, uint32_t handle) {
    const FirmwareNames::Semaphore *s = n.hal().names().semaphore(handle);
    std::string id = "semaphore #" + std::to_string(handle);
    if (s == nullptr || s->name.empty()) {
        return id + " (unnamed)";
    }
    return "\"" + s->name + "\" (" + id + (s->work_queue ? ", a work queue)" : ")");
}

bool is_work_queue(Node &n, uint32_t handle) {
    const FirmwareNames::Semaphore *s = n.hal().names().semaphore(handle);
    return s != nullptr && s->work_queue;
}

std::string thread_text(Node &n, const node::ThreadInfo &t) {
    using State = node::ThreadInfo::State;
    std::string text = "thread " + t.name + ": ";
    switch (t.state) {
    case State::Running:
        return text + "running";
    case State::Ready:
        return text + "ready to run";
    case State::Waiting:
        text += "waits on " + semaphore_text(n, t.semaphore);
        if (t.timed_until_ps != 0) {
            text += " until " + seconds(t.timed_until_ps);
        }
        return text;
    case State::Sleeping:
        return text + "sleeps until " + seconds(t.timed_until_ps);
    }
    return text;
}

} // namespace

Watchdog::Watchdog(Machine &machine, const WatchdogParams &params) : m_(machine), params_(params) {}

std::string Watchdog::run() {
    if (!params_.enabled()) {
        sc_core::sc_start();
        return m_.failure();
    }
    uint64_t last = progress();
    uint64_t quiet_since = now_ps();
    uint64_t timers = timers_expired();
    uint64_t slice_end = now_ps() + params_.period_ps;
    bool started = false;
    for (;;) {
        uint64_t now = now_ps();
        if (started) {
            if (!sc_core::sc_pending_activity()) {
                break; // out of activity: the run has ended
            }
            if (now >= slice_end) {
                uint64_t p = progress();
                if (p != last) {
                    last = p;
                    quiet_since = now;
                    timers = timers_expired();
                } else if (now - quiet_since >= params_.period_ps &&
                           !waiting_for_time_or_disk(timers)) {
                    return "watchdog: no progress for " + seconds(now - quiet_since) +
                           " of simulated time (sim.watchdog_ms) at " + seconds(now) +
                           ": no thread woke, no interrupt, no packet, no disk command "
                           "completed, and nothing waits for a timer or a disk\n" +
                           node_report();
                }
                slice_end = now + params_.period_ps;
            }
        }
        // Up to the slice's end. The kernel stops at the last event when it runs out
        // (the run's end time stays exact), but it moves no clock while the next
        // event lies beyond the slice: then the slice is run to its end.
        uint64_t left = slice_end - now;
        bool nothing_inside = started && sc_core::sc_time_to_pending_activity().value() > left;
        sc_core::sc_start(sc_core::sc_time::from_value(left), nothing_inside
                                                                  ? sc_core::SC_RUN_TO_TIME
                                                                  : sc_core::SC_EXIT_ON_STARVATION);
        started = true;
        std::string failure = m_.failure();
        if (!failure.empty() || sc_core::sc_get_status() == sc_core::SC_STOPPED) {
            return failure;
        }
    }
    std::string blocked = blocked_threads();
    if (blocked.empty()) {
        return "";
    }
    return "watchdog: deadlock: the simulation ran out of activity at " + seconds(now_ps()) +
           " with firmware threads blocked (" + blocked + ")\n" + node_report();
}

uint64_t Watchdog::progress() const {
    uint64_t p = m_.network().stats().packets_delivered;
    for (int d = 0; d < m_.disk_count(); ++d) {
        p += m_.disk(d).stats().requests;
    }
    for (int i = 0; i < m_.node_count(); ++i) {
        node::CpuStats s = m_.node(i).cpu().stats();
        p += s.wakeups + s.interrupts + s.threads_created + m_.node(i).cpu().live_threads();
    }
    return p;
}

uint64_t Watchdog::timers_expired() const {
    uint64_t n = 0;
    for (int i = 0; i < m_.node_count(); ++i) {
        n += m_.node(i).cpu().timers_expired();
    }
    return n;
}

bool Watchdog::waiting_for_time_or_disk(uint64_t timers) const {
    for (int k = 0; k < m_.shape().iop_count; ++k) {
        if (m_.scsi_chain(k).adapter().busy()) {
            return true;
        }
    }
    if (timers_expired() != timers) {
        return false; // a timer went off and nothing came of it: polling
    }
    for (int i = 0; i < m_.node_count(); ++i) {
        for (const auto &t : m_.node(i).cpu().thread_infos()) {
            if (t.timed_until_ps != 0) {
                return true;
            }
        }
    }
    return false;
}

std::string Watchdog::blocked_threads() const {
    std::string out;
    for (int i = 0; i < m_.node_count(); ++i) {
        Node &n = m_.node(i);
        for (const auto &t : n.cpu().thread_infos()) {
            if (t.state == node::ThreadInfo::State::Waiting && !is_work_queue(n, t.semaphore)) {
                out += (out.empty() ? "" : ", ") + std::string(n.basename()) + " " + t.name;
            }
        }
    }
    return out;
}

std::string Watchdog::node_report() const {
    std::ostringstream out;
    for (int i = 0; i < m_.node_count(); ++i) {
        Node &n = m_.node(i);
        std::vector<std::string> lines;
        // Threads doing the same thing share a line ("thread msg_server (x4): ...").
        std::vector<std::pair<std::string, int>> threads;
        for (const auto &t : n.cpu().thread_infos()) {
            std::string text = thread_text(n, t);
            auto same = std::find_if(threads.begin(), threads.end(),
                                     [&](const auto &e) { return e.first == text; });
            if (same != threads.end()) {
                ++same->second;
            } else {
                threads.emplace_back(text, 1);
            }
        }
        for (const auto &[text, count] : threads) {
            if (count == 1) {
                lines.push_back(text);
            } else {
                size_t colon = text.find(':');
                lines.push_back(text.substr(0, colon) + " (x" + std::to_string(count) + ")" +
                                text.substr(colon));
            }
        }
        for (const auto &line : n.hal().names().report(n.hal().handle())) {
            lines.push_back("firmware: " + line);
        }
        std::string ni = n.ni().queue_report();
        if (!ni.empty()) {
            lines.push_back("NI: " + ni);
        }
        if (n.setup().role == NodeRole::Io) {
            const ScsiChain &chain = m_.scsi_chain(n.setup().role_index);
            for (const auto &line : chain.adapter().queue_report()) {
                lines.push_back("SCSI adapter 0: " + line);
            }
            for (unsigned t = 0; t < chain.disk_count(); ++t) {
                if (chain.disk(t).silent()) {
                    lines.push_back("disk " + std::to_string(chain.disk(t).global_id()) +
                                    " (target " + std::to_string(t) +
                                    ") has stopped answering (fault.silent_disk)");
                }
            }
        }
        if (lines.empty()) {
            continue;
        }
        out << "  node " << n.setup().node_id << " (" << n.basename() << "):\n";
        for (const auto &l : lines) {
            out << "    " << l << "\n";
        }
    }
    std::string text = out.str();
    return text.empty() ? "  (no node has live threads or busy queues)\n" : text;
}

} // namespace starfish::platform
