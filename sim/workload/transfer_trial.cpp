// workload.kind = transfer: one collective file transfer per trial on the whole
// machine, timed from the first barrier to the last (docs/reference.md §9) and verified byte
// for byte (docs/transfer.md).

#include "sim/workload/transfer_trial.h"

#include "fw/apps.h"
#include "fw/ddio.h"
#include "fw/layout.h"
#include "fw/param_keys.h"
#include "fw/pattern.h"
#include "fw/spfs.h"
#include "fw/transfer.h"
#include "hw/data_pattern.h"
#include "hw/machine_keys.h"
#include "hw/rng.h"
#include "sim/platform/machine.h"
#include "sim/platform/pattern_config.h"
#include "sim/report/statistics.h"
#include "sim/trace/trace_session.h"
#include "sim/workload/host_memory.h"
#include "sim/workload/transfer_check.h"
#include "sim/workload/trial_support.h"
#include "sim/workload/workload.h"
#include "tlm_models/storage/disk_fault_params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace starfish::sim {

using nlohmann::json;

namespace {

using platform::file_bytes_of;

fw_pattern_t pattern_of(const config::Config &cfg) {
    fw_pattern_t p;
    std::string error;
    if (!platform::pattern_from_config(cfg, &p, &error)) {
        throw std::runtime_error(error);
    }
    return p;
}

// The same layout the IOPs build (fw_transfer_layout), from the configuration.
fw_layout_t layout_of(const config::Config &cfg, int trial) {
    return file_layout_of(cfg, file_bytes_of(cfg), trial);
}

uint64_t export_of(platform::Node &n, const std::string &key) {
    return node_export(n, key);
}

// SPFS statistics (docs/spfs.md): the IOPs' counters summed, requests per IOP,
// disk-queue depth, disk movements, and the IOP CPUs' busy fraction of the timed
// interval (their work at boot is a few thousand cycles).
json spfs_statistics(platform::Machine &m, double elapsed_s) {
    // The IOP counters summed into fs, by the JSON name (the export's without "spfs.").
    const std::pair<const char *, const char *> summed[] = {
        {"reads", FW_SPFS_STAT_READS},
        {"writes", FW_SPFS_STAT_WRITES},
        {"cache_hits", FW_SPFS_STAT_CACHE_HITS},
        {"cache_misses", FW_SPFS_STAT_CACHE_MISSES},
        {"prefetches_issued", FW_SPFS_STAT_PREFETCHES_ISSUED},
        {"prefetches_used", FW_SPFS_STAT_PREFETCHES_USED},
        {"prefetches_wasted", FW_SPFS_STAT_PREFETCHES_WASTED},
        {"installation_reads", FW_SPFS_STAT_INSTALLATION_READS},
        {"writebacks", FW_SPFS_STAT_WRITEBACKS},
        {"partial_writebacks", FW_SPFS_STAT_PARTIAL_WRITEBACKS},
        {"evictions", FW_SPFS_STAT_EVICTIONS},
        {"buffer_waits", FW_SPFS_STAT_BUFFER_WAITS},
        {"disk_reads", FW_SPFS_STAT_DISK_READS},
        {"disk_writes", FW_SPFS_STAT_DISK_WRITES}};
    json fs{{"kind", "spfs"}};
    for (const auto &[key, name] : summed) {
        fs[key] = 0;
    }
    json per_iop = json::array();
    uint64_t requests = 0, pushes = 0, depth_sum = 0, depth_max = 0;
    double busy_sum = 0, busy_max = 0;
    for (int k = 0; k < m.shape().iop_count; ++k) {
        platform::Node &iop = m.iop(k);
        uint64_t r = export_of(iop, FW_SPFS_STAT_REQUESTS);
        per_iop.push_back(r);
        requests += r;
        for (const auto &[key, name] : summed) {
            fs[key] = fs[key].get<uint64_t>() + export_of(iop, name);
        }
        pushes += export_of(iop, FW_SPFS_STAT_DISKQ_PUSHES);
        depth_sum += export_of(iop, FW_SPFS_STAT_DISKQ_DEPTH_SUM);
        depth_max = std::max(depth_max, export_of(iop, FW_SPFS_STAT_DISKQ_MAX_DEPTH));
        auto s = iop.cpu().stats();
        double busy = elapsed_s > 0 ? static_cast<double>(s.busy_ps()) * 1e-12 / elapsed_s : 0.0;
        busy_sum += busy;
        busy_max = std::max(busy_max, busy);
    }
    uint64_t calls = 0, flow_waits = 0, most = 0;
    for (int c = 0; c < m.shape().cp_count; ++c) {
        calls += export_of(m.cp(c), FW_SPFS_STAT_CALLS);
        flow_waits += export_of(m.cp(c), FW_SPFS_STAT_FLOW_WAITS);
        most = std::max(most, export_of(m.cp(c), FW_SPFS_STAT_MAX_OUTSTANDING));
    }
    fs["calls"] = calls;
    fs["max_outstanding"] = most;
    fs["requests"] = requests;
    fs["requests_per_iop"] = per_iop;
    fs["flow_waits"] = flow_waits;
    fs["diskq_depth_mean"] = pushes ? static_cast<double>(depth_sum) / pushes : 0.0;
    fs["diskq_depth_max"] = depth_max;
    uint64_t movements = 0;
    for (int d = 0; d < m.disk_count(); ++d) {
        movements += m.disk(d).stats().movements;
    }
    fs["disk_movements"] = movements;
    int iops = m.shape().iop_count;
    fs["iop_cpu_busy"] = {{"mean", iops ? busy_sum / iops : 0.0}, {"max", busy_max}};
    return fs;
}

// Two-phase I/O statistics (docs/twophase.md): SPFS's underneath, and per CP the
// time of its own work in the I/O and permutation phases (max and mean over the
// CPs, non-aggregators counting 0), bytes permuted, local and remote pieces.
json twophase_statistics(platform::Machine &m, double elapsed_s, double cpu_hz) {
    json fs = spfs_statistics(m, elapsed_s);
    fs["kind"] = "2pio";
    int cps = m.shape().cp_count;
    double io_sum = 0, io_max = 0, perm_sum = 0, perm_max = 0;
    uint64_t bytes = 0, local = 0, remote = 0, batches = 0, ranges = 0, rounds = 0;
    for (int c = 0; c < cps; ++c) {
        platform::Node &cp = m.cp(c);
        double io = static_cast<double>(export_of(cp, "twophase.io_cycles")) / cpu_hz;
        double perm = static_cast<double>(export_of(cp, "twophase.permute_cycles")) / cpu_hz;
        io_sum += io;
        io_max = std::max(io_max, io);
        perm_sum += perm;
        perm_max = std::max(perm_max, perm);
        bytes += export_of(cp, "twophase.bytes_permuted");
        local += export_of(cp, "twophase.local_pieces");
        remote += export_of(cp, "twophase.remote_pieces");
        batches += export_of(cp, "twophase.batches_sent");
        ranges += export_of(cp, "twophase.io_ranges");
        rounds = std::max(rounds, export_of(cp, "twophase.rounds"));
    }
    fs["io_phase_s"] = {{"max", io_max}, {"mean", cps ? io_sum / cps : 0.0}};
    fs["permute_phase_s"] = {{"max", perm_max}, {"mean", cps ? perm_sum / cps : 0.0}};
    fs["rounds"] = rounds;
    fs["io_ranges"] = ranges;
    fs["bytes_permuted"] = bytes;
    fs["local_pieces"] = local;
    fs["remote_pieces"] = remote;
    fs["batches_sent"] = batches;
    return fs;
}

} // namespace

json run_transfer_trial(const config::Config &cfg, int trial,
                        const std::function<void(platform::Machine &)> &before_check) {
    fw_pattern_t pattern = pattern_of(cfg);
    fw_layout_t layout = layout_of(cfg, trial);
    platform::Machine m(cfg, trial,
                        platform::FirmwareSet{fw_transfer_cp_main, fw_transfer_iop_main},
                        trace::rtl_fst_for_trial(trial));
    std::string failure = trace::run_traced(m, trial);
    if (!failure.empty()) {
        throw std::runtime_error(failure);
    }
    platform::Node &cp0 = m.cp(0);
    if (!cp0.exports().count("transfer.t_end_cycles")) {
        std::ostringstream os;
        os << "the transfer did not complete: the simulation ran out of activity at "
           << m.sim_seconds() << " s with CP 0 still waiting (a lost message or a firmware "
           << "deadlock); live threads: " << m.live_threads_report();
        throw std::runtime_error(os.str());
    }
    int64_t status = static_cast<int64_t>(export_of(cp0, "transfer.status"));
    if (status != 0) {
        throw std::runtime_error("the file system reported error " + std::to_string(status));
    }
    if (before_check) {
        before_check(m);
    }
    double cpu_hz = cfg.get_real(keys::machine_cpu_mhz) * 1e6;
    uint64_t cycles =
        export_of(cp0, "transfer.t_end_cycles") - export_of(cp0, "transfer.t_start_cycles");
    double elapsed = static_cast<double>(cycles) / cpu_hz;

    // Verification against the file's contents.
    DiskNumbering numbering{static_cast<uint32_t>(m.shape().iop_count),
                            static_cast<uint32_t>(m.shape().disks_per_iop)};
    std::vector<std::vector<uint32_t>> tables(numbering.disk_count());
    for (uint32_t d = 0; d < numbering.disk_count(); ++d) {
        tables[d].resize(fw_layout_table_bytes(&layout, d) / sizeof(uint32_t));
        if (!tables[d].empty()) {
            fw_layout_build_table(&layout, d, tables[d].data());
        }
    }
    uint64_t data_seed = hw_rng_stream_seed(static_cast<uint64_t>(cfg.get_int(keys::workload_seed)),
                                            static_cast<uint64_t>(trial), HW_RNG_STREAM_DATA, 0);
    TransferCheck check(pattern, layout, tables, numbering, data_seed);
    TransferCheckResult verdict;
    if (pattern.is_write) {
        verdict = check.check_write([&](uint32_t disk, uint32_t lba, uint32_t count, uint8_t *out) {
            m.disk(static_cast<int>(disk)).read_sectors(lba, count, out);
        });
    } else {
        std::vector<uint32_t> base(pattern.cp_count), size(pattern.cp_count);
        for (uint32_t c = 0; c < pattern.cp_count; ++c) {
            base[c] =
                static_cast<uint32_t>(export_of(m.cp(static_cast<int>(c)), "transfer.buffer_addr"));
            size[c] = static_cast<uint32_t>(
                export_of(m.cp(static_cast<int>(c)), "transfer.buffer_bytes"));
        }
        verdict = check.check_read([&](uint32_t cp, uint64_t off, uint64_t len) -> const uint8_t * {
            if (cp >= pattern.cp_count || off + len > size[cp]) {
                return nullptr;
            }
            return m.cp(static_cast<int>(cp))
                .memory()
                .span(base[cp] + static_cast<uint32_t>(off), static_cast<uint32_t>(len));
        });
    }

    double moved =
        static_cast<double>(pattern.file_bytes) * (pattern.is_all ? pattern.cp_count : 1);
    double mb_s = elapsed > 0 ? moved / 1048576.0 / elapsed : 0.0;
    json t{{"trial", trial},
           {"mb_s", mb_s},
           {"elapsed_s", elapsed},
           {"bytes_moved", moved},
           {"verified", verdict.verified},
           {"check", verdict.to_json()},
           {"sim_s", m.sim_seconds()},
           {"events", m.events()}};
    if (pattern.is_all) {
        t["mb_s_per_cp"] = mb_s / pattern.cp_count;
    }
    json machine = m.summary_json();
    for (auto it = machine.begin(); it != machine.end(); ++it) {
        t[it.key()] = *it;
    }
    if (cfg.get_string(keys::fs_kind) == "spfs") {
        t["fs"] = spfs_statistics(m, elapsed);
    } else if (cfg.get_string(keys::fs_kind) == "2pio") {
        t["fs"] = twophase_statistics(m, elapsed, cpu_hz);
    } else {
        json fs{{"blocks", 0}, {"pieces", 0}, {"prefetches", 0}};
        const std::pair<const char *, const char *> summed[] = {
            {"blocks", FW_DDIO_STAT_BLOCKS},
            {"pieces", FW_DDIO_STAT_PIECES},
            {"prefetches", FW_DDIO_STAT_PREFETCHES}};
        for (int k = 0; k < m.shape().iop_count; ++k) {
            const auto &e = m.iop(k).exports();
            for (const auto &[key, name] : summed) {
                auto it = e.find(name);
                if (it != e.end()) {
                    fs[key] = fs[key].get<uint64_t>() + it->second;
                }
            }
        }
        t["fs"] = fs;
    }
    if (storage::DiskFaultParams::from(cfg).any()) {
        // Injected faults (docs/faults.md) the run survived: each retried and verified.
        uint64_t medium = 0, silent = 0;
        for (int d = 0; d < m.disk_count(); ++d) {
            medium += m.disk(d).fault_stats().medium_errors;
            silent += m.disk(d).fault_stats().silent_commands;
        }
        t["faults"] = {{"medium_errors", medium}, {"silent_commands", silent}};
    }
    t["host_cpu_s"] = host_cpu_seconds();
    return t;
}

namespace {

// Flips the first byte of the transferred data: of the first CP buffer that holds
// any (reads), or of file block 0 on its disk (writes).
void corrupt_first_byte(const config::Config &cfg, int trial, platform::Machine &m) {
    fw_pattern_t pattern = pattern_of(cfg);
    if (pattern.is_write) {
        fw_layout_t layout = layout_of(cfg, trial);
        std::vector<uint32_t> table(fw_layout_table_bytes(&layout, 0) / sizeof(uint32_t));
        if (!table.empty()) {
            fw_layout_build_table(&layout, 0, table.data());
        }
        uint32_t lba = fw_layout_lba(&layout, table.empty() ? nullptr : table.data(), 0);
        uint8_t sector[HW_SECTOR_BYTES];
        m.disk(0).read_sectors(lba, 1, sector); // file disk 0 is IOP 0's disk 0
        sector[0] ^= 0xff;
        m.disk(0).write_sectors(lba, 1, sector);
        return;
    }
    for (uint32_t c = 0; c < pattern.cp_count; ++c) {
        platform::Node &cp = m.cp(static_cast<int>(c));
        if (export_of(cp, "transfer.buffer_bytes") > 0) {
            *cp.memory().span(static_cast<uint32_t>(export_of(cp, "transfer.buffer_addr")), 1) ^=
                0xff;
            return;
        }
    }
}

json summarize_transfer(const config::Config &cfg, const std::vector<json> &trials) {
    std::vector<double> v;
    for (const auto &t : trials) {
        v.push_back(t.at("mb_s").get<double>());
    }
    Summary s = summarize(v);
    json out{{"mean_mb_s", s.mean}, {"cv", s.cv},        {"ci95_mb_s", {s.ci95_low, s.ci95_high}},
             {"min_mb_s", s.min},   {"max_mb_s", s.max}, {"trials", s.n}};
    const std::string &name = cfg.get_string(keys::workload_pattern);
    if (name == "ra") {
        double p = static_cast<double>(cfg.get_int(keys::machine_cp_count));
        out["mean_mb_s_per_cp"] = s.mean / p;
    }
    return out;
}

std::string describe_transfer(const config::Config &cfg) {
    std::ostringstream os;
    os << "transfer: " << cfg.get_string(keys::fs_kind);
    if (cfg.get_string(keys::fs_kind) == "spfs") {
        os << " (K " << cfg.get_int(keys::spfs_outstanding) << ", "
           << cfg.get_string(keys::spfs_disk_queue) << ", " << cfg.get_string(keys::spfs_requests)
           << " requests" << (cfg.get_bool(keys::spfs_memget_writes) ? ", Memget writes" : "")
           << (cfg.get_bool(keys::spfs_prefetch) ? "" : ", no prefetch") << ")";
    } else if (cfg.get_string(keys::fs_kind) == "2pio") {
        os << " (" << cfg.get_string(keys::twophase_intermediate) << ", aggregators "
           << cfg.get_int(keys::twophase_aggregators) << ", buffer "
           << cfg.get_int(keys::twophase_buffer_kb) << " KB)";
    } else {
        os << (cfg.get_bool(keys::fs_presort) ? " (presort)" : " (no presort)");
    }
    os << " " << cfg.get_string(keys::workload_pattern) << ", "
       << cfg.get_int(keys::workload_record_bytes) << "-byte records, "
       << cfg.get_real(keys::workload_file_mb) << " MB file, "
       << cfg.get_string(keys::workload_layout) << " layout; "
       << cfg.get_int(keys::machine_cp_count) << " CPs, " << cfg.get_int(keys::machine_iop_count)
       << " IOPs x " << cfg.get_int(keys::machine_disks_per_iop) << " disk(s)";
    return os.str();
}

std::string transfer_trial_line(const json &t) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.2f MB/s in %.4f s, %s", t.at("mb_s").get<double>(),
                  t.at("elapsed_s").get<double>(),
                  t.at("verified").get<bool>() ? "verified" : "DATA WRONG");
    return buf;
}

void print_transfer(std::ostream &out, const config::Config &cfg, const std::vector<json> &trials,
                    const json &summary) {
    out << "trial      MB/s   elapsed s  CP busy  IOP busy  movements  verified\n";
    for (const auto &t : trials) {
        char line[200];
        std::snprintf(line, sizeof line, "%5d  %8.2f  %10.4f  %7.2f  %8.2f  %9llu  %s\n",
                      t.at("trial").get<int>(), t.at("mb_s").get<double>(),
                      t.at("elapsed_s").get<double>(),
                      t.at("cpu_busy").at("cp").at("mean").get<double>(),
                      t.at("cpu_busy").at("iop").at("mean").get<double>(),
                      static_cast<unsigned long long>(t.at("disk").at("movements").get<uint64_t>()),
                      t.at("verified").get<bool>() ? "yes" : "NO");
        out << line;
        if (!t.at("verified").get<bool>()) {
            out << "       first wrong byte: " << t.at("check").value("first_error", "") << "\n";
        }
    }
    char line[240];
    std::snprintf(
        line, sizeof line, "mean %.2f MB/s (cv %.3f, 95%% CI %.2f to %.2f) over %d trial%s",
        summary.at("mean_mb_s").get<double>(), summary.at("cv").get<double>(),
        summary.at("ci95_mb_s")[0].get<double>(), summary.at("ci95_mb_s")[1].get<double>(),
        summary.at("trials").get<int>(), summary.at("trials").get<int>() == 1 ? "" : "s");
    out << line;
    if (summary.contains("mean_mb_s_per_cp")) {
        std::snprintf(line, sizeof line, "; ra per CP %.2f MB/s",
                      summary.at("mean_mb_s_per_cp").get<double>());
        out << line;
    }
    out << "\n";
    (void)cfg;
}

// Expected host time of one trial, in units of an SPFS request's simulation event
// (docs/studies.md, "Order and ETA"): about 1000 to start and finish, 6 per chunk
// (a run contiguous in file and CP memory) for SPFS, whose CPs request and receive
// every chunk, against almost nothing for DDIO and 2PIO, which gather pieces into
// block-sized messages, and 36 per file block moved. A block costs about 8 events,
// but events that move a block's data cost more host time: in `reproduce
// paper-main` (e308cd8) the 8-byte cyclic SPFS trials took 1.2 us of host CPU per
// event, the other trials 4.1-7.5 us. The 8-byte cyclic SPFS cells thus rank far
// above everything else, as their run times do, and the ETA still counts the many
// short trials that run last.
double transfer_cost_estimate(const config::Config &cfg) {
    try {
        fw_pattern_t pattern = pattern_of(cfg);
        double copies = pattern.is_all ? pattern.cp_count : 1.0;
        double blocks = copies * std::ceil(static_cast<double>(pattern.file_bytes) /
                                           static_cast<double>(cfg.get_int(keys::fs_block_bytes)));
        // Every CP of a pattern holds about the same number of chunks.
        fw_pattern_shape_t shape;
        fw_pattern_cp_shape(&pattern, 0, &shape);
        double chunks = static_cast<double>(shape.chunk_count) * pattern.cp_count;
        double per_chunk = cfg.get_string(keys::fs_kind) == "spfs" ? 6.0 : 0.05;
        return 1000.0 + 36.0 * blocks + per_chunk * chunks;
    } catch (const std::exception &) {
        return 1.0; // the trial itself will report the problem
    }
}

// What a transfer trial holds in host memory besides the process itself: every
// CP's buffer (its part of the file; the whole file for each CP of `ra`, for the
// one CP of `rn`/`wn`), the sectors the disks were written (writes), the
// aggregators' collective buffers (2PIO) and the IOPs' block buffers. Node memory
// is mapped lazily, so only what is touched counts.
HostMemory transfer_host_memory(const config::Config &cfg) {
    HostMemory h{trial_process_bytes(cfg), ""};
    try {
        fw_pattern_t pattern = pattern_of(cfg);
        double file = static_cast<double>(pattern.file_bytes);
        double block = static_cast<double>(cfg.get_int(keys::fs_block_bytes));
        double iops = static_cast<double>(cfg.get_int(keys::machine_iop_count));
        double disks = static_cast<double>(cfg.get_int(keys::machine_disks_per_iop));
        double cps = static_cast<double>(pattern.cp_count);
        h.bytes += pattern.is_all ? cps * file : file;
        h.bytes += pattern.is_write ? file : 0.0;
        const std::string &fs = cfg.get_string(keys::fs_kind);
        if (fs == "2pio") {
            h.bytes += file;
        }
        double per_cp_disk = static_cast<double>(cfg.get_int(keys::spfs_cache_buffers_per_cp_disk));
        double iop_buffers =
            fs == "ddio" ? 2.0 * disks
                         : (per_cp_disk > 0
                                ? per_cp_disk
                                : 2.0 * static_cast<double>(cfg.get_int(keys::spfs_outstanding))) *
                               cps * disks;
        h.bytes += iops * iop_buffers * block;
        char mb[32];
        std::snprintf(mb, sizeof mb, "%g", cfg.get_real(keys::workload_file_mb));
        h.reason = std::string("workload.file_mb = ") + mb;
        if (pattern.is_all) {
            h.reason += " with workload.pattern = ra: each of the machine.cp_count = " +
                        std::to_string(pattern.cp_count) + " CPs holds the whole file";
        } else if (pattern.is_write) {
            h.reason += ", written: in the CPs' buffers and on the disks";
        }
    } catch (const std::exception &) {
        // the trial itself will report the problem
    }
    return h;
}

} // namespace

const WorkloadKind &transfer_workload() {
    static const WorkloadKind kind{
        [](const config::Config &cfg, int trial) {
            // Test hook for the whole command (docs/transfer.md): with
            // STARFISH_DEBUG_CORRUPT_DATA=1 in the environment one transferred byte is
            // flipped after the run, so `starfish run` must report the trial unverified
            // and exit with status 1. Not a parameter: it must never reach a result.
            const char *corrupt = std::getenv("STARFISH_DEBUG_CORRUPT_DATA");
            if (corrupt != nullptr && std::string(corrupt) == "1") {
                return run_transfer_trial(cfg, trial, [&cfg, trial](platform::Machine &m) {
                    corrupt_first_byte(cfg, trial, m);
                });
            }
            return run_transfer_trial(cfg, trial, {});
        },
        summarize_transfer,
        describe_transfer,
        transfer_trial_line,
        print_transfer,
        transfer_cost_estimate,
        {"mb_s", "elapsed_s", "bytes_moved", "sim_s", "events"},
        transfer_host_memory};
    return kind;
}

} // namespace starfish::sim
