#pragma once
// The untimed bookkeeping of the DMA network interface (hw/ni_regs.h): its
// registers, the send queue, TX_FREE and the TX_DONE FIFO, the receive ring and
// its records, the handles of messages waiting for an answer, the receive
// buffer's accounting and the interrupt conditions. No SystemC and no time: the
// TLM NetworkInterface (timing, DMA, packets) and the fake HAL of the firmware
// tests both drive this class, so the firmware's unit tests and the machine
// cannot disagree about what the registers do.
//
// The core works on node memory through a plain pointer (records, headers and
// deposits are copied at once) and tells its owner what happened through Client.
// docs/node.md, "The DMA network interface", lists the decisions it makes.

#include "hw/ni_regs.h"
#include "hw/node_map.h"
#include "tlm_models/common/register_block.h"

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace starfish::node {

// Body bytes [body_offset, body_offset + length) of a message, held in
// bytes[start, start + length) (a packet's payload, or a whole body).
struct NiFragment {
    uint32_t body_offset = 0;
    uint32_t length = 0;
    uint32_t start = 0;
    std::vector<uint8_t> bytes;
};

// A descriptor's copy of the software header (at most HW_NI_HDR_MAX_BYTES): held
// in place, so a push allocates nothing.
struct NiHeaderBytes {
    std::array<uint8_t, HW_NI_HDR_MAX_BYTES> bytes{};
    uint32_t count = 0;

    void assign(const uint8_t *first, const uint8_t *last);
    const uint8_t *begin() const { return bytes.data(); }
    const uint8_t *end() const { return bytes.data() + count; }
    size_t size() const { return count; }
    uint8_t operator[](size_t i) const { return bytes[i]; }
};

// One TX_PUSH: the six registers and the header bytes copied at push time.
struct NiTxDescriptor {
    uint64_t serial = 0; // 0, 1, 2, ... in push order
    uint32_t dest = 0;
    uint32_t body_addr = 0;
    uint32_t body_bytes = 0;
    uint32_t cookie = 0;
    bool notify = false;
    uint16_t seq = 0;      // message sequence number for the frame
    bool finished = false; // the last packet's tail has left
    NiHeaderBytes header;
};

struct NiCoreStats {
    uint64_t messages_sent = 0;     // descriptors retired
    uint64_t messages_received = 0; // HEADER records written
    uint64_t body_bytes_deposited = 0;
    uint64_t body_bytes_discarded = 0;
    uint64_t rx_buffer_high_water = 0;
};

class NiCore {
public:
    struct Config {
        uint32_t node_id = 0;
        uint32_t node_count = 1; // TX_DEST must be below it
        uint32_t tx_queue_depth = 16;
        uint64_t rx_buffer_bytes = 32768; // body bytes held before they are deposited
    };

    // What the core needs from its owner. Calls come synchronously from inside
    // the core's functions.
    class Client {
    public:
        virtual ~Client() = default;
        // A programming error; ERROR is set already. reg is the register's name
        // ("at offset 0x..." for none). The core abandons the operation, so the
        // client may return (the TLM model) or never return (the fake HAL).
        virtual void ni_fault(uint32_t code, const std::string &reg, const std::string &what) = 0;
        // An interrupt condition (rx_irq(), tx_irq()) may have changed.
        virtual void ni_irqs_changed() = 0;
        // A descriptor was queued (tx_descriptor(tx_pushed() - 1)).
        virtual void ni_tx_pushed() = 0;
        // A ring slot or buffer space came free, or reception was enabled: packets
        // refused before may be taken now.
        virtual void ni_rx_space_returned() = 0;
        // Accepted body bytes that are in: move them to memory, then deposit().
        virtual void ni_deposit(uint32_t handle, NiFragment &&fragment) = 0;
        // Accepted while its reserved first fragment (`length` bytes) is still
        // arriving; ni_deposit_arrived brings it.
        virtual void ni_deposit_pending(uint32_t handle, uint32_t length) = 0;
        virtual void ni_deposit_arrived(uint32_t handle, NiFragment &&fragment) = 0;
        // A record goes into the ring at node address addr. Return true if the
        // client wrote it (the RTL DMA engine's record writer); false lets the
        // core copy it.
        virtual bool ni_store_record(uint32_t addr, const hw_ni_rx_record_t &record) {
            (void)addr;
            (void)record;
            return false;
        }
    };

    // memory: node memory, memory_bytes long, outliving the core.
    NiCore(const Config &config, Client &client, uint8_t *memory, uint32_t memory_bytes);
    NiCore(const NiCore &) = delete;
    NiCore &operator=(const NiCore &) = delete;

    // The register window (hw/ni_regs.h); violations and programming errors reach
    // Client::ni_fault.
    common::RegisterBlock &registers() { return regs_; }
    // Registers that only hold an operand of a later TX_PUSH or RX_CMD: a write
    // to one has no other effect and the core reads them nowhere else, so the CPU
    // may post such writes (NodeCpu::post_write).
    static const std::vector<uint32_t> &postable_registers();
    // TX_COOKIE, an operand too, only when nothing can happen before the write:
    // the NI driver (fw/src/ni.c, push) updates state its interrupt handlers read
    // between writing it and TX_PUSH, and posting it while an interrupt may come
    // would let a handler served in that stretch see the update early
    // (docs/node.md).
    static const std::vector<uint32_t> &postable_when_quiet_registers();
    uint32_t error() const { return error_; }
    bool rx_irq() const;
    bool tx_irq() const;
    const NiCoreStats &stats() const { return stats_; }

    // ---- send side ----
    uint32_t tx_free() const;
    uint64_t tx_pushed() const { return next_tx_serial_; }     // descriptors pushed so far
    bool tx_done_waiting() const { return !tx_done_.empty(); } // a cookie waits in TX_DONE
    // A pushed descriptor that has not been retired.
    const NiTxDescriptor &tx_descriptor(uint64_t serial) const;
    // Its last packet has left the node. False if no such descriptor is queued.
    bool tx_finished(uint64_t serial);

    // ---- receive side ----
    bool enabled() const { return (ctrl_ & HW_NI_CTRL_ENABLE) != 0; }
    // A first packet needs a free ring slot and no DONE record waiting for one.
    bool ring_has_room() const { return rx_count_ < rx_ring_slots_ && pending_done_.empty(); }
    uint64_t buffer_free() const { return config_.rx_buffer_bytes - rx_buffered_; }
    uint32_t rx_records() const { return rx_count_; } // records in the ring, not yet popped
    bool discarded(uint32_t handle) const;
    // The first packet of a message is taken: writes its HEADER record and, if it
    // has a body, returns the handle firmware answers (else HW_NI_NONE). With
    // reserve > 0 the message's first fragment (reserve bytes) is still arriving:
    // its buffer space is reserved now and fragment_arrived(..., true) brings it.
    uint32_t begin_message(uint32_t src, const uint8_t *header, uint32_t hdr_bytes,
                           uint32_t body_bytes, uint32_t reserve = 0);
    // Body bytes of a message arrived (reserved: the first fragment reserved at
    // begin_message). Buffered until answered, handed to ni_deposit when
    // accepted, dropped when discarded.
    void fragment_arrived(uint32_t handle, NiFragment &&fragment, bool reserved);
    // Copies accepted bytes to the message's body address (the DMA is done);
    // with copy false the client's DMA has written them already.
    void deposit(uint32_t handle, const NiFragment &fragment, bool copy = true);
    // Where an accepted message's body goes (RX_BODY_ADDR at its ACCEPT).
    uint32_t body_address(uint32_t handle) const { return rx_messages_.at(handle).body_addr; }

private:
    enum class RxState { Waiting, Accepted, Discarded };
    struct RxMessage {
        uint32_t handle = 0;
        uint32_t src = 0;
        uint32_t body_bytes = 0;
        uint32_t arrived = 0;
        uint32_t deposited = 0;
        RxState state = RxState::Waiting;
        bool notify = false;
        uint32_t body_addr = 0;
        uint32_t cookie = 0;
        std::vector<NiFragment> buffered; // waiting for the firmware's answer (a
                                          // vector: an empty deque allocates)
        uint32_t inflight = 0;            // reserved bytes of a first fragment not yet in
    };

    void fault(uint32_t code, const std::string &reg, const std::string &what);
    void set_ctrl(uint32_t value);
    void push_descriptor(uint32_t flags);
    uint32_t pop_done();
    void retire_descriptors();
    void set_ring(uint32_t offset, uint32_t value);
    void pop_record();
    void rx_command(uint32_t value);
    uint32_t allocate_handle();
    void write_record(const hw_ni_rx_record_t &rec);
    void flush_done_records();
    void finish_if_complete(RxMessage &m);
    void buffer_add(uint32_t bytes);
    void buffer_release(uint32_t bytes);
    bool contains(uint32_t addr, uint32_t bytes) const {
        return bytes <= memory_bytes_ && addr <= memory_bytes_ - bytes;
    }

    const Config config_;
    Client &client_;
    uint8_t *const memory_;
    const uint32_t memory_bytes_;
    common::RegisterBlock regs_;

    // Registers without side effects live in regs_; these name them.
    uint32_t &ctrl_;
    uint32_t &error_;
    uint32_t &tx_dest_, &tx_hdr_addr_, &tx_hdr_bytes_, &tx_body_addr_, &tx_body_bytes_, &tx_cookie_;
    uint32_t &rx_ring_base_, &rx_ring_slots_, &rx_count_, &rx_index_, &rx_body_addr_, &rx_cookie_;

    // send side
    std::deque<NiTxDescriptor> txq_; // pushed and not yet retired, in order
    uint64_t txq_front_serial_ = 0;
    uint64_t next_tx_serial_ = 0;
    std::deque<uint32_t> tx_done_; // notified cookies, at most tx_queue_depth
    uint16_t next_seq_ = 0;

    // receive side
    std::unordered_map<uint32_t, RxMessage> rx_messages_; // by handle
    std::deque<hw_ni_rx_record_t> pending_done_;          // DONE records waiting for a slot
    uint32_t next_handle_ = 0;
    uint64_t rx_buffered_ = 0;

    NiCoreStats stats_;
};

} // namespace starfish::node
