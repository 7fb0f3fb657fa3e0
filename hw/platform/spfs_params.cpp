#include "hw/platform/spfs_params.h"

#include "hw/config/config.h"

#include <string>

namespace starfish::platform {

namespace {

void declare_switches(config::Registry &reg) {
    reg.add_int("spfs.outstanding", 4, "requests", {1, 1024},
                "K: most requests a CP has outstanding to one disk; a CP with K requests at a "
                "disk waits for a reply before it sends the next",
                "given: SPEC.md §2 and §7 (K = 4, the fastest in Kotz's tuning)");
    reg.add_int("spfs.cache_buffers_per_cp_disk", 0, "blocks", {0, 4096},
                "one-block IOP cache buffers per CP per local disk; 0 = 2 x spfs.outstanding "
                "(one for each request and one for its prefetch or write-behind)",
                "given: SPEC.md §2 (2 buffers per outstanding request: 8 per CP per disk with "
                "K = 4)");
    reg.add_string("spfs.disk_queue", "cscan", {"cscan", "fcfs"},
                   "order in which each disk's thread serves its queue: cscan = Cyclical SCAN "
                   "(two queues ordered by LBA, ahead of and behind the head), fcfs = arrival "
                   "order",
                   "given: SPEC.md §2, §7 (CSCAN in the final configuration)");
    reg.add_string("spfs.requests", "queued", {"queued", "thread"},
                   "IOP request handling: queued = the interrupt handler queues each request "
                   "for a pool of server threads (one per cache buffer); thread = it creates "
                   "a thread per request and copies the message onto its stack",
                   "given: SPEC.md §6, §7 (queued requests in the final configuration)");
    reg.add_bool("spfs.memget_writes", false,
                 "writes: the request carries no data and the IOP fetches it with Memget "
                 "straight into the cache buffer",
                 "given: SPEC.md §7 (off in the final configuration)");
    reg.add_bool("spfs.prefetch", true,
                 "after each read request the IOP reads the next block of the same disk into "
                 "its cache if it is not there",
                 "given: SPEC.md §2 (one block ahead on the same disk)");
    reg.add_int("spfs.groups", 0, "CPs", {0, 4096},
                "node grouping: the CPs take turns in groups of this many consecutive CPs, a "
                "group starting when the previous one has all its replies; 0 = off (all CPs "
                "at once)",
                "convention: off, as in the paper; Nitzberg (1995) 'grouping' as a remedy for "
                "cache thrashing (SPEC.md §12)");
}

void declare_costs(config::Registry &reg) {
    const config::Registry::Range cycles{0, 1000000};
    reg.add_int("cost.spfs_call_cycles", 100, "cycles", cycles,
                "CP: entering one file-system call (one contiguous chunk): argument checks, "
                "the open-file entry, the chunk's first block",
                "estimate: a short library path on a 50 MHz RISC; calibrated on the contiguous "
                "SPFS table (docs/calibration.md)");
    reg.add_int("cost.spfs_client_request_cycles", 60, "cycles", cycles,
                "CP: per block request of a call: the block's disk and IOP, the flow-control "
                "check, a request slot (besides cost.msg_request_call_cycles)",
                "estimate: a division, a table lookup and a counter; calibrated on the "
                "contiguous SPFS table (docs/calibration.md)");
    reg.add_int("cost.spfs_request_cycles", 100, "cycles", cycles,
                "IOP: per request in its server thread: decode, find the block's disk and "
                "local block, dispatch (besides the messaging and thread costs)",
                "estimate: calibrated on the contiguous SPFS table, chiefly the 8-byte cells "
                "(docs/calibration.md)");
    reg.add_int("cost.spfs_cache_lookup_cycles", 30, "cycles", cycles,
                "IOP: one cache lookup by (disk, block) (a hash probe), for a request and for "
                "each prefetch check",
                "estimate: a hash and one or two compares; calibrated on the contiguous SPFS "
                "table (docs/calibration.md)");
    reg.add_int("cost.spfs_lru_update_cycles", 20, "cycles", cycles,
                "IOP: moving a buffer to the most-recently-used end, or taking the LRU victim "
                "for a miss or prefetch",
                "estimate: a doubly linked list update; calibrated on the contiguous SPFS "
                "table (docs/calibration.md)");
    reg.add_int("cost.spfs_write_mark_cycles", 20, "cycles", cycles,
                "IOP: WriteFull bookkeeping per write request (mark the bytes written, test "
                "for a full block); the data copy is cost.copy_word_cycles per word",
                "estimate: a bitmap update; calibrated on the contiguous SPFS table "
                "(docs/calibration.md)");
    reg.add_int("cost.spfs_diskq_insert_cycles", 30, "cycles", cycles,
                "IOP: putting a disk request on its disk's queue (a sorted insert for CSCAN)",
                "estimate: a short heap insert; calibrated on the contiguous SPFS table "
                "(docs/calibration.md)");
    reg.add_int("cost.spfs_disk_request_cycles", 60, "cycles", cycles,
                "IOP disk thread: taking the next request off the queue, its LBA, and the "
                "buffer bookkeeping when it completes (besides the SCSI driver costs)",
                "estimate: calibrated on the contiguous SPFS table (docs/calibration.md)");
}

} // namespace

void declare_spfs_params(config::Registry &reg) {
    declare_switches(reg);
    declare_costs(reg);
    // Combinations the IOPs could not serve, named before anything runs.
    reg.add_check([](const config::Config &cfg) -> std::string {
        if (cfg.get_string("fs.kind") != "spfs") {
            return "";
        }
        long long k = cfg.get_int("spfs.outstanding");
        long long per = cfg.get_int("spfs.cache_buffers_per_cp_disk");
        if (per != 0 && per < k) {
            return "spfs.cache_buffers_per_cp_disk = " + std::to_string(per) +
                   " is smaller than spfs.outstanding = " + std::to_string(k) +
                   ": the cache must hold every request a CP may have outstanding at a disk";
        }
        long long cps = cfg.get_int("machine.cp_count");
        long long disks = cfg.get_int("machine.disks_per_iop");
        long long buffers = (per != 0 ? per : 2 * k) * cps * disks;
        long long bytes = buffers * cfg.get_int("fs.block_bytes");
        long long memory = cfg.get_int("machine.node_memory_kb") * 1024;
        // Half of node memory for the cache leaves room for request buffers and the rest.
        if (bytes > memory / 2) {
            return "the SPFS cache of each IOP (" + std::to_string(buffers) +
                   " buffers = spfs.cache_buffers_per_cp_disk (0: 2 x spfs.outstanding) x "
                   "machine.cp_count x machine.disks_per_iop, of fs.block_bytes) needs " +
                   std::to_string(bytes / 1024) +
                   " KB, more than half of machine.node_memory_kb = " +
                   std::to_string(cfg.get_int("machine.node_memory_kb")) +
                   "; lower the cache or raise machine.node_memory_kb";
        }
        // Threads of an IOP: one per disk, the request threads (a pool, or one per
        // outstanding request), and a few for the boot program and the barrier.
        long long outstanding = k * cps * disks + 1;
        long long request_threads = outstanding < buffers ? outstanding : buffers;
        if (cfg.get_string("spfs.requests") == "thread") {
            request_threads = outstanding;
        }
        long long need = request_threads + disks + 4;
        long long limit = cfg.get_int("machine.node_thread_limit");
        if (need > limit) {
            return "SPFS needs " + std::to_string(need) +
                   " threads per IOP (one per outstanding request: spfs.outstanding x "
                   "machine.cp_count x machine.disks_per_iop, one per disk), more than "
                   "machine.node_thread_limit = " +
                   std::to_string(limit) + "; raise machine.node_thread_limit";
        }
        return "";
    });
}

} // namespace starfish::platform
