// workload.kind = commtest: one run of the communication self-test per trial on
// the whole machine. The firmware measures and checks; this file gathers the
// nodes' commtest.* exports into the trial document and prints them.

#include "sim/workload/commtest_trial.h"

#include "fw/apps.h"
#include "fw/param_keys.h"
#include "hw/machine_keys.h"
#include "sim/platform/fw_params.h"
#include "sim/report/statistics.h"
#include "sim/trace/trace_session.h"
#include "sim/workload/host_memory.h"
#include "sim/workload/workload.h"
#include "tlm_models/net/torus_topology.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace starfish::sim {

using nlohmann::json;

namespace {

// "CP3" / "IOP0" for a node id.
std::string node_label(platform::Machine &m, int id) {
    const platform::NodeSetup &s = m.node(id).setup();
    return std::string(platform::role_name(s.role)) + std::to_string(s.role_index);
}

bool find_export(platform::Node &n, const std::string &key, uint64_t *value) {
    auto it = n.exports().find(key);
    if (it == n.exports().end()) {
        return false;
    }
    *value = it->second;
    return true;
}

// Ping-pong pairs as exported by their first node: commtest.pingpong.A-B.rtt_cycles.
json pingpong_of(platform::Machine &m, double cpu_mhz) {
    const auto &shape = m.shape();
    net::TorusTopology torus(shape.torus_width, shape.torus_height, 1);
    std::vector<std::pair<std::pair<int, int>, uint64_t>> pairs;
    const std::string prefix = "commtest.pingpong.", suffix = ".rtt_cycles";
    for (int id = 0; id < m.node_count(); ++id) {
        for (const auto &[key, value] : m.node(id).exports()) {
            if (key.compare(0, prefix.size(), prefix) != 0 || key.size() <= suffix.size() ||
                key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0) {
                continue;
            }
            int a = -1, b = -1;
            if (std::sscanf(key.c_str() + prefix.size(), "%d-%d", &a, &b) == 2 && a == id &&
                b >= 0 && b < m.node_count()) {
                pairs.push_back({{a, b}, value});
            }
        }
    }
    std::sort(pairs.begin(), pairs.end());
    json out = json::array();
    for (const auto &[ab, rtt] : pairs) {
        int a = ab.first, b = ab.second;
        out.push_back(json{{"pair", std::to_string(a) + "-" + std::to_string(b)},
                           {"a", a},
                           {"b", b},
                           {"a_label", node_label(m, a)},
                           {"b_label", node_label(m, b)},
                           {"hops", torus.hops(m.node(a).setup().router, m.node(b).setup().router)},
                           {"rtt_cycles", rtt},
                           {"rtt_us", static_cast<double>(rtt) / cpu_mhz}});
    }
    return out;
}

// The Memput/Memget sweep, measured on the first IOP against the first CP.
json sweep_of(platform::Machine &m, const config::Config &cfg, double cpu_mhz) {
    std::vector<long long> words;
    std::string error;
    if (!platform::parse_positive_list(cfg.get_string(keys::commtest_sweep_words), &words,
                                       &error)) {
        throw std::runtime_error("commtest.sweep_words: " + error);
    }
    platform::Node &iop0 = m.iop(0);
    json out = json::array();
    for (long long w : words) {
        std::string base = "commtest.mem";
        std::string size = "." + std::to_string(w) + "w.";
        uint64_t put = 0, get = 0, put_min = 0, get_min = 0;
        if (!find_export(iop0, base + "put" + size + "cycles", &put) ||
            !find_export(iop0, base + "get" + size + "cycles", &get)) {
            continue; // the run stopped before this size
        }
        find_export(iop0, base + "put" + size + "min_cycles", &put_min);
        find_export(iop0, base + "get" + size + "min_cycles", &get_min);
        out.push_back(json{{"words", w},
                           {"memput_cycles", put},
                           {"memput_min_cycles", put_min},
                           {"memput_us", static_cast<double>(put) / cpu_mhz},
                           {"memget_cycles", get},
                           {"memget_min_cycles", get_min},
                           {"memget_us", static_cast<double>(get) / cpu_mhz}});
    }
    return out;
}

// Sum (or maximum) of one export over every node that reported it.
uint64_t over_nodes(platform::Machine &m, const std::string &key, bool maximum) {
    uint64_t acc = 0, v = 0;
    for (int id = 0; id < m.node_count(); ++id) {
        if (find_export(m.node(id), key, &v)) {
            acc = maximum ? std::max(acc, v) : acc + v;
        }
    }
    return acc;
}

json run_commtest_trial(const config::Config &cfg, int trial) {
    platform::Machine m(cfg, trial,
                        platform::FirmwareSet{fw_commtest_cp_main, fw_commtest_iop_main},
                        trace::rtl_fst_for_trial(trial));
    std::string failure = trace::run_traced(m, trial);
    json t = commtest_trial_result(m, cfg, failure);
    t["trial"] = trial;
    t["host_cpu_s"] = host_cpu_seconds();
    return t;
}

// Values of one measurement over the trials that have it.
std::vector<double> collect(const std::vector<json> &trials,
                            const std::function<const json *(const json &)> &pick) {
    std::vector<double> v;
    for (const auto &t : trials) {
        const json *x = pick(t);
        if (x != nullptr && x->is_number()) {
            v.push_back(x->get<double>());
        }
    }
    return v;
}

// The element of array t[list] whose `key` is `id`, its `field` (nullptr if absent).
const json *find_in(const json &t, const char *list, const char *key, const json &id,
                    const char *field) {
    if (!t.contains(list) || !t.at(list).is_array()) {
        return nullptr;
    }
    for (const auto &e : t.at(list)) {
        if (e.value(key, json()) == id && e.contains(field)) {
            return &e.at(field);
        }
    }
    return nullptr;
}

const json *at_path(const json &t, const char *object, const char *field) {
    if (!t.contains(object) || !t.at(object).is_object() || !t.at(object).contains(field)) {
        return nullptr;
    }
    return &t.at(object).at(field);
}

double mean_of(const std::vector<double> &v) {
    return v.empty() ? 0.0 : summarize(v).mean;
}

json summarize_commtest(const config::Config &cfg, const std::vector<json> &trials) {
    (void)cfg;
    int verified = 0;
    for (const auto &t : trials) {
        verified += t.value("verified", false) ? 1 : 0;
    }
    json out{{"trials", static_cast<int>(trials.size())}, {"verified_trials", verified}};
    if (trials.empty()) {
        return out;
    }
    const json &first = trials.front();
    json pp = json::object();
    for (const auto &p : first.value("pingpong", json::array())) {
        json id = p.at("pair");
        pp[id.get<std::string>()] = mean_of(collect(trials, [&](const json &t) {
            return find_in(t, "pingpong", "pair", id, "rtt_cycles");
        }));
    }
    out["pingpong_rtt_cycles"] = pp;
    json put = json::object(), get = json::object();
    for (const auto &s : first.value("sweep", json::array())) {
        json w = s.at("words");
        std::string key = std::to_string(w.get<long long>());
        put[key] = mean_of(collect(trials, [&](const json &t) {
            return find_in(t, "sweep", "words", w, "memput_cycles");
        }));
        get[key] = mean_of(collect(trials, [&](const json &t) {
            return find_in(t, "sweep", "words", w, "memget_cycles");
        }));
    }
    out["memput_cycles"] = put;
    out["memget_cycles"] = get;
    out["barrier_cycles"] =
        mean_of(collect(trials, [](const json &t) { return at_path(t, "barrier", "cycles"); }));
    out["echo_cycles"] =
        mean_of(collect(trials, [](const json &t) { return at_path(t, "echo", "cycles"); }));
    out["queued_puts"] = first.value("queued", json::object()).value("puts", 0ull);
    return out;
}

std::string describe_commtest(const config::Config &cfg) {
    std::ostringstream os;
    os << "commtest: ping-pong (pairs " << cfg.get_string(keys::commtest_pingpong_pairs) << ", "
       << cfg.get_int(keys::commtest_pingpong_iterations) << " round trips), Memput/Memget sweep "
       << cfg.get_string(keys::commtest_sweep_words) << " words x "
       << cfg.get_int(keys::commtest_sweep_iterations) << ", "
       << cfg.get_int(keys::commtest_barrier_iterations) << " barriers, "
       << cfg.get_int(keys::commtest_queued_puts) << " queued Memputs + "
       << cfg.get_int(keys::commtest_queued_gets) << " queued Memgets of 1.."
       << cfg.get_int(keys::commtest_queued_max_bytes) << " bytes; "
       << cfg.get_int(keys::machine_cp_count) << " CPs, " << cfg.get_int(keys::machine_iop_count)
       << " IOPs";
    return os.str();
}

std::string commtest_trial_line(const json &t) {
    std::ostringstream os;
    char buf[200];
    if (!t.value("verified", false)) {
        os << "NOT VERIFIED";
        std::string f = t.value("failure", "");
        if (!f.empty()) {
            os << ": " << f;
        } else {
            os << " (" << t.value("nodes_ok", 0) << "/" << t.value("nodes", 0) << " nodes ok, "
               << t.value("errors", 0ull) << " errors)";
        }
        return os.str();
    }
    os << "verified";
    const json &pp = t.value("pingpong", json::array());
    if (!pp.empty()) {
        std::snprintf(buf, sizeof buf, "; ping-pong %s %llu cycles",
                      pp[0].at("pair").get<std::string>().c_str(),
                      static_cast<unsigned long long>(pp[0].at("rtt_cycles").get<uint64_t>()));
        os << buf;
    }
    for (const auto &s : t.value("sweep", json::array())) {
        if (s.at("words").get<long long>() == 50) {
            std::snprintf(buf, sizeof buf, "; 50-word Memput %.2f us, Memget %.2f us",
                          s.at("memput_us").get<double>(), s.at("memget_us").get<double>());
            os << buf;
        }
    }
    if (t.contains("barrier")) {
        std::snprintf(
            buf, sizeof buf, "; barrier %llu cycles",
            static_cast<unsigned long long>(t.at("barrier").at("cycles").get<uint64_t>()));
        os << buf;
    }
    return os.str();
}

// "mean" or "mean (min..max)" when the trials differ.
std::string spread(const std::vector<double> &v, const char *fmt) {
    if (v.empty()) {
        return "-";
    }
    Summary s = summarize(v);
    char a[64], b[64], c[64];
    std::snprintf(a, sizeof a, fmt, s.mean);
    if (s.min == s.max) {
        return a;
    }
    std::snprintf(b, sizeof b, fmt, s.min);
    std::snprintf(c, sizeof c, fmt, s.max);
    return std::string(a) + " (" + b + ".." + c + ")";
}

void print_commtest(std::ostream &out, const config::Config &cfg, const std::vector<json> &trials,
                    const json &summary) {
    double mhz = cfg.get_real(keys::machine_cpu_mhz);
    char line[320];
    out << "trial  verified  nodes ok  errors  simulated ms  queued batches\n";
    for (const auto &t : trials) {
        std::snprintf(
            line, sizeof line, "%5d  %-8s  %5d/%-3d  %6llu  %12.3f  %14llu\n", t.value("trial", 0),
            t.value("verified", false) ? "yes" : "NO", t.value("nodes_ok", 0), t.value("nodes", 0),
            static_cast<unsigned long long>(t.value("errors", 0ull)), 1e3 * t.value("sim_s", 0.0),
            static_cast<unsigned long long>(
                t.value("queued", json::object()).value("batches_sent", 0ull)));
        out << line;
        if (!t.value("failure", "").empty()) {
            out << "       " << t.at("failure").get<std::string>() << "\n";
        }
    }
    if (trials.empty()) {
        return;
    }
    const json &first = trials.front();
    int n = static_cast<int>(trials.size());
    out << "\nmeasurements (mean over " << n << " trial" << (n == 1 ? "" : "s")
        << "; min..max when trials differ)\n";

    if (!first.value("pingpong", json::array()).empty()) {
        out << "ping-pong round trip (header-only request, reply from the peer's interrupt)\n";
        out << "  pair                   hops  cycles                  us\n";
    }
    for (const auto &p : first.value("pingpong", json::array())) {
        json id = p.at("pair");
        auto v = collect(trials, [&](const json &t) {
            return find_in(t, "pingpong", "pair", id, "rtt_cycles");
        });
        std::vector<double> us;
        for (double c : v) {
            us.push_back(c / mhz);
        }
        std::string label = p.at("a_label").get<std::string>() + " - " +
                            p.at("b_label").get<std::string>() + " (" + id.get<std::string>() + ")";
        std::snprintf(line, sizeof line, "  %-22s %4d  %-22s  %s\n", label.c_str(),
                      p.at("hops").get<int>(), spread(v, "%.0f").c_str(),
                      spread(us, "%.2f").c_str());
        out << line;
    }

    if (!first.value("sweep", json::array()).empty()) {
        out << "Memput / Memget end to end, IOP0 -> CP0 (blocking; docs/reference.md §2: about 5 "
               "us + 1 us "
               "(Memput) or 2 us (Memget) per 50 words)\n";
        out << "  words  Memput cycles       Memput us                Memget cycles       "
               "Memget us\n";
    }
    for (const auto &s : first.value("sweep", json::array())) {
        json w = s.at("words");
        auto field = [&](const char *f) {
            return collect(trials,
                           [&](const json &t) { return find_in(t, "sweep", "words", w, f); });
        };
        auto put = field("memput_cycles"), get = field("memget_cycles");
        std::vector<double> put_us, get_us;
        for (double c : put) {
            put_us.push_back(c / mhz);
        }
        for (double c : get) {
            get_us.push_back(c / mhz);
        }
        std::snprintf(line, sizeof line, "  %5lld  %-18s  %-23s  %-18s  %s\n", w.get<long long>(),
                      spread(put, "%.0f").c_str(), spread(put_us, "%.2f").c_str(),
                      spread(get, "%.0f").c_str(), spread(get_us, "%.2f").c_str());
        out << line;
    }
    if (first.contains("echo")) {
        auto v = collect(trials, [](const json &t) { return at_path(t, "echo", "cycles"); });
        std::snprintf(line, sizeof line,
                      "request/reply echo of %lld words (CP0 -> IOP0 server thread): %s cycles\n",
                      first.at("echo").at("words").get<long long>(), spread(v, "%.0f").c_str());
        out << line;
    }
    if (first.contains("barrier")) {
        auto v = collect(trials, [](const json &t) { return at_path(t, "barrier", "cycles"); });
        std::vector<double> us;
        for (double c : v) {
            us.push_back(c / mhz);
        }
        std::snprintf(line, sizeof line, "barrier over %d nodes: %s cycles, %s us\n",
                      first.at("barrier").at("nodes").get<int>(), spread(v, "%.0f").c_str(),
                      spread(us, "%.2f").c_str());
        out << line;
    }
    if (first.contains("queued") && first.at("queued").value("puts", 0ull) > 0) {
        const json &q = first.at("queued");
        auto puts = collect(trials, [](const json &t) { return at_path(t, "queued", "put_us"); });
        auto gets = collect(trials, [](const json &t) { return at_path(t, "queued", "get_us"); });
        std::snprintf(line, sizeof line,
                      "queued: %llu Memputs (%llu bytes) in %s us, %llu Memgets in %s us "
                      "(slowest node)\n",
                      static_cast<unsigned long long>(q.value("puts", 0ull)),
                      static_cast<unsigned long long>(q.value("put_bytes", 0ull)),
                      spread(puts, "%.1f").c_str(),
                      static_cast<unsigned long long>(q.value("gets", 0ull)),
                      spread(gets, "%.1f").c_str());
        out << line;
    }
    std::snprintf(line, sizeof line, "verified: %d of %d trial%s\n",
                  summary.value("verified_trials", 0), n, n == 1 ? "" : "s");
    out << line;
}

} // namespace

json commtest_trial_result(platform::Machine &m, const config::Config &cfg,
                           const std::string &failure) {
    double mhz = cfg.get_real(keys::machine_cpu_mhz);
    int nodes_ok = 0;
    uint64_t v = 0;
    for (int id = 0; id < m.node_count(); ++id) {
        nodes_ok += find_export(m.node(id), "commtest.node_ok", &v) && v == 1 ? 1 : 0;
    }
    uint64_t verdict = 0;
    bool reported = find_export(m.node(0), "commtest.verified", &verdict);
    json t{{"verified", failure.empty() && reported && verdict == 1},
           {"failure", failure},
           {"nodes", m.node_count()},
           {"nodes_ok", nodes_ok},
           {"errors", over_nodes(m, "commtest.errors", false)},
           {"pingpong", pingpong_of(m, mhz)},
           {"sweep", sweep_of(m, cfg, mhz)}};
    if (failure.empty() && !reported) {
        t["failure"] =
            "node 0 never reported commtest.verified: the simulation ran out of "
            "activity at " +
            std::to_string(m.sim_seconds()) +
            " s (a lost message or a firmware deadlock); live threads: " + m.live_threads_report();
    }
    uint64_t cycles = 0;
    std::string echo_key =
        "commtest.echo." + std::to_string(cfg.get_int(keys::commtest_echo_words)) + "w.cycles";
    if (find_export(m.cp(0), echo_key, &cycles)) {
        t["echo"] = json{{"words", cfg.get_int(keys::commtest_echo_words)},
                         {"cycles", cycles},
                         {"us", static_cast<double>(cycles) / mhz}};
    }
    std::string barrier_key =
        "commtest.barrier." + std::to_string(m.node_count()) + "_nodes.cycles";
    if (find_export(m.node(0), barrier_key, &cycles)) {
        t["barrier"] = json{{"nodes", m.node_count()},
                            {"cycles", cycles},
                            {"us", static_cast<double>(cycles) / mhz}};
    }
    uint64_t put_cycles = over_nodes(m, "commtest.queued.put_cycles", true);
    uint64_t get_cycles = over_nodes(m, "commtest.queued.get_cycles", true);
    t["queued"] = json{{"puts", over_nodes(m, "commtest.queued.puts", false)},
                       {"put_bytes", over_nodes(m, "commtest.queued.put_bytes", false)},
                       {"put_cycles_max", put_cycles},
                       {"put_us", static_cast<double>(put_cycles) / mhz},
                       {"gets", over_nodes(m, "commtest.queued.gets", false)},
                       {"get_cycles_max", get_cycles},
                       {"get_us", static_cast<double>(get_cycles) / mhz},
                       {"batches_sent", over_nodes(m, "commtest.batches_sent", false)}};
    if (find_export(m.node(0), "commtest.total_cycles", &cycles)) {
        t["total_cycles"] = cycles;
    }
    t["sim_s"] = m.sim_seconds();
    t["events"] = m.events();
    json machine = m.summary_json();
    for (auto it = machine.begin(); it != machine.end(); ++it) {
        t[it.key()] = *it;
    }
    return t;
}

const WorkloadKind &commtest_workload() {
    static const WorkloadKind kind{run_commtest_trial,
                                   summarize_commtest,
                                   describe_commtest,
                                   commtest_trial_line,
                                   print_commtest,
                                   [](const config::Config &) { return 1.0; },
                                   {"sim_s", "events"},
                                   [](const config::Config &cfg) {
                                       // a few small message buffers per node
                                       return HostMemory{trial_process_bytes(cfg), ""};
                                   }};
    return kind;
}

} // namespace starfish::sim
