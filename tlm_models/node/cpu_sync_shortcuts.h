#pragma once
// The synchronisation waits a node's CPU leaves out (host speed only; docs/node.md,
// "Posted register writes"): register writes posted instead of synchronised, and
// synchronisation points left out while the simulation is quiet. Each saves a
// SystemC wait and changes no simulated result.
//
// Switches (NodeCpuParams): speed.cpu_posted_writes off = no write is posted
// (every register write synchronises); speed.cpu_skip_quiet_sync off = every
// synchronisation point is taken (and no write is posted "when quiet").

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace starfish::node {

class NodeCpu;

class CpuSyncShortcuts {
public:
    using PostedSink = std::function<void(uint32_t addr, uint32_t value)>;

    // Reads the state of `cpu` (the running activity, its pending work, the
    // interrupt lines) to decide.
    CpuSyncShortcuts(const NodeCpu &cpu, bool posted_writes, bool skip_quiet_sync)
        : cpu_(cpu), posted_writes_(posted_writes), skip_quiet_sync_(skip_quiet_sync) {}

    void set_posted_sink(PostedSink sink) { posted_sink_ = std::move(sink); }
    // NodeCpu::post_write: false when the write is not posted (the caller
    // accesses normally).
    bool post_write(uint32_t addr, uint32_t value, bool only_when_quiet);
    // NodeCpu::sync_unless_quiet: true when the point may be left out.
    bool skip_sync();

    // A thread's pending work was waited out (NodeCpu::sync).
    void work_done(uint64_t ps) { work_ps_ += ps; }
    // Applies the threads' posted writes that the work waited out so far has reached.
    void apply_reached() {
        if (posted_head_ < posted_.size()) {
            apply_reached_writes();
        }
    }
    // Applies the writes the running handler posted (at its synchronisation or end).
    void apply_handler_posted() {
        if (!handler_posted_.empty()) {
            apply_handler_writes();
        }
    }

    // Host-side only (never in results): writes posted because the simulation was
    // quiet, and synchronisations left out for the same reason or because a
    // handler made them.
    uint64_t quiet_posts() const { return quiet_posts_; }
    uint64_t quiet_syncs_skipped() const { return quiet_syncs_skipped_; }
    uint64_t handler_syncs_skipped() const { return handler_syncs_skipped_; }

private:
    bool quiet_through_pending() const;
    void apply_reached_writes();
    void apply_handler_writes();

    const NodeCpu &cpu_;
    const bool posted_writes_;
    const bool skip_quiet_sync_;

    struct PostedWrite {
        uint64_t at_ps; // where in the threads' work (work_ps_) the write lies
        uint32_t addr;
        uint32_t value;
    };
    PostedSink posted_sink_;
    uint64_t work_ps_ = 0;                    // threads' pending work waited out so far
    std::vector<PostedWrite> posted_;         // by threads, in order, from posted_head_ on
    size_t posted_head_ = 0;                  // the first one not applied yet
    std::vector<PostedWrite> handler_posted_; // by the running handler

    uint64_t quiet_posts_ = 0;
    uint64_t quiet_syncs_skipped_ = 0;
    uint64_t handler_syncs_skipped_ = 0;
};

} // namespace starfish::node
