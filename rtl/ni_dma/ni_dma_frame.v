// Parses the head of a packet arriving at the NI: the length flit of
// hw/packet.h and the 16-byte frame of hw/ni_regs.h (source node, sequence
// number, software header bytes, first/last, the message's body bytes and this
// fragment's offset). Combinational. `malformed` flags a packet shorter than
// its frame and header or a header longer than HW_NI_HDR_MAX_BYTES.
module ni_dma_frame (
    input  wire [31:0] length_flit,
    input  wire [31:0] frame_w0,
    input  wire [31:0] frame_w1,
    input  wire [31:0] frame_w2,
    input  wire [31:0] frame_w3,
    output wire [15:0] src_node,
    output wire [15:0] seq,
    output wire        first,
    output wire        last,
    output wire [ 7:0] hdr_bytes,     // software header in this packet (first only)
    output wire [31:0] body_bytes,    // of the whole message
    output wire [31:0] offset,        // of this fragment
    output wire [19:0] frag_bytes,    // body bytes in this packet
    output wire [ 3:0] lane,
    output wire        malformed
);
  localparam [19:0] FRAME_BYTES = 20'd16;
  localparam [7:0] HDR_MAX_BYTES = 8'd64;

  wire [19:0] payload = length_flit[19:0];
  assign lane = length_flit[23:20];
  assign src_node = frame_w0[15:0];
  assign seq = frame_w0[31:16];
  assign first = frame_w1[8];
  assign last = frame_w1[9];
  assign hdr_bytes = first ? frame_w1[7:0] : 8'd0;
  assign body_bytes = frame_w2;
  assign offset = frame_w3;
  wire [19:0] head_bytes = FRAME_BYTES + {12'd0, hdr_bytes};
  assign malformed = payload < head_bytes || hdr_bytes > HDR_MAX_BYTES;
  assign frag_bytes = malformed ? 20'd0 : payload - head_bytes;

  wire unused = &{1'b0, length_flit[31:24], frame_w1[31:10]};
endmodule
