#include "tests/node/node_bench.h"

#include "hw/machine_keys.h"
#include "sim/parameters.h"
#include "tests/node/fw_tests.h"
#include "tests/node/timer_device.h"

#include <memory>

namespace starfish::testing {

using nlohmann::json;

json run_node_bench(const NodeBenchSpec &spec, const NodeInspector &inspect) {
    // hal_fail and device errors stop the run with sc_stop; the harness reports them.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    config::Config cfg(sim::parameter_registry());
    for (const auto &[key, value] : spec.settings) {
        cfg.set_from_text(key, value, "test");
    }
    cfg.validate();
    const uint64_t cycle_ps = node::cpu_cycle_ps(cfg);
    const int n = static_cast<int>(spec.mains.size());

    IdealNetwork::Params net_params = spec.net;
    net_params.cycle_ps = cycle_ps;
    IdealNetwork network("network", n, net_params);

    std::vector<int> routers;
    for (int i = 0; i < n; ++i) {
        routers.push_back(i);
    }
    std::vector<std::unique_ptr<platform::Node>> nodes;
    std::vector<std::unique_ptr<TimerDevice>> timers;
    std::vector<platform::Node *> node_ptrs;
    for (int i = 0; i < n; ++i) {
        platform::NodeSetup setup;
        setup.node_id = i;
        bool iop = i >= n - spec.iop_count;
        setup.role = iop ? platform::NodeRole::Io : platform::NodeRole::Compute;
        setup.role_index = iop ? i - (n - spec.iop_count) : i;
        setup.cp_count = n - spec.iop_count;
        setup.iop_count = spec.iop_count;
        setup.disks_per_iop = static_cast<int>(cfg.get_int(keys::machine_disks_per_iop));
        setup.router = i;
        setup.node_routers = routers;
        setup.main = spec.mains[i];
        auto node = std::make_unique<platform::Node>(("node" + std::to_string(i)).c_str(), setup,
                                                     cfg, network);
        if (i < static_cast<int>(spec.contexts.size()) && spec.contexts[i] != nullptr) {
            node->hal().set_context(const_cast<void *>(spec.contexts[i]));
        }
        if (spec.timers) {
            auto timer =
                std::make_unique<TimerDevice>(("timer" + std::to_string(i)).c_str(), cycle_ps);
            timer->irq(node->irq_line(FWT_TIMER_IRQ));
            node->attach_device("timer", FWT_TIMER_BASE, 0x1000, timer->regs);
            timers.push_back(std::move(timer));
        }
        node->cpu().set_trace(spec.trace);
        node_ptrs.push_back(node.get());
        nodes.push_back(std::move(node));
    }

    // Ends when nothing is left to do (or at the limit, for runaway firmware).
    sc_core::sc_start(sc_core::sc_time::from_value(
                          static_cast<uint64_t>(spec.limit_cycles * static_cast<double>(cycle_ps))),
                      sc_core::SC_EXIT_ON_STARVATION);

    json out;
    out["cycle_ps"] = cycle_ps;
    out["sim_ps"] = sc_core::sc_time_stamp().value();
    out["sim_cycles"] = sc_core::sc_time_stamp().value() / cycle_ps;
    out["failure"] = "";
    json failures = json::array();
    json jnodes = json::array();
    for (auto &node : nodes) {
        std::string f = node->failure();
        if (!f.empty()) {
            failures.push_back(f);
            if (out["failure"] == "") {
                out["failure"] = f;
            }
        }
        json j;
        j["exports"] = json::object();
        for (const auto &[name, value] : node->exports()) {
            j["exports"][name] = value;
        }
        j["stats"] = node->stats_json();
        j["ni_error"] = node->ni().error_code();
        if (spec.trace) {
            node::CpuStats stats = node->cpu().stats();
            json names = json::array();
            for (const auto &a : stats.activities) {
                names.push_back(a.name);
            }
            json intervals = json::array();
            for (const auto &iv : node->cpu().trace()) {
                intervals.push_back({iv.activity, iv.start_ps, iv.end_ps});
            }
            j["trace"] = json{{"activities", names}, {"intervals", intervals}};
        }
        jnodes.push_back(j);
    }
    out["failures"] = failures;
    out["nodes"] = jnodes;
    out["network"] = json{{"delivered", network.packets_delivered()},
                          {"refusals", network.refusals()},
                          {"injection_refusals", network.injection_refusals()}};
    if (inspect) {
        inspect(out, node_ptrs);
    }
    return out;
}

} // namespace starfish::testing
