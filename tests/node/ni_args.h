#pragma once
// The arguments of the NI exchange scenarios of tests/node/fw_ni_tests.c, shared
// by the TLM network interface's test and the DMA engine RTL's.
#include "tests/node/fw_tests.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starfish::testing {

// Node 0 sends `messages` messages with 64-byte headers and bodies cycling
// through `sizes` to node 1, which answers every body with ACCEPT_NOTIFY from
// its interrupt handler (16-slot ring); the sender waits on interrupts.
inline fwt_ni_args_t ni_args(const std::vector<uint32_t> &sizes, uint32_t messages) {
    fwt_ni_args_t a{};
    a.sender = 0;
    a.receiver = 1;
    a.messages = messages;
    a.n_sizes = static_cast<uint32_t>(sizes.size());
    for (size_t i = 0; i < sizes.size(); ++i) {
        a.body_sizes[i] = sizes[i];
    }
    a.hdr_bytes = 64;
    a.rx_mode = FWT_RX_NOTIFY_ALL;
    a.ring_slots = 16;
    a.use_tx_irq = 1;
    return a;
}

} // namespace starfish::testing
