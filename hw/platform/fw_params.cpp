#include "hw/platform/fw_params.h"

#include "hw/config/config.h"

#include <cstdlib>

namespace starfish::platform {

namespace {

// The derivations below assume the HAL service costs' defaults (cost.reg_write_cycles
// 2, cost.reg_read_cycles 4, cost.irq_entry_cycles 20, cost.irq_exit_cycles 10,
// cost.sem_post_cycles 5); docs/messaging.md lists what each path charges.
void declare_costs(config::Registry &reg) {
    const config::Registry::Range cycles{0, 100000};
    reg.add_int("cost.msg_memput_call_cycles", 36, "cycles", cycles,
                "firmware part of a Memput call on the requester (header, reply action)",
                "derived: SPEC.md §2 Memput call 46-56 cycles minus 7 TX register writes x "
                "cost.reg_write_cycles (14) = 32-42; 36 keeps the occasional TX_FREE read "
                "(cost.reg_read_cycles 4) inside: 50 or 54");
    reg.add_int("cost.msg_memput_accept_cycles", 15, "cycles", cycles,
                "receiver: check a Memput (or batch) against the base and accept its body",
                "derived: SPEC.md §2 Memput handler 91 cycles minus irq entry+exit (30), 12 "
                "register writes x 2 (RX_BODY_ADDR, RX_COOKIE, RX_CMD, 2 RX_POP, 7 TX for the "
                "ack) and 2 x cost.msg_rx_record_cycles (6) = 31, split 15 accept + 16 ack");
    reg.add_int("cost.msg_memput_ack_cycles", 16, "cycles", cycles,
                "receiver: a Memput's body is in memory; build and send the acknowledgement",
                "derived: the other 16 of the 31 cycles of cost.msg_memput_accept_cycles' "
                "derivation (SPEC.md §2 Memput handler 91 cycles)");
    reg.add_int("cost.msg_memput_return_cycles", 32, "cycles", cycles,
                "requester: a Memput's acknowledgement arrived; complete its reply action",
                "derived: SPEC.md §2 Memput return 72 cycles minus irq entry+exit (30), RX_POP "
                "write (2), cost.sem_post_cycles (5) and cost.msg_rx_record_cycles (3)");
    reg.add_int("cost.msg_memget_call_cycles", 44, "cycles", cycles,
                "firmware part of a Memget call on the requester (header, reply action)",
                "derived: SPEC.md §2 Memget call 51-66 cycles minus 7 TX register writes x "
                "cost.reg_write_cycles (14) = 37-52; 44 keeps the occasional TX_FREE read "
                "inside: 58 or 62");
    reg.add_int("cost.msg_memget_serve_cycles", 54, "cycles", cycles,
                "receiver: check a Memget against the base and send the data as a reply",
                "derived: SPEC.md §2 Memget handler 103 cycles minus irq entry+exit (30), 8 "
                "register writes x 2 (RX_POP, 7 TX for the reply) and "
                "cost.msg_rx_record_cycles (3)");
    reg.add_int("cost.msg_reply_accept_cycles", 4, "cycles", cycles,
                "requester: find a reply's reply action and accept its body",
                "derived: SPEC.md §2 Memget return 58 cycles minus irq entry+exit (30), 5 "
                "register writes x 2 (RX_BODY_ADDR, RX_COOKIE, RX_CMD, 2 RX_POP), "
                "cost.sem_post_cycles (5) and 2 x cost.msg_rx_record_cycles (6) = 7, split 4 + 3");
    reg.add_int("cost.msg_reply_done_cycles", 3, "cycles", cycles,
                "requester: a reply's body is in memory; fill the result and wake the waiter",
                "derived: the other 3 of the 7 cycles of cost.msg_reply_accept_cycles' "
                "derivation (SPEC.md §2 Memget return 58 cycles)");
    reg.add_int("cost.msg_deposit_word_cycles", 1, "cycles/word", cycles,
                "receiver's handler time per word of a body deposited in memory",
                "given: SPEC.md §2 Memput handler and Memget return, 1 cycle per word");
    reg.add_int("cost.msg_rx_record_cycles", 3, "cycles", cycles,
                "NI driver: examine one receive record and dispatch it",
                "estimate: a load of the record kind, a table dispatch and a ring-index "
                "update; calibrate (SPEC.md §10)");
    reg.add_int("cost.msg_request_call_cycles", 44, "cycles", cycles,
                "firmware part of sending a request (or one multicast copy) with a reply action",
                "estimate: equal to cost.msg_memget_call_cycles (a Memget is a request with a "
                "reply action)");
    reg.add_int("cost.msg_request_accept_cycles", 15, "cycles", cycles,
                "receiver: take a request buffer for a request, or run an interrupt handler",
                "estimate: equal to cost.msg_memput_accept_cycles (the same header checks and "
                "accept)");
    reg.add_int("cost.msg_reply_call_cycles", 36, "cycles", cycles,
                "firmware part of sending a reply from a service or handler",
                "estimate: equal to cost.msg_memput_call_cycles (a header and a body to send)");
    reg.add_int("cost.msg_queue_piece_cycles", 8, "cycles", cycles,
                "queued Memput/Memget: pack, unpack, gather or scatter one piece (plus copy)",
                "estimate: a bounds check and a two-word piece header; calibrate (SPEC.md §10)");
    reg.add_int("cost.msg_barrier_step_cycles", 20, "cycles", cycles,
                "barrier: one step of the state machine (entering, or one message)",
                "estimate: a table lookup and a few counter updates; calibrate (SPEC.md §10)");
    reg.add_int("cost.copy_word_cycles", 1, "cycles/word", cycles,
                "memory-to-memory copy by the CPU, per 32-bit word",
                "estimate: the published per-word handler time (SPEC.md §2, 1 cycle/word); "
                "calibrate (SPEC.md §10)");
    reg.add_int("cost.queue_insert_cycles", 10, "cycles", cycles,
                "insert an entry into a firmware queue (send queue, server queue)",
                "estimate: a few loads and stores to link an entry; calibrate (SPEC.md §10)");
}

void declare_sizes(config::Registry &reg) {
    reg.add_int("msg.rx_ring_slots", 64, "records", {2, 65536},
                "NI receive-ring records per node (power of two)",
                "estimate: twice the 32 nodes of the paper machine, so every peer can have a "
                "message and its DONE record waiting");
    reg.add_int("msg.send_queue_entries", 32, "entries", {0, 1048576},
                "software send-queue entries allocated at start (grows when exhausted)",
                "estimate: one per peer of the paper machine; growth costs cost.mem_alloc_cycles");
    reg.add_int("msg.reply_actions", 64, "entries", {0, 1048576},
                "reply actions allocated at start (grows when exhausted)",
                "estimate: enough for DDIO's concurrent Memputs to every CP; growth costs "
                "cost.mem_alloc_cycles");
    reg.add_int("msg.request_buffers", 16, "buffers", {0, 65536},
                "block-sized request buffers per node (grows when exhausted)",
                "estimate: not published (SPEC.md §6 'pre-allocated pool'); growth costs "
                "cost.mem_alloc_cycles");
    reg.add_int("msg.server_threads", 4, "threads", {1, 1024},
                "server threads per node that run registered services",
                "estimate: not published (SPEC.md §6 'pre-allocated pool')");
    reg.add_check([](const config::Config &cfg) -> std::string {
        long long s = cfg.get_int("msg.rx_ring_slots");
        if ((s & (s - 1)) != 0) {
            return "msg.rx_ring_slots = " + std::to_string(s) + " must be a power of two";
        }
        return "";
    });
}

void declare_commtest(config::Registry &reg) {
    reg.add_string("commtest.pingpong_pairs", "auto", {},
                   "node pairs for ping-pong, \"a:b,c:d\"; auto = first CP with second CP, "
                   "first CP with first IOP, first IOP with last IOP",
                   "convention: covers CP-CP, CP-IOP and IOP-IOP paths");
    reg.add_int("commtest.pingpong_iterations", 10, "round trips", {1, 1000000},
                "round trips per ping-pong pair", "convention: enough for a stable mean");
    reg.add_string("commtest.sweep_words", "1,50,100,500,1000,2000", {},
                   "Memput/Memget sizes (32-bit words) swept from the first IOP to the first CP",
                   "convention: SPEC.md §2 quotes 1 and 50 words; larger sizes show the "
                   "per-word slope");
    reg.add_int("commtest.sweep_iterations", 3, "operations", {1, 100000},
                "Memputs and Memgets per sweep size", "convention: enough for a stable mean");
    reg.add_int("commtest.echo_words", 50, "words", {0, 262144},
                "body of the request/reply echo test (first CP to the first IOP's service)",
                "convention: the SPEC.md §2 50-word size");
    reg.add_int("commtest.settle_cycles", 4000, "cycles", {0, 1000000000},
                "quiet time before each timed ping-pong, sweep and echo, so that the barrier "
                "messages of the nodes not taking part have all arrived",
                "convention: a 32-node barrier's messages settle within about 1000 cycles "
                "(docs/machine.md); without it the first timed round trips share the CPU "
                "with them");
    reg.add_int("commtest.barrier_iterations", 10, "barriers", {1, 1000000},
                "barriers over all nodes timed back to back", "convention");
    reg.add_int("commtest.queued_puts", 100000, "pieces", {0, 100000000},
                "random small queued Memputs to random peers, over all nodes together",
                "given: issue 5 (10^5 random small queued Memputs)");
    reg.add_int("commtest.queued_gets", 10000, "pieces", {0, 100000000},
                "random small queued Memgets from random peers, over all nodes together",
                "convention: exercises the gather/scatter path");
    reg.add_int("commtest.queued_max_bytes", 16, "bytes", {1, 4096},
                "largest queued piece (sizes are uniform in 1..this)",
                "convention: small records, as the 8-byte patterns of SPEC.md §5");
    reg.add_int("commtest.slice_bytes", 4096, "bytes", {16, 1048576},
                "region each node owns in every peer's buffer for queued pieces",
                "convention: large enough for overlap-free and overlapping pieces alike");
    reg.add_check([](const config::Config &cfg) -> std::string {
        std::vector<long long> words;
        std::string error;
        if (!parse_positive_list(cfg.get_string("commtest.sweep_words"), &words, &error)) {
            return "commtest.sweep_words: " + error;
        }
        if (cfg.get_int("commtest.queued_max_bytes") > cfg.get_int("commtest.slice_bytes")) {
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
    declare_costs(reg);
    declare_sizes(reg);
    declare_commtest(reg);
}

} // namespace starfish::platform
