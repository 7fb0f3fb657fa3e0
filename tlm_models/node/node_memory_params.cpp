#include "tlm_models/node/node_memory_params.h"

namespace starfish::node {

void declare_node_memory_params(config::Registry &reg) {
    // 16 MB: a CP of the `ra`/`rn`/`wn` patterns holds the whole 10 MB file in its
    // user buffer, and an IOP's SPFS cache (8 buffers x 16 CPs x 8 KB = 1 MB) or
    // DDIO buffers plus firmware state fit in the rest with room to spare. The
    // file-size study (100, 1000 MB) must raise it. Untouched memory costs no host
    // memory (NodeMemory maps it lazily).
    reg.add_int(keys::machine_node_memory_kb, 16384, "KB", {64, 3932160},
                "local memory of each CP and IOP (firmware buffers, DMA target)",
                "estimate: not published; 16 MB holds the 10 MB file of the default study "
                "in one CP (ra/rn patterns) plus firmware buffers (docs/node.md)");
}

uint32_t node_memory_bytes(const config::Config &cfg) {
    return static_cast<uint32_t>(cfg.get_int(keys::machine_node_memory_kb) * 1024);
}

} // namespace starfish::node
