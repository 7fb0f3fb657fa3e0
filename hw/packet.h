/* Network packet format: one source of truth for the network interface, the
 * firmware, the TLM torus and the Verilog router.
 *
 * A packet is a sequence of 32-bit flits (200e6 B/s per link at 50 MHz is one
 * 4-byte flit per cycle, docs/reference.md §2):
 *   flit 0  route flit:  [7:0] dest x, [15:8] dest y, [23:16] src x, [31:24] src y
 *   flit 1  length flit: [19:0] payload bytes, [23:20] virtual-channel lane within
 *           the dateline class (net.vcs; 0 when there is one), [31:24] reserved (0)
 *   flit 2… payload, little-endian bytes, zero-padded to a whole flit
 * The payload is opaque to the network; the network interface defines what it
 * holds (hw/ni_regs.h). The last flit of a packet is its tail.
 */
#ifndef STARFISH_HW_PACKET_H
#define STARFISH_HW_PACKET_H

#include <stdint.h>

#define HW_FLIT_BYTES 4u
#define HW_PKT_HEAD_FLITS 2u
#define HW_PKT_MAX_PAYLOAD_BYTES ((1u << 20) - 1u)

#define HW_ROUTE_FLIT(dx, dy, sx, sy)                                                              \
    ((uint32_t)((dx)&0xffu) | ((uint32_t)((dy)&0xffu) << 8) | ((uint32_t)((sx)&0xffu) << 16) |     \
     ((uint32_t)((sy)&0xffu) << 24))
#define HW_ROUTE_DEST_X(f) ((unsigned)((f)&0xffu))
#define HW_ROUTE_DEST_Y(f) ((unsigned)(((f) >> 8) & 0xffu))
#define HW_ROUTE_SRC_X(f) ((unsigned)(((f) >> 16) & 0xffu))
#define HW_ROUTE_SRC_Y(f) ((unsigned)(((f) >> 24) & 0xffu))

#define HW_LENGTH_FLIT(payload_bytes) ((uint32_t)(payload_bytes)&0xfffffu)
#define HW_LENGTH_PAYLOAD_BYTES(f) ((unsigned)((f)&0xfffffu))
#define HW_LENGTH_FLIT_LANE(payload_bytes, lane)                                                   \
    (HW_LENGTH_FLIT(payload_bytes) | ((uint32_t)((lane)&0xfu) << 20))
#define HW_LENGTH_LANE(f) ((unsigned)(((f) >> 20) & 0xfu))
#define HW_PKT_MAX_LANES 16u

/* Flits of a packet carrying payload_bytes of payload, head flits included. */
static inline uint32_t hw_packet_flits(uint32_t payload_bytes) {
    return HW_PKT_HEAD_FLITS + (payload_bytes + HW_FLIT_BYTES - 1u) / HW_FLIT_BYTES;
}

#endif /* STARFISH_HW_PACKET_H */
