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

#include <stdint.h>

#define HW_NI_ID_VALUE 0x4e490001u /* "NI", interface version 1 */
#define HW_NI_NONE 0xffffffffu     /* empty FIFO read / no handle */

#define HW_NI_HDR_MAX_BYTES 64u
#define HW_NI_MAX_BODY_BYTES (16u << 20)
#define HW_NI_RX_RECORD_BYTES 128u

/* ---- registers: byte offsets from HW_NI_BASE, all 32-bit ---------------------- */
#define HW_NI_REG_ID 0x000u            /* RO  HW_NI_ID_VALUE */
#define HW_NI_REG_NODE 0x004u          /* RO  this node's id */
#define HW_NI_REG_CTRL 0x008u          /* RW  HW_NI_CTRL_* (reset 0) */
#define HW_NI_REG_ERROR 0x00cu         /* RO  first HW_NI_ERR_* seen (sticky; reset 0) */
#define HW_NI_REG_TX_DEST 0x010u       /* RW  destination node id */
#define HW_NI_REG_TX_HDR_ADDR 0x014u   /* RW  node address of the software header */
#define HW_NI_REG_TX_HDR_BYTES 0x018u  /* RW  0..HW_NI_HDR_MAX_BYTES, multiple of 4 */
#define HW_NI_REG_TX_BODY_ADDR 0x01cu  /* RW  node address of the body */
#define HW_NI_REG_TX_BODY_BYTES 0x020u /* RW  0..HW_NI_MAX_BODY_BYTES */
#define HW_NI_REG_TX_COOKIE 0x024u     /* RW  returned through TX_DONE */
#define HW_NI_REG_TX_PUSH 0x028u       /* WO  queue a descriptor; value = HW_NI_TX_* */
#define HW_NI_REG_TX_FREE 0x02cu       /* RO  free send-queue slots */
#define HW_NI_REG_TX_DONE 0x030u       /* RO, read pops: oldest notified cookie or NONE */
#define HW_NI_REG_RX_RING_BASE 0x040u  /* RW  ring address, HW_NI_RX_RECORD_BYTES aligned */
#define HW_NI_REG_RX_RING_SLOTS 0x044u /* RW  records in the ring, power of two >= 2 */
#define HW_NI_REG_RX_COUNT 0x048u      /* RO  records waiting to be read */
#define HW_NI_REG_RX_INDEX 0x04cu      /* RO  slot of the oldest waiting record */
#define HW_NI_REG_RX_POP 0x050u        /* WO  free the oldest record (any value) */
#define HW_NI_REG_RX_BODY_ADDR 0x054u  /* RW  where the next accepted body goes */
#define HW_NI_REG_RX_COOKIE 0x058u     /* RW  cookie of the next ACCEPT_NOTIFY */
#define HW_NI_REG_RX_CMD 0x05cu        /* WO  HW_NI_RX_CMD(op, handle) */

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
static_assert(sizeof(hw_ni_rx_record_t) == HW_NI_RX_RECORD_BYTES, "record size");
#else
_Static_assert(sizeof(hw_ni_rx_record_t) == HW_NI_RX_RECORD_BYTES, "record size");
#endif

/* ---- packet framing (inside the packet payload of hw/packet.h) ------------------
 * Every packet of a message starts with a 16-byte frame:
 *   word 0  [15:0] source node id, [31:16] message sequence number (per sender,
 *           wrapping; the NI sends one message's packets back to back and the
 *           network keeps per-pair order, so it is a consistency check)
 *   word 1  [7:0] software header bytes carried in this packet (first packet only),
 *           [8] first packet, [9] last packet
 *   word 2  body bytes of the whole message
 *   word 3  body offset of this packet's fragment
 * then the software header (first packet only), then the body fragment. */
#define HW_NI_FRAME_BYTES 16u
#define HW_NI_FRAME_FIRST (1u << 8)
#define HW_NI_FRAME_LAST (1u << 9)
#define HW_NI_FRAME_W0(src, seq) ((uint32_t)((src)&0xffffu) | ((uint32_t)((seq)&0xffffu) << 16))
#define HW_NI_FRAME_SRC(w0) ((unsigned)((w0)&0xffffu))
#define HW_NI_FRAME_SEQ(w0) ((unsigned)((w0) >> 16))

/* The register's name for error messages ("TX_PUSH"), or NULL for an offset that
 * is not a register. */
static inline const char *hw_ni_reg_name(uint32_t offset) {
    switch (offset) {
    case HW_NI_REG_ID:
        return "ID";
    case HW_NI_REG_NODE:
        return "NODE";
    case HW_NI_REG_CTRL:
        return "CTRL";
    case HW_NI_REG_ERROR:
        return "ERROR";
    case HW_NI_REG_TX_DEST:
        return "TX_DEST";
    case HW_NI_REG_TX_HDR_ADDR:
        return "TX_HDR_ADDR";
    case HW_NI_REG_TX_HDR_BYTES:
        return "TX_HDR_BYTES";
    case HW_NI_REG_TX_BODY_ADDR:
        return "TX_BODY_ADDR";
    case HW_NI_REG_TX_BODY_BYTES:
        return "TX_BODY_BYTES";
    case HW_NI_REG_TX_COOKIE:
        return "TX_COOKIE";
    case HW_NI_REG_TX_PUSH:
        return "TX_PUSH";
    case HW_NI_REG_TX_FREE:
        return "TX_FREE";
    case HW_NI_REG_TX_DONE:
        return "TX_DONE";
    case HW_NI_REG_RX_RING_BASE:
        return "RX_RING_BASE";
    case HW_NI_REG_RX_RING_SLOTS:
        return "RX_RING_SLOTS";
    case HW_NI_REG_RX_COUNT:
        return "RX_COUNT";
    case HW_NI_REG_RX_INDEX:
        return "RX_INDEX";
    case HW_NI_REG_RX_POP:
        return "RX_POP";
    case HW_NI_REG_RX_BODY_ADDR:
        return "RX_BODY_ADDR";
    case HW_NI_REG_RX_COOKIE:
        return "RX_COOKIE";
    case HW_NI_REG_RX_CMD:
        return "RX_CMD";
    default:
        return 0;
    }
}

#endif /* STARFISH_HW_NI_REGS_H */
