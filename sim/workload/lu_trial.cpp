// workload.kind = lu (docs/lu.md).

#include "sim/workload/lu_trial.h"
#include "sim/trace/trace_session.h"

#include "fw/apps.h"
#include "fw/ddio.h"
#include "fw/layout.h"
#include "fw/lu.h"
#include "fw/param_keys.h"
#include "fw/spfs.h"
#include "hw/data_pattern.h"
#include "hw/machine_keys.h"
#include "hw/rng.h"
#include "sim/platform/machine.h"
#include "sim/report/statistics.h"
#include "sim/workload/host_memory.h"
#include "sim/workload/lu_check.h"
#include "sim/workload/transfer_check.h"
#include "sim/workload/trial_support.h"
#include "tlm_models/storage/disk_params.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace starfish::sim {

using nlohmann::json;

namespace {

fw_lu_shape_t shape_of(const config::Config &cfg) {
    fw_lu_shape_t s;
    s.n = static_cast<uint32_t>(cfg.get_int(keys::lu_n));
    s.cps = static_cast<uint32_t>(cfg.get_int(keys::machine_cp_count));
    s.slab_cols = static_cast<uint32_t>(cfg.get_int(keys::lu_slab_cols));
    return s;
}

uint64_t matrix_bytes(const config::Config &cfg) {
    uint64_t n = static_cast<uint64_t>(cfg.get_int(keys::lu_n));
    return 4 * n * n;
}

// Seed of the input matrix: its own random stream, so it varies with the trial.
uint64_t matrix_seed(const config::Config &cfg, int trial) {
    return hw_rng_stream_seed(static_cast<uint64_t>(cfg.get_int(keys::workload_seed)),
                              static_cast<uint64_t>(trial), HW_RNG_STREAM_DATA, 1);
}

// Where each file block is, on which global disk.
struct FilePlacement {
    fw_layout_t layout;
    DiskNumbering numbering;
    std::vector<std::vector<uint32_t>> tables;
    std::vector<const uint32_t *> table_ptrs;

    FilePlacement(const config::Config &cfg, int trial)
        : layout(file_layout_of(cfg, lu_file_bytes(cfg), trial)),
          numbering{static_cast<uint32_t>(cfg.get_int(keys::machine_iop_count)),
                    static_cast<uint32_t>(cfg.get_int(keys::machine_disks_per_iop))} {
        tables.resize(numbering.disk_count());
        for (uint32_t d = 0; d < numbering.disk_count(); ++d) {
            tables[d].resize(fw_layout_table_bytes(&layout, d) / sizeof(uint32_t));
            if (!tables[d].empty()) {
                fw_layout_build_table(&layout, d, tables[d].data());
            }
            table_ptrs.push_back(tables[d].empty() ? nullptr : tables[d].data());
        }
    }
    uint32_t block_bytes() const { return layout.params.block_bytes; }
    uint64_t blocks() const { return layout.params.file_blocks; }
    // (global disk, LBA) of file block b.
    std::pair<uint32_t, uint32_t> locate(uint64_t b) const {
        fw_block_location_t loc = fw_layout_locate(&layout, table_ptrs.data(), b);
        return {numbering.global_id(loc.disk), loc.lba};
    }
};

uint64_t export_of(platform::Node &n, const std::string &key) {
    return node_export(n, key);
}

uint64_t export_or_zero(platform::Node &n, const std::string &key) {
    auto it = n.exports().find(key);
    return it == n.exports().end() ? 0 : it->second;
}

// The file-system counters the paper's analysis needs (docs/lu.md, "Metrics").
json fs_statistics(platform::Machine &m, const config::Config &cfg) {
    int iops = m.shape().iop_count;
    uint64_t block = static_cast<uint64_t>(cfg.get_int(keys::fs_block_bytes));
    json fs;
    if (cfg.get_string(keys::fs_kind) == "spfs") {
        uint64_t hits = 0, misses = 0, installs = 0, prefetches = 0, wasted = 0;
        uint64_t pushes = 0, depth_sum = 0;
        for (int k = 0; k < iops; ++k) {
            pushes += export_of(m.iop(k), FW_SPFS_STAT_DISKQ_PUSHES);
            depth_sum += export_of(m.iop(k), FW_SPFS_STAT_DISKQ_DEPTH_SUM);
            hits += export_of(m.iop(k), FW_SPFS_STAT_CACHE_HITS);
            misses += export_of(m.iop(k), FW_SPFS_STAT_CACHE_MISSES);
            installs += export_of(m.iop(k), FW_SPFS_STAT_INSTALLATION_READS);
            prefetches += export_of(m.iop(k), FW_SPFS_STAT_PREFETCHES_ISSUED);
            wasted += export_of(m.iop(k), FW_SPFS_STAT_PREFETCHES_WASTED);
        }
        fs = json{
            {"kind", "spfs"},
            {"cache_hits", hits},
            {"cache_misses", misses},
            {"cache_hit_rate", hits + misses ? static_cast<double>(hits) / (hits + misses) : 0.0},
            {"installation_reads", installs},
            {"installation_read_bytes", installs * block},
            {"prefetches", prefetches},
            {"prefetches_wasted", wasted},
            // What a disk queue sorts over: requests already waiting when one joins.
            {"mean_queue_depth", pushes ? static_cast<double>(depth_sum) / pushes : 0.0}};
    } else {
        uint64_t requests = 0, blocks = 0, partial = 0, prefetches = 0;
        for (int k = 0; k < iops; ++k) {
            requests = std::max(requests, export_or_zero(m.iop(k), FW_DDIO_STAT_REQUESTS));
            blocks += export_or_zero(m.iop(k), FW_DDIO_STAT_BLOCKS);
            partial += export_or_zero(m.iop(k), FW_DDIO_STAT_PARTIAL_READS);
            prefetches += export_or_zero(m.iop(k), FW_DDIO_STAT_PREFETCHES);
        }
        // What one collective request sorts over: its blocks on one disk.
        double disk_lists = static_cast<double>(requests) * m.disk_count();
        fs = json{{"kind", "ddio"},
                  {"requests", requests},
                  {"blocks", blocks},
                  {"blocks_per_disk_request", disk_lists > 0 ? blocks / disk_lists : 0.0},
                  {"installation_reads", partial},
                  {"installation_read_bytes", partial * block},
                  {"prefetches", prefetches}};
    }
    return fs;
}

// Where each CP's time went (docs/lu.md, "Time breakdown"): per category the mean,
// minimum and maximum over the CPs, and every CP's figures. read_s and write_s are
// LU_read and LU_write in all; io_barrier_s the part of them spent at the barrier
// before a DDIO collective (waiting for the other CPs), io_s the rest (SPFS: in its
// calls; DDIO: waiting for the collective). other_s is what no category holds (loop
// bookkeeping, which charges nothing: about zero) of the CP's own span from the first
// barrier to the last, which differs from CP 0's elapsed time by the few microseconds
// the barriers release the CPs apart.
json cp_time_breakdown(platform::Machine &m, double cpu_hz) {
    static const std::pair<const char *, const char *> kMeasured[] = {
        {"compute_s", FW_LU_STAT_COMPUTE_CYCLES},
        {"read_s", FW_LU_STAT_READ_CYCLES},
        {"write_s", FW_LU_STAT_WRITE_CYCLES},
        {"io_barrier_s", FW_LU_STAT_IO_BARRIER_CYCLES},
        {"broadcast_send_s", FW_LU_STAT_BROADCAST_SEND_CYCLES},
        {"broadcast_barrier_s", FW_LU_STAT_BROADCAST_BARRIER_CYCLES},
        {"sync_s", FW_LU_STAT_SYNC_CYCLES}};
    json per_cp = json::array();
    std::map<std::string, std::vector<double>> by_category;
    for (int c = 0; c < m.shape().cp_count; ++c) {
        json one;
        for (const auto &[name, key] : kMeasured) {
            one[name] = static_cast<double>(export_of(m.cp(c), key)) / cpu_hz;
        }
        double io = one["read_s"].get<double>() + one["write_s"].get<double>();
        one["io_s"] = io - one["io_barrier_s"].get<double>();
        double span = static_cast<double>(export_of(m.cp(c), FW_LU_STAT_SPAN_CYCLES)) / cpu_hz;
        one["other_s"] =
            span - (one["compute_s"].get<double>() + io + one["broadcast_send_s"].get<double>() +
                    one["broadcast_barrier_s"].get<double>() + one["sync_s"].get<double>());
        for (auto it = one.begin(); it != one.end(); ++it) {
            by_category[it.key()].push_back(it->get<double>());
        }
        per_cp.push_back(one);
    }
    json out;
    for (const auto &[name, values] : by_category) {
        Summary s = summarize(values);
        out[name] = {{"mean", s.mean}, {"min", s.min}, {"max", s.max}};
    }
    out["per_cp"] = per_cp;
    return out;
}

} // namespace

uint64_t lu_file_bytes(const config::Config &cfg) {
    uint64_t block = static_cast<uint64_t>(cfg.get_int(keys::fs_block_bytes));
    uint64_t disks = static_cast<uint64_t>(cfg.get_int(keys::machine_iop_count) *
                                           cfg.get_int(keys::machine_disks_per_iop));
    uint64_t matrix_blocks = (matrix_bytes(cfg) + block - 1) / block;
    return (matrix_blocks + disks) * block;
}

config::Config lu_machine_config(const config::Config &cfg) {
    config::Config c = cfg;
    const std::string why = "lu: the matrix file (lu.n, fs.block_bytes; docs/lu.md)";
    c.set(keys::workload_file_mb, static_cast<double>(lu_file_bytes(cfg)) / 1048576.0, why);
    // SPFS's IOPs describe the file by a pattern: a read pattern (the file exists, so
    // partial writes need installation reads) whose records are the largest power of
    // two dividing both a column and a block, the unit its caches track written
    // bytes in, so every column write is whole records.
    uint64_t col = 4 * static_cast<uint64_t>(cfg.get_int(keys::lu_n));
    uint64_t block = static_cast<uint64_t>(cfg.get_int(keys::fs_block_bytes));
    uint64_t unit =
        (col & (~col + 1)) < (block & (~block + 1)) ? (col & (~col + 1)) : (block & (~block + 1));
    c.set(keys::workload_pattern, "rb", why);
    c.set(keys::workload_record_bytes, static_cast<int64_t>(unit), why);
    return c;
}

json run_lu_trial(const config::Config &user_cfg, int trial,
                  const std::function<void(platform::Machine &)> &before_check) {
    config::Config cfg = lu_machine_config(user_cfg);
    fw_lu_shape_t shape = shape_of(cfg);
    FilePlacement place(cfg, trial);
    uint32_t bb = place.block_bytes();
    uint64_t mbytes = matrix_bytes(cfg);

    LuMatrix original = lu_input_matrix(matrix_seed(cfg, trial), shape.n);
    std::vector<uint8_t> file = lu_matrix_bytes(original);
    file.resize(static_cast<size_t>(place.blocks()) * bb);
    // The padding after the matrix and the guard blocks keep what the disks held.
    uint8_t sector[HW_SECTOR_BYTES];
    auto original_block = [&](uint64_t b, uint8_t *out) {
        auto [disk, lba] = place.locate(b);
        for (uint32_t s = 0; s < bb / HW_SECTOR_BYTES; ++s) {
            hw_disk_fill_sector(disk, lba + s, sector);
            std::memcpy(out + static_cast<size_t>(s) * HW_SECTOR_BYTES, sector, HW_SECTOR_BYTES);
        }
    };
    std::vector<uint8_t> untouched(bb);

    platform::Machine m(cfg, trial, platform::FirmwareSet{fw_lu_cp_main, fw_lu_iop_main},
                        trace::rtl_fst_for_trial(trial));
    for (uint64_t b = 0; b * bb < mbytes; ++b) {
        uint8_t *at = file.data() + b * bb;
        uint64_t in_matrix = std::min<uint64_t>(bb, mbytes - b * bb);
        if (in_matrix < bb) {
            original_block(b, untouched.data());
            std::memcpy(at + in_matrix, untouched.data() + in_matrix, bb - in_matrix);
        }
        auto [disk, lba] = place.locate(b);
        m.disk(static_cast<int>(disk)).write_sectors(lba, bb / HW_SECTOR_BYTES, at);
    }

    std::string failure = trace::run_traced(m, trial);
    if (!failure.empty()) {
        throw std::runtime_error(failure);
    }
    platform::Node &cp0 = m.cp(0);
    if (!cp0.exports().count(FW_LU_STAT_T_END_CYCLES)) {
        std::ostringstream os;
        os << "the LU program did not complete: the simulation ran out of activity at "
           << m.sim_seconds()
           << " s with CP 0 still waiting; live threads: " << m.live_threads_report();
        throw std::runtime_error(os.str());
    }
    for (int c = 0; c < m.shape().cp_count; ++c) {
        int64_t st = static_cast<int64_t>(export_of(m.cp(c), FW_LU_STAT_STATUS));
        if (st != 0) {
            throw std::runtime_error("CP " + std::to_string(c) +
                                     ": the file system reported error " + std::to_string(st));
        }
    }
    if (before_check) {
        before_check(m);
    }

    // Read the file back and verify it.
    std::vector<uint8_t> after(file.size());
    for (uint64_t b = 0; b < place.blocks(); ++b) {
        auto [disk, lba] = place.locate(b);
        m.disk(static_cast<int>(disk))
            .read_sectors(lba, bb / HW_SECTOR_BYTES, after.data() + b * bb);
    }
    LuCheckResult check;
    for (uint64_t off = mbytes; off < after.size(); ++off) {
        uint64_t b = off / bb;
        if (off == mbytes || off % bb == 0) {
            original_block(b, untouched.data());
        }
        ++check.guard_bytes_checked;
        if (after[off] != untouched[off % bb]) {
            if (check.guard_bytes_changed == 0) {
                check.first_error = "file byte " + std::to_string(off) + " (block " +
                                    std::to_string(b) + ", after the matrix) was written";
            }
            ++check.guard_bytes_changed;
        }
    }
    check.verified = check.guard_bytes_changed == 0;
    LuMatrix reference = original;
    lu_reference_decompose(reference);
    LuMatrix result = lu_matrix_from_bytes(after.data(), shape.n);
    lu_check_decomposition(original, reference, result, check);

    double cpu_hz = cfg.get_real(keys::machine_cpu_mhz) * 1e6;
    double elapsed = static_cast<double>(export_of(cp0, FW_LU_STAT_T_END_CYCLES) -
                                         export_of(cp0, FW_LU_STAT_T_START_CYCLES)) /
                     cpu_hz;
    uint64_t bytes_read = 0, bytes_written = 0, reads = 0, writes = 0, busy_ps = 0;
    uint64_t media_sectors_read = 0, positioning_ps = 0;
    uint64_t read_response_ps = 0, write_response_ps = 0, reads_done = 0, writes_done = 0;
    for (int d = 0; d < m.disk_count(); ++d) {
        const auto &s = m.disk(d).stats();
        bytes_read += s.bytes_read;
        bytes_written += s.bytes_written;
        reads += s.reads;
        writes += s.writes;
        busy_ps += s.busy_ps;
        media_sectors_read += s.media_sectors_read;
        positioning_ps += s.positioning_ps;
        read_response_ps += s.read_response_ps;
        write_response_ps += s.write_response_ps;
        reads_done += s.reads_completed;
        writes_done += s.writes_completed;
    }
    auto mean_ms = [](uint64_t ps, uint64_t n) { // picoseconds per event, in ms
        return n ? static_cast<double>(ps) * 1e-9 / static_cast<double>(n) : 0.0;
    };
    // The paper's "average disk-access time" read as seek + rotational latency +
    // transfer of what the host asked for: the drives' positioning plus the media
    // time of the sectors moved, per access. Unlike mean_access_ms (mechanism busy
    // time per access) it leaves out read-ahead nobody asked for, which an idle
    // drive runs on for a whole segment while the CPs compute.
    double sector_ms = 60000.0 / cfg.get_real(keys::disk_rpm) /
                       static_cast<double>(cfg.get_int(keys::disk_sectors_per_track));
    double request_access_ms =
        reads + writes == 0
            ? 0.0
            : (static_cast<double>(positioning_ps) * 1e-9 +
               static_cast<double>(bytes_read + bytes_written) / HW_SECTOR_BYTES * sector_ms) /
                  static_cast<double>(reads + writes);
    uint64_t flops = 0;
    int cps = m.shape().cp_count;
    for (int c = 0; c < cps; ++c) {
        flops += export_of(m.cp(c), FW_LU_STAT_FLOPS);
    }
    uint64_t accesses = reads + writes;
    json t{
        {"trial", trial},
        {"elapsed_s", elapsed},
        {"traffic_bytes", bytes_read + bytes_written},
        {"verified", check.verified},
        {"check", check.to_json()},
        {"disk_io",
         {{"bytes_read", bytes_read},
          {"bytes_written", bytes_written},
          // Read from the media, the drives' read-ahead included.
          {"media_bytes_read", media_sectors_read * HW_SECTOR_BYTES},
          {"accesses", accesses},
          {"mean_access_ms", mean_ms(busy_ps, accesses)},
          {"mean_positioning_ms", mean_ms(positioning_ps, accesses)},
          {"mean_request_access_ms", request_access_ms},
          // Another reading of the paper's access time: the drives' response per
          // command, as the IOP's disk thread sees it (docs/lu.md, "Disagreements").
          {"mean_response_ms",
           mean_ms(read_response_ps + write_response_ps, reads_done + writes_done)},
          {"mean_read_response_ms", mean_ms(read_response_ps, reads_done)},
          {"busy_fraction",
           elapsed > 0 ? static_cast<double>(busy_ps) * 1e-12 / (elapsed * m.disk_count()) : 0.0}}},
        {"file_system_bytes", 2 * fw_lu_total_slab_columns(&shape) * fw_lu_col_bytes(&shape)},
        {"cp_time", cp_time_breakdown(m, cpu_hz)},
        {"flops", flops},
        {"fs", fs_statistics(m, cfg)},
        {"sim_s", m.sim_seconds()},
        {"events", m.events()}};
    json machine = m.summary_json();
    for (auto it = machine.begin(); it != machine.end(); ++it) {
        t[it.key()] = *it;
    }
    t["host_cpu_s"] = host_cpu_seconds();
    return t;
}

namespace {

json summarize_lu(const config::Config &, const std::vector<json> &trials) {
    std::vector<double> elapsed, traffic;
    for (const auto &t : trials) {
        elapsed.push_back(t.at("elapsed_s").get<double>());
        traffic.push_back(t.at("traffic_bytes").get<double>());
    }
    Summary e = summarize(elapsed), b = summarize(traffic);
    // The time breakdown: each category's mean over the CPs, averaged over the trials.
    json cp_time = json::object();
    for (const auto &t : trials) {
        for (auto it = t.at("cp_time").begin(); it != t.at("cp_time").end(); ++it) {
            if (it.key() != "per_cp") {
                double v = it->at("mean").get<double>() / static_cast<double>(trials.size());
                cp_time[it.key()] = cp_time.value(it.key(), 0.0) + v;
            }
        }
    }
    return json{{"mean_elapsed_s", e.mean},
                {"cv", e.cv},
                {"ci95_elapsed_s", {e.ci95_low, e.ci95_high}},
                {"mean_traffic_bytes", b.mean},
                {"cp_time_mean_s", cp_time},
                {"trials", e.n}};
}

std::string describe_lu(const config::Config &cfg) {
    std::ostringstream os;
    os << "lu: " << cfg.get_int(keys::lu_n) << " x " << cfg.get_int(keys::lu_n) << " floats, "
       << cfg.get_int(keys::lu_slab_cols) << "-column slabs, " << cfg.get_string(keys::fs_kind)
       << ", " << cfg.get_int(keys::fs_block_bytes) << "-byte blocks, "
       << cfg.get_string(keys::workload_layout) << " layout; "
       << cfg.get_int(keys::machine_cp_count) << " CPs, " << cfg.get_int(keys::machine_iop_count)
       << " IOPs x " << cfg.get_int(keys::machine_disks_per_iop) << " disk(s)";
    return os.str();
}

std::string lu_trial_line(const json &t) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%.3f s, %.1f MB disk traffic, %s",
                  t.at("elapsed_s").get<double>(), t.at("traffic_bytes").get<double>() / 1048576.0,
                  t.at("verified").get<bool>() ? "verified" : "DATA WRONG");
    return buf;
}

void print_lu(std::ostream &out, const config::Config &, const std::vector<json> &trials,
              const json &summary) {
    out << "trial   elapsed s  traffic MB  inst. reads  access ms  compute s  I/O wait s  "
           "barrier s  verified\n";
    for (const auto &t : trials) {
        char line[220];
        std::snprintf(
            line, sizeof line, "%5d  %10.3f  %10.1f  %11llu  %9.2f  %9.3f  %10.3f  %9.3f  %s\n",
            t.at("trial").get<int>(), t.at("elapsed_s").get<double>(),
            t.at("traffic_bytes").get<double>() / 1048576.0,
            static_cast<unsigned long long>(t.at("fs").at("installation_reads").get<uint64_t>()),
            t.at("disk_io").at("mean_access_ms").get<double>(),
            t.at("cp_time").at("compute_s").at("max").get<double>(),
            t.at("cp_time").at("io_s").at("mean").get<double>(),
            t.at("cp_time").at("io_barrier_s").at("mean").get<double>() +
                t.at("cp_time").at("broadcast_barrier_s").at("mean").get<double>(),
            t.at("verified").get<bool>() ? "yes" : "NO");
        out << line;
        if (!t.at("verified").get<bool>()) {
            out << "       " << t.at("check").value("first_error", "") << "\n";
        }
    }
    char line[400];
    std::snprintf(line, sizeof line,
                  "mean %.3f s (cv %.3f), %.1f MB of disk traffic, over %d trial%s\n",
                  summary.at("mean_elapsed_s").get<double>(), summary.at("cv").get<double>(),
                  summary.at("mean_traffic_bytes").get<double>() / 1048576.0,
                  summary.at("trials").get<int>(), summary.at("trials").get<int>() == 1 ? "" : "s");
    out << line;
    const json &b = summary.at("cp_time_mean_s");
    std::snprintf(line, sizeof line,
                  "per CP (mean): compute %.3f s, I/O %.3f s (read+write %.3f, of which %.3f at "
                  "the barrier before a collective), broadcast %.3f s + barrier %.3f s, sync "
                  "%.3f s\n",
                  b.at("compute_s").get<double>(), b.at("io_s").get<double>(),
                  b.at("read_s").get<double>() + b.at("write_s").get<double>(),
                  b.at("io_barrier_s").get<double>(), b.at("broadcast_send_s").get<double>(),
                  b.at("broadcast_barrier_s").get<double>(), b.at("sync_s").get<double>());
    out << line;
}

// Expected simulation events: about 8 per block moved, plus the per-pivot barriers.
double lu_cost_estimate(const config::Config &cfg) {
    fw_lu_shape_t s = shape_of(cfg);
    double blocks = 2.0 * static_cast<double>(fw_lu_total_slab_columns(&s)) *
                    static_cast<double>(fw_lu_col_bytes(&s)) /
                    static_cast<double>(cfg.get_int(keys::fs_block_bytes));
    return 1000.0 + 8.0 * blocks + 20.0 * s.n * s.cps;
}

// The matrix on the disks, in the CPs' slabs and in the check: about 120 bytes per
// element. measured: peak RSS 48 MB at lu.n = 512, 144 MB at 1024 (default machine).
HostMemory lu_host_memory(const config::Config &cfg) {
    double n = static_cast<double>(cfg.get_int(keys::lu_n));
    return HostMemory{trial_process_bytes(cfg) + 128.0 * n * n,
                      "lu.n = " + std::to_string(cfg.get_int(keys::lu_n)) +
                          ": the matrix on the disks, in the CPs and in the check"};
}

} // namespace

const WorkloadKind &lu_workload() {
    static const WorkloadKind kind{
        [](const config::Config &cfg, int trial) { return run_lu_trial(cfg, trial, {}); },
        summarize_lu,
        describe_lu,
        lu_trial_line,
        print_lu,
        lu_cost_estimate,
        {"elapsed_s", "traffic_bytes", "flops", "sim_s", "events"},
        lu_host_memory};
    return kind;
}

} // namespace starfish::sim
