/* DMA network interface (NI): register map, receive-record format and the framing
 * of messages into network packets. One source of truth for the TLM model
 * (tlm_models/node/network_interface.*), the firmware driver (fw/) and the Verilog DMA
 * engine (rtl/).
 *
 * A *message* is a software header of 0..HW_NI_HDR_MAX_BYTES bytes (a multiple of
 * 4; its meaning is the firmware's) and a body of 0..HW_NI_MAX_BODY_BYTES bytes,
 * sent to one node. The NI splits a message into packets (hw/packet.h) of at most
 * the configured payload size; the receiving NI reassembles it.
 *
 * Sending. Firmware writes TX_DEST, TX_HDR_ADDR, TX_HDR_BYTES, TX_BODY_ADDR,
 * TX_BODY_BYTES and TX_COOKIE, then writes HW_NI_TX_* flags to TX_PUSH, which
 * queues a copy of those six registers as one descriptor. The header bytes are
 * copied from node memory at push time (the header buffer may be reused at once);
 * the body is read by DMA as its packets are injected, so the body buffer must stay
 * untouched until the descriptor completes. Descriptors are served in order, one
 * message at a time. A descriptor completes when the tail of its last packet has
 * left the node; then a slot of the send queue frees (TX_FREE) and, if it was
 * pushed with HW_NI_TX_NOTIFY, its cookie enters the done FIFO read through
 * TX_DONE. Pushing while TX_FREE is 0 is a programming error.
 *
 * Receiving. Firmware gives the NI a ring of RX_RING_SLOTS records of
 * HW_NI_RX_RECORD_BYTES in node memory (RX_RING_BASE), then sets CTRL.ENABLE. When
 * the first packet of a message arrives the NI writes a HEADER record (sender,
 * handle, sizes, a copy of the software header) into the next free slot. A message
 * with a body waits in the NI's receive buffer until the firmware answers its
 * handle: it writes RX_BODY_ADDR and RX_COOKIE, then RX_CMD = op << 28 | handle.
 * ACCEPT deposits the body at RX_BODY_ADDR by DMA (bytes that already arrived
 * first, the rest as they arrive); ACCEPT_NOTIFY does the same and then writes a
 * DONE record carrying RX_COOKIE; DISCARD drops the body. A message without a body
 * needs no answer (its record's handle is HW_NI_NONE). Firmware reads the oldest
 * record at slot RX_INDEX and frees it by writing RX_POP. When the ring is full,
 * or the receive buffer is, the NI refuses packets and the network holds them
 * (back-pressure), so handlers must answer and pop promptly.
 *
 * Interrupts (hw/node_map.h), level-sensitive, cleared by draining their cause:
 *   HW_IRQ_NI_RX  while RX_COUNT > 0 and CTRL.RX_IRQ;
 *   HW_IRQ_NI_TX  while the done FIFO is not empty and CTRL.TX_IRQ, or while
 *                 TX_FREE > 0 and CTRL.TX_SPACE_IRQ (for drivers that queue sends
 *                 in software when the send queue is full).
 *
 * Bad programming (an address range outside node memory, a misaligned or too large
 * size, a push to a full queue, an unknown handle or command, ring parameters
 * changed while enabled) sets ERROR to an HW_NI_ERR_* code; the TLM model also
 * stops the run with a message naming the node and the register.
 */
#ifndef STARFISH_HW_NI_REGS_H
#define STARFISH_HW_NI_REGS_H

#include "hw/reg_table.h"

#include <stddef.h>
#include <stdint.h>

#define HW_NI_ID_VALUE 0x4e490001u /* "NI", interface version 1 */
#define HW_NI_NONE 0xffffffffu     /* empty FIFO read / no handle */

#define HW_NI_HDR_MAX_BYTES 64u
#define HW_NI_MAX_BODY_BYTES (16u << 20)
#define HW_NI_RX_RECORD_BYTES 128u

/* ---- registers: byte offsets from HW_NI_BASE, all 32-bit (hw/reg_table.h) ---- */
#define HW_NI_REGISTERS(X)                                                                         \
    X(ID, 0x000, RO, HW_NI_ID_VALUE, 1, "HW_NI_ID_VALUE")                                          \
    X(NODE, 0x004, RO, HW_REG_RESET_INSTANCE, 1, "this node's id")                                 \
    X(CTRL, 0x008, RW, 0, 1, "HW_NI_CTRL_* bits")                                                  \
    X(ERROR, 0x00c, RO, 0, 1, "first HW_NI_ERR_* seen (sticky)")                                   \
    X(TX_DEST, 0x010, RW, 0, 1, "destination node id")                                             \
    X(TX_HDR_ADDR, 0x014, RW, 0, 1, "node address of the software header")                         \
    X(TX_HDR_BYTES, 0x018, RW, 0, 1, "0..HW_NI_HDR_MAX_BYTES, multiple of 4")                      \
    X(TX_BODY_ADDR, 0x01c, RW, 0, 1, "node address of the body")                                   \
    X(TX_BODY_BYTES, 0x020, RW, 0, 1, "0..HW_NI_MAX_BODY_BYTES")                                   \
    X(TX_COOKIE, 0x024, RW, 0, 1, "returned through TX_DONE")                                      \
    X(TX_PUSH, 0x028, WO, 0, 1, "queue a descriptor; value = HW_NI_TX_* flags")                    \
    X(TX_FREE, 0x02c, RO, HW_REG_RESET_INSTANCE, 1,                                                \
      "free send-queue slots (ni.tx_queue_depth after reset)")                                     \
    X(TX_DONE, 0x030, RO, HW_NI_NONE, 1, "read pops: oldest notified cookie, or HW_NI_NONE")       \
    X(RX_RING_BASE, 0x040, RW, 0, 1, "ring address, HW_NI_RX_RECORD_BYTES aligned")                \
    X(RX_RING_SLOTS, 0x044, RW, 0, 1, "records in the ring, power of two >= 2")                    \
    X(RX_COUNT, 0x048, RO, 0, 1, "records waiting to be read")                                     \
    X(RX_INDEX, 0x04c, RO, 0, 1, "slot of the oldest waiting record")                              \
    X(RX_POP, 0x050, WO, 0, 1, "free the oldest record (any value)")                               \
    X(RX_BODY_ADDR, 0x054, RW, 0, 1, "where the next accepted body goes")                          \
    X(RX_COOKIE, 0x058, RW, 0, 1, "cookie of the next ACCEPT_NOTIFY")                              \
    X(RX_CMD, 0x05c, WO, 0, 1, "HW_NI_RX_CMD(op, handle)")

#define HW_NI_REG_ENUMERATOR_(name, offset, access, reset, count, meaning)                         \
    HW_NI_REG_##name = offset,
HW_REG_ENUM(hw_ni_reg){HW_NI_REGISTERS(HW_NI_REG_ENUMERATOR_)};
#undef HW_NI_REG_ENUMERATOR_

/* CTRL bits. RX_RING_BASE and RX_RING_SLOTS may change only while ENABLE is 0. */
#define HW_NI_CTRL_ENABLE (1u << 0)
#define HW_NI_CTRL_RX_IRQ (1u << 1)
#define HW_NI_CTRL_TX_IRQ (1u << 2)
#define HW_NI_CTRL_TX_SPACE_IRQ (1u << 3)

/* TX_PUSH value. */
#define HW_NI_TX_NOTIFY (1u << 0) /* put TX_COOKIE into the done FIFO on completion */

/* RX_CMD. */
#define HW_NI_RX_ACCEPT 1u
#define HW_NI_RX_ACCEPT_NOTIFY 2u
#define HW_NI_RX_DISCARD 3u
#define HW_NI_RX_CMD(op, handle) ((uint32_t)(op) << 28 | ((uint32_t)(handle)&0x00ffffffu))
#define HW_NI_RX_CMD_OP(v) ((unsigned)((v) >> 28))
#define HW_NI_RX_CMD_HANDLE(v) ((uint32_t)((v)&0x00ffffffu))

/* Bit fields (hw/reg_table.h). */
#define HW_NI_FIELDS(F)                                                                            \
    F(CTRL, ENABLE, HW_NI_CTRL_ENABLE,                                                             \
      "receive; setting it validates the ring and restarts it empty")                              \
    F(CTRL, RX_IRQ, HW_NI_CTRL_RX_IRQ, "HW_IRQ_NI_RX while RX_COUNT > 0")                          \
    F(CTRL, TX_IRQ, HW_NI_CTRL_TX_IRQ, "HW_IRQ_NI_TX while the done FIFO is not empty")            \
    F(CTRL, TX_SPACE_IRQ, HW_NI_CTRL_TX_SPACE_IRQ, "HW_IRQ_NI_TX while TX_FREE > 0")               \
    F(TX_PUSH, NOTIFY, HW_NI_TX_NOTIFY, "put TX_COOKIE into the done FIFO on completion")          \
    F(RX_CMD, HANDLE, HW_NI_RX_CMD(0, 0x00ffffffu), "handle of the message answered")              \
    F(RX_CMD, OP, HW_NI_RX_CMD(0xfu, 0),                                                           \
      "HW_NI_RX_ACCEPT, HW_NI_RX_ACCEPT_NOTIFY, HW_NI_RX_DISCARD")

/* ERROR codes. */
#define HW_NI_ERR_NONE 0u
#define HW_NI_ERR_TX_ADDR 1u /* header or body range outside node memory */
#define HW_NI_ERR_TX_SIZE                                                                          \
    2u /* header size misaligned/too large, body too large, or empty message */
#define HW_NI_ERR_TX_DEST 3u     /* no such node */
#define HW_NI_ERR_TX_OVERFLOW 4u /* push while TX_FREE == 0 */
#define HW_NI_ERR_RX_RING                                                                          \
    5u /* ring misaligned, outside memory, bad slot count, or changed while enabled */
#define HW_NI_ERR_RX_HANDLE 6u /* RX_CMD names no waiting message */
#define HW_NI_ERR_RX_CMD 7u    /* unknown RX_CMD op */
#define HW_NI_ERR_RX_ADDR 8u   /* accepted body range outside node memory */
#define HW_NI_ERR_RX_POP 9u    /* RX_POP with no waiting record */
#define HW_NI_ERR_REG 10u      /* access to an undefined register or a write to a read-only one */

/* ---- receive records (written by the NI into the ring) ------------------------ */
#define HW_NI_REC_HEADER 1u /* first packet of a message arrived */
#define HW_NI_REC_DONE 2u   /* an ACCEPT_NOTIFY body is in memory */

/* The kinds as a table (hw/reg_table.h). */
#define HW_NI_REC_KINDS(K)                                                                         \
    K(HEADER, HW_NI_REC_HEADER, "first packet of a message arrived")                               \
    K(DONE, HW_NI_REC_DONE, "an ACCEPT_NOTIFY body is in memory")

typedef struct hw_ni_rx_record {
    uint32_t kind;       /* HW_NI_REC_* */
    uint32_t src_node;   /* sender's node id */
    uint32_t handle;     /* HEADER: answer with RX_CMD (HW_NI_NONE if no body) */
    uint32_t cookie;     /* DONE: RX_COOKIE given with the ACCEPT_NOTIFY */
    uint32_t hdr_bytes;  /* software header bytes in header[] */
    uint32_t body_bytes; /* the message's body size */
    uint32_t reserved[2];
    uint8_t header[HW_NI_HDR_MAX_BYTES]; /* HEADER: copy of the software header */
    uint8_t pad[HW_NI_RX_RECORD_BYTES - 32u - HW_NI_HDR_MAX_BYTES];
} hw_ni_rx_record_t;

#ifdef __cplusplus
#define HW_NI_STATIC_ASSERT_(cond, what) static_assert(cond, what)
#else
#define HW_NI_STATIC_ASSERT_(cond, what) _Static_assert(cond, what)
#endif
HW_NI_STATIC_ASSERT_(sizeof(hw_ni_rx_record_t) == HW_NI_RX_RECORD_BYTES, "record size");

/* The record as a layout (hw/reg_table.h), measured from the struct, so the two
 * cannot disagree: the Verilog record formatter is generated from it. */
#define HW_NI_REC_AT_(member) offsetof(hw_ni_rx_record_t, member)
#define HW_NI_REC_WORDS_(member) (uint32_t)(sizeof(((hw_ni_rx_record_t *)0)->member) / 4u)
#define HW_NI_RECORD_LAYOUT(L)                                                                     \
    L(KIND, HW_NI_REC_AT_(kind), HW_NI_REC_WORDS_(kind), 0xffffffffu, "HW_NI_REC_*")               \
    L(SRC_NODE, HW_NI_REC_AT_(src_node), HW_NI_REC_WORDS_(src_node), 0xffffffffu,                  \
      "sender's node id")                                                                          \
    L(HANDLE, HW_NI_REC_AT_(handle), HW_NI_REC_WORDS_(handle), 0xffffffffu,                        \
      "HEADER: answer with RX_CMD (HW_NI_NONE if no body)")                                        \
    L(COOKIE, HW_NI_REC_AT_(cookie), HW_NI_REC_WORDS_(cookie), 0xffffffffu,                        \
      "DONE: RX_COOKIE given with the ACCEPT_NOTIFY")                                              \
    L(HDR_BYTES, HW_NI_REC_AT_(hdr_bytes), HW_NI_REC_WORDS_(hdr_bytes), 0xffffffffu,               \
      "software header bytes in HEADER")                                                           \
    L(BODY_BYTES, HW_NI_REC_AT_(body_bytes), HW_NI_REC_WORDS_(body_bytes), 0xffffffffu,            \
      "the message's body size")                                                                   \
    L(RESERVED, HW_NI_REC_AT_(reserved), HW_NI_REC_WORDS_(reserved), 0xffffffffu, "0")             \
    L(HEADER, HW_NI_REC_AT_(header), HW_NI_REC_WORDS_(header), 0xffffffffu,                        \
      "HEADER: copy of the software header (bytes past HDR_BYTES 0)")                              \
    L(PAD, HW_NI_REC_AT_(pad), HW_NI_REC_WORDS_(pad), 0xffffffffu, "0")

/* ---- packet framing (inside the packet payload of hw/packet.h) ------------------
 * Every packet of a message starts with a 16-byte frame (HW_NI_FRAME_LAYOUT below;
 * the Verilog's rtl/include/hw_ni_frame.vh is generated from it):
 *   word 0  [15:0] source node id, [31:16] message sequence number (per sender,
 *           wrapping; the NI sends one message's packets back to back and the
 *           network keeps per-pair order, so it is a consistency check)
 *   word 1  [7:0] software header bytes carried in this packet (first packet only),
 *           [8] first packet, [9] last packet
 *   word 2  body bytes of the whole message
 *   word 3  body offset of this packet's fragment
 * then the software header (first packet only), then the body fragment. */
#define HW_NI_FRAME_BYTES 16u
/* Frame and header words travel little-endian (as the NI reads node memory). */
static inline uint32_t hw_ni_get_word(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void hw_ni_put_word(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
#define HW_NI_FRAME_SRC_MASK 0x0000ffffu       /* word 0 */
#define HW_NI_FRAME_SEQ_MASK 0xffff0000u       /* word 0 */
#define HW_NI_FRAME_HDR_BYTES_MASK 0x000000ffu /* word 1 */
#define HW_NI_FRAME_FIRST (1u << 8)            /* word 1 */
#define HW_NI_FRAME_LAST (1u << 9)             /* word 1 */
#define HW_NI_FRAME_W0(src, seq) ((uint32_t)((src)&0xffffu) | ((uint32_t)((seq)&0xffffu) << 16))
#define HW_NI_FRAME_SRC(w0) ((unsigned)((w0)&0xffffu))
#define HW_NI_FRAME_SEQ(w0) ((unsigned)((w0) >> 16))

/* The frame as a layout (hw/reg_table.h); the Verilog frame builder and parser
 * are generated from it. */
#define HW_NI_FRAME_LAYOUT(L)                                                                      \
    L(SRC, 0, 1, HW_NI_FRAME_SRC_MASK, "source node id")                                           \
    L(SEQ, 0, 1, HW_NI_FRAME_SEQ_MASK, "message sequence number (per sender, wrapping)")           \
    L(HDR_BYTES, 4, 1, HW_NI_FRAME_HDR_BYTES_MASK,                                                 \
      "software header bytes carried in this packet (first packet only)")                          \
    L(FIRST, 4, 1, HW_NI_FRAME_FIRST, "first packet of the message")                               \
    L(LAST, 4, 1, HW_NI_FRAME_LAST, "last packet of the message")                                  \
    L(BODY_BYTES, 8, 1, 0xffffffffu, "body bytes of the whole message")                            \
    L(OFFSET, 12, 1, 0xffffffffu, "body offset of this packet's fragment")

/* The word-0 macros agree with the table's masks; a header fits its field. */
HW_NI_STATIC_ASSERT_(HW_NI_FRAME_W0(0xffffffffu, 0) == HW_NI_FRAME_SRC_MASK, "frame SRC");
HW_NI_STATIC_ASSERT_(HW_NI_FRAME_W0(0, 0xffffffffu) == HW_NI_FRAME_SEQ_MASK, "frame SEQ");
HW_NI_STATIC_ASSERT_(HW_NI_FRAME_SRC(HW_NI_FRAME_SRC_MASK) == 0xffffu &&
                         HW_NI_FRAME_SRC(HW_NI_FRAME_SEQ_MASK) == 0 &&
                         HW_NI_FRAME_SEQ(HW_NI_FRAME_SEQ_MASK) == 0xffffu &&
                         HW_NI_FRAME_SEQ(HW_NI_FRAME_SRC_MASK) == 0,
                     "frame SRC/SEQ accessors");
HW_NI_STATIC_ASSERT_(HW_NI_HDR_MAX_BYTES <= HW_NI_FRAME_HDR_BYTES_MASK, "frame HDR_BYTES width");

/* The register's name for error messages ("TX_PUSH"), or NULL for an offset that
 * is not a register. */
#define HW_NI_REG_NAME_CASE_(name, offset, access, reset, count, meaning)                          \
    case HW_NI_REG_##name:                                                                         \
        return #name;
static inline const char *hw_ni_reg_name(uint32_t offset) {
    switch (offset) {
        HW_NI_REGISTERS(HW_NI_REG_NAME_CASE_)
    default:
        return 0;
    }
}
#undef HW_NI_REG_NAME_CASE_

#ifdef __cplusplus
/* The tables as data, for decoders and generators. */
inline constexpr hw_reg_info_t hw_ni_register_table[] = {HW_NI_REGISTERS(HW_REG_INFO)};
inline constexpr hw_field_info_t hw_ni_field_table[] = {HW_NI_FIELDS(HW_FIELD_INFO)};
inline constexpr hw_layout_info_t hw_ni_frame_layout[] = {HW_NI_FRAME_LAYOUT(HW_LAYOUT_INFO)};
inline constexpr hw_layout_info_t hw_ni_record_layout[] = {HW_NI_RECORD_LAYOUT(HW_LAYOUT_INFO)};
inline constexpr hw_value_info_t hw_ni_record_kinds[] = {HW_NI_REC_KINDS(HW_VALUE_INFO)};
#endif

#endif /* STARFISH_HW_NI_REGS_H */
