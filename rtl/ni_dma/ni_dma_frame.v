// Parses the head of a packet arriving at the NI: the length flit of
// hw/packet.h and the frame of hw/ni_regs.h (source node, sequence number,
// software header bytes, first/last, the message's body bytes and this
// fragment's offset), whose layout comes from the generated includes
// hw_packet.vh and hw_ni_frame.vh. Combinational. `malformed` flags a packet
// shorter than its frame and header or a header longer than
// HW_NI_HDR_MAX_BYTES.
`include "hw_packet.vh"
`include "hw_ni_frame.vh"
module ni_dma_frame (
    input  wire [                              31:0] length_flit,
    input  wire [          8*`HW_NI_FRAME_BYTES-1:0] frame,        // payload, word k in [32k+31:32k]
    output wire [       `HW_NI_FRAME_SRC_WIDTH-1:0] src_node,
    output wire [       `HW_NI_FRAME_SEQ_WIDTH-1:0] seq,
    output wire                                     first,
    output wire                                     last,
    output wire [ `HW_NI_FRAME_HDR_BYTES_WIDTH-1:0] hdr_bytes,    // in this packet (first only)
    output wire [`HW_NI_FRAME_BODY_BYTES_WIDTH-1:0] body_bytes,   // of the whole message
    output wire [    `HW_NI_FRAME_OFFSET_WIDTH-1:0] offset,       // of this fragment
    output wire [                              19:0] frag_bytes,   // body bytes in this packet
    output wire [        `HW_LENGTH_LANE_WIDTH-1:0] lane,
    output wire                                     malformed
);
  localparam integer HDR_W = `HW_NI_FRAME_HDR_BYTES_WIDTH;
  localparam [19:0] FRAME_BYTES = `HW_NI_FRAME_BYTES;
  localparam [HDR_W-1:0] HDR_MAX_BYTES = `HW_NI_HDR_MAX_BYTES;

  wire [19:0] payload = length_flit[`HW_LENGTH_PAYLOAD_LSB+:`HW_LENGTH_PAYLOAD_WIDTH];
  assign lane = length_flit[`HW_LENGTH_LANE_LSB+:`HW_LENGTH_LANE_WIDTH];
  assign src_node = frame[`HW_NI_FRAME_SRC_POS+:`HW_NI_FRAME_SRC_WIDTH];
  assign seq = frame[`HW_NI_FRAME_SEQ_POS+:`HW_NI_FRAME_SEQ_WIDTH];
  assign first = frame[`HW_NI_FRAME_FIRST_POS];
  assign last = frame[`HW_NI_FRAME_LAST_POS];
  assign hdr_bytes = first ? frame[`HW_NI_FRAME_HDR_BYTES_POS+:HDR_W] : {HDR_W{1'b0}};
  assign body_bytes = frame[`HW_NI_FRAME_BODY_BYTES_POS+:`HW_NI_FRAME_BODY_BYTES_WIDTH];
  assign offset = frame[`HW_NI_FRAME_OFFSET_POS+:`HW_NI_FRAME_OFFSET_WIDTH];
  wire [19:0] head_bytes = FRAME_BYTES + {{(20 - HDR_W) {1'b0}}, hdr_bytes};
  assign malformed = payload < head_bytes || hdr_bytes > HDR_MAX_BYTES;
  assign frag_bytes = malformed ? 20'd0 : payload - head_bytes;

  wire unused = &{1'b0, length_flit, frame};  // the bits outside the fields
endmodule
