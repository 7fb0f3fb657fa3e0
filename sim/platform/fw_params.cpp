#include "sim/platform/fw_params.h"

#include "hw/config/config.h"

#include "fw/param_keys.h"
#include "fw/params.h"
#include "fw/spfs.h"
#include "fw/twophase_plan.h"
#include "hw/machine_keys.h"
#include "hw/ni_regs.h"
#include "sim/platform/pattern_config.h"
#include "tlm_models/node/node_cpu_params.h"
#include "tlm_models/node/node_memory_params.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace starfish::platform {

namespace {

// twophase.direct: a request that is the conforming distribution itself needs no
// collective buffer. The firmware's own test (fw_twophase_plan_conforming), so the
// check and the CPs agree; a pattern or plan the firmware refuses is another
// check's to report.
bool direct_conforming(const config::Config &cfg) {
    fw_pattern_t p;
    std::string error;
    if (!cfg.get_bool(keys::twophase_direct) || !pattern_from_config(cfg, &p, &error)) {
        return false;
    }
    fw_twophase_config_t tc;
    if (!fw_twophase_config_of(&tc, cfg.get_string(keys::twophase_intermediate).c_str(),
                               static_cast<uint32_t>(cfg.get_int(keys::twophase_aggregators)),
                               static_cast<uint64_t>(cfg.get_int(keys::twophase_buffer_kb)),
                               static_cast<uint64_t>(cfg.get_int(keys::twophase_cyclic_kb)),
                               static_cast<uint32_t>(cfg.get_int(keys::fs_block_bytes)))) {
        return false;
    }
    fw_twophase_plan_t plan;
    char msg[256];
    return fw_twophase_plan_init(&plan, &p, &tc, msg, sizeof msg) == FW_TWOPHASE_OK &&
           fw_twophase_plan_conforming(&plan);
}

std::vector<std::string> split_choices(const std::string &text) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (!text.empty() && pos <= text.size()) {
        size_t bar = text.find('|', pos);
        out.push_back(text.substr(pos, bar == std::string::npos ? std::string::npos : bar - pos));
        if (bar == std::string::npos) {
            break;
        }
        pos = bar + 1;
    }
    return out;
}

config::ParamSpec spec_of(const fw_param_decl_t &d) {
    config::ParamSpec s;
    s.key = d.key;
    s.unit = d.unit;
    s.meaning = d.meaning;
    s.provenance = d.provenance;
    switch (d.type) {
    case FW_PARAM_INT:
        if (std::floor(d.def) != d.def) {
            throw std::logic_error(s.key + ": an integer parameter with a fractional default");
        }
        s.type = config::ParamType::Int;
        s.default_value = static_cast<long long>(d.def);
        s.min = d.min;
        s.max = d.max;
        break;
    case FW_PARAM_REAL:
        s.type = config::ParamType::Real;
        s.default_value = d.def;
        s.min = d.min;
        s.max = d.max;
        break;
    case FW_PARAM_BOOL:
        s.type = config::ParamType::Bool;
        s.default_value = d.def != 0;
        s.accepts_0_1 = (d.flags & FW_PARAM_ACCEPTS_0_1) != 0;
        break;
    case FW_PARAM_STRING:
        s.type = config::ParamType::String;
        s.default_value = std::string(d.def_text);
        s.choices = split_choices(d.choices);
        break;
    }
    return s;
}

void add_checks(config::Registry &reg) {
    // Combinations the IOPs could not serve, named before anything runs.
    reg.add_check([](const config::Config &cfg) -> std::string {
        if (cfg.get_string(keys::fs_kind) != "spfs" && cfg.get_string(keys::fs_kind) != "2pio") {
            return "";
        }
        long long k = cfg.get_int(keys::spfs_outstanding);
        long long per = cfg.get_int(keys::spfs_cache_buffers_per_cp_disk);
        if (per != 0 && per < k) {
            return "spfs.cache_buffers_per_cp_disk = " + std::to_string(per) +
                   " is smaller than spfs.outstanding = " + std::to_string(k) +
                   ": the cache must hold every request a CP may have outstanding at a disk";
        }
        long long cps = cfg.get_int(keys::machine_cp_count);
        long long disks = cfg.get_int(keys::machine_disks_per_iop);
        // The firmware's own rules (fw/spfs.h), so the check and the IOP agree.
        auto u = [](long long v) { return static_cast<uint64_t>(v); };
        long long buffers =
            static_cast<long long>(fw_spfs_cache_buffers(u(per), u(k), u(cps), u(disks)));
        long long bytes = buffers * cfg.get_int(keys::fs_block_bytes);
        long long memory = cfg.get_int(keys::machine_node_memory_kb) * 1024;
        // Half of node memory for the cache leaves room for request buffers and the rest.
        if (bytes > memory / 2) {
            return "the SPFS cache of each IOP (" + std::to_string(buffers) +
                   " buffers = spfs.cache_buffers_per_cp_disk (0: 2 x spfs.outstanding) x "
                   "machine.cp_count x machine.disks_per_iop, of fs.block_bytes) needs " +
                   std::to_string(bytes / 1024) +
                   " KB, more than half of machine.node_memory_kb = " +
                   std::to_string(cfg.get_int(keys::machine_node_memory_kb)) +
                   "; lower the cache or raise machine.node_memory_kb";
        }
        // Threads of an IOP: one per disk, the request threads (a pool, or one per
        // outstanding request), and a few for the boot program and the barrier.
        long long outstanding = k * cps * disks + 1;
        long long request_threads =
            static_cast<long long>(fw_spfs_server_threads(u(buffers), u(k), u(cps), u(disks)));
        if (cfg.get_string(keys::spfs_requests) == "thread") {
            request_threads = outstanding;
        }
        long long need = request_threads + disks + 4;
        long long limit = cfg.get_int(keys::machine_node_thread_limit);
        if (need > limit) {
            return "SPFS needs " + std::to_string(need) +
                   " threads per IOP (one per outstanding request: spfs.outstanding x "
                   "machine.cp_count x machine.disks_per_iop, one per disk), more than "
                   "machine.node_thread_limit = " +
                   std::to_string(limit) + "; raise machine.node_thread_limit";
        }
        return "";
    });
    reg.add_check([](const config::Config &cfg) -> std::string {
        // 2PIO: an aggregator holds its collective buffer beside its own part of the
        // file (ra: the whole file).
        if (cfg.get_string(keys::fs_kind) != "2pio" ||
            cfg.registry().find(keys::workload_file_mb.name) == nullptr) {
            return "";
        }
        long long cps = cfg.get_int(keys::machine_cp_count);
        long long aggregators = cfg.get_int(keys::twophase_aggregators);
        if (aggregators > cps) {
            return "twophase.aggregators = " + std::to_string(aggregators) +
                   " is more than machine.cp_count = " + std::to_string(cps);
        }
        long long a = aggregators != 0 ? aggregators : cps;
        long long file =
            static_cast<long long>(std::ceil(cfg.get_real(keys::workload_file_mb) * 1048576.0));
        long long share = (file + a - 1) / a;
        long long buffer = cfg.get_int(keys::twophase_buffer_kb) * 1024;
        long long collective = buffer != 0 && buffer < share ? buffer : share;
        if (direct_conforming(cfg)) {
            collective = 0;
        }
        // twophase.overlap keeps a second buffer when there is more than one round.
        if (cfg.get_bool(keys::twophase_overlap) && collective < share) {
            collective *= 2;
        }
        long long part =
            cfg.get_string(keys::workload_pattern) == "ra" ? file : (file + cps - 1) / cps;
        long long memory = cfg.get_int(keys::machine_node_memory_kb) * 1024;
        // An eighth of node memory stays for the messaging and SPFS client state.
        if (collective + part > memory - memory / 8) {
            return "the 2PIO collective buffer (" + std::to_string(collective / 1024) +
                   " KB: twophase.buffer_kb, 0 = the aggregator's share of the file; twice that "
                   "with "
                   "twophase.overlap) and the "
                   "CP's part of the file (" +
                   std::to_string(part / 1024) +
                   " KB) do not fit in seven eighths of machine.node_memory_kb = " +
                   std::to_string(cfg.get_int(keys::machine_node_memory_kb)) +
                   "; lower twophase.buffer_kb, raise twophase.aggregators or raise "
                   "machine.node_memory_kb";
        }
        return "";
    });
    reg.add_check([](const config::Config &cfg) -> std::string {
        // The messaging pools every node allocates at start (docs/messaging.md,
        // "Parameters"): request buffers of fs.block_bytes, receive-ring records, and
        // reply actions and send-queue entries of at least kMinPoolEntryBytes each. A
        // lower bound: what does not fit in node memory fails every run at its start;
        // what fits here may still fail with the file system's buffers beside it, and
        // the run's error then names machine.node_memory_kb (sim/workload/workload.h).
        constexpr long long kMinPoolEntryBytes = 32;
        long long block = cfg.get_int(keys::fs_block_bytes);
        long long pools =
            cfg.get_int(keys::msg_request_buffers) * block +
            cfg.get_int(keys::msg_rx_ring_slots) * HW_NI_RX_RECORD_BYTES +
            (cfg.get_int(keys::msg_reply_actions) + cfg.get_int(keys::msg_send_queue_entries)) *
                kMinPoolEntryBytes;
        if (cfg.registry().find(keys::machine_node_memory_kb.name) == nullptr) {
            return ""; // a registry of the firmware's parameters alone (its unit tests)
        }
        long long memory = cfg.get_int(keys::machine_node_memory_kb) * 1024;
        if (pools > memory) {
            return "the messaging pools of each node (msg.request_buffers x fs.block_bytes = " +
                   std::to_string(cfg.get_int(keys::msg_request_buffers)) + " x " +
                   std::to_string(block) + ", msg.rx_ring_slots, msg.reply_actions, " +
                   "msg.send_queue_entries) need at least " + std::to_string(pools / 1024) +
                   " KB, more than machine.node_memory_kb = " +
                   std::to_string(cfg.get_int(keys::machine_node_memory_kb)) +
                   "; lower them or raise machine.node_memory_kb";
        }
        return "";
    });
    reg.add_check([](const config::Config &cfg) -> std::string {
        if (cfg.get_int(keys::fs_block_bytes) % 512 != 0) {
            return "fs.block_bytes = " + std::to_string(cfg.get_int(keys::fs_block_bytes)) +
                   " must be a multiple of the 512-byte disk sector";
        }
        return "";
    });
    reg.add_check([](const config::Config &cfg) -> std::string {
        long long s = cfg.get_int(keys::msg_rx_ring_slots);
        if ((s & (s - 1)) != 0) {
            return "msg.rx_ring_slots = " + std::to_string(s) + " must be a power of two";
        }
        return "";
    });
    reg.add_check([](const config::Config &cfg) -> std::string {
        std::vector<long long> words;
        std::string error;
        if (!parse_positive_list(cfg.get_string(keys::commtest_sweep_words), &words, &error)) {
            return "commtest.sweep_words: " + error;
        }
        if (words.size() > FW_COMMTEST_MAX_SWEEP_SIZES) {
            return "commtest.sweep_words lists " + std::to_string(words.size()) +
                   " sizes; at most " + std::to_string(FW_COMMTEST_MAX_SWEEP_SIZES) +
                   " are allowed";
        }
        if (cfg.get_int(keys::commtest_queued_max_bytes) >
            cfg.get_int(keys::commtest_slice_bytes)) {
            return "commtest.queued_max_bytes must not exceed commtest.slice_bytes";
        }
        return "";
    });
}

} // namespace

bool parse_positive_list(const std::string &text, std::vector<long long> *out, std::string *error) {
    out->clear();
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t comma = text.find(',', pos);
        std::string item =
            text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        char *end = nullptr;
        long long v = std::strtoll(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v <= 0 || v > 262144) {
            *error = "\"" + item + "\" in \"" + text + "\" is not a whole number in 1..262144";
            return false;
        }
        out->push_back(v);
        if (comma == std::string::npos) {
            break;
        }
        pos = comma + 1;
    }
    return true;
}

void declare_fw_params(config::Registry &reg) {
    size_t count = 0;
    const fw_param_decl_t *decls = fw_param_decls(&count);
    for (size_t i = 0; i < count; ++i) {
        reg.add(spec_of(decls[i]));
    }
    add_checks(reg);
}

} // namespace starfish::platform
