// Formats a receive record (hw_ni_rx_record_t of hw/ni_regs.h, little-endian
// words; its layout and kinds come from the generated include hw_ni_frame.vh):
// kind, source node, handle, cookie, header bytes, body bytes and the software
// header (bytes past hdr_bytes zero); the reserved words and the padding are
// zero. Combinational: the record is written into the ring in the cycle it is
// generated (docs/node.md).
`include "hw_ni_frame.vh"
module ni_dma_record (
    input  wire [                         1:0] kind,        // `HW_NI_REC_HEADER or _DONE
    input  wire [                        31:0] src_node,
    input  wire [                        31:0] handle,
    input  wire [                        31:0] cookie,
    input  wire [                         6:0] hdr_bytes,   // 0..HW_NI_HDR_MAX_BYTES, multiple of 4
    input  wire [                        31:0] body_bytes,
    input  wire [  8*`HW_NI_HDR_MAX_BYTES-1:0] header,
    output reg  [8*`HW_NI_RX_RECORD_BYTES-1:0] record,
    output wire                                bad          // unknown kind or header size
);
  localparam integer RECORD_BITS = 8 * `HW_NI_RX_RECORD_BYTES;
  localparam [31:0] REC_HEADER = `HW_NI_REC_HEADER;
  localparam [31:0] REC_DONE = `HW_NI_REC_DONE;
  localparam [6:0] HDR_MAX_BYTES = `HW_NI_HDR_MAX_BYTES;

  wire [31:0] kind32 = {30'd0, kind};
  assign bad = (kind32 != REC_HEADER && kind32 != REC_DONE) || hdr_bytes > HDR_MAX_BYTES ||
               hdr_bytes[1:0] != 2'd0;

  integer k;
  always @(*) begin
    record = {RECORD_BITS{1'b0}};
    record[`HW_NI_RECORD_KIND_POS+:`HW_NI_RECORD_KIND_WIDTH] = kind32;
    record[`HW_NI_RECORD_SRC_NODE_POS+:`HW_NI_RECORD_SRC_NODE_WIDTH] = src_node;
    record[`HW_NI_RECORD_HANDLE_POS+:`HW_NI_RECORD_HANDLE_WIDTH] = handle;
    record[`HW_NI_RECORD_COOKIE_POS+:`HW_NI_RECORD_COOKIE_WIDTH] = cookie;
    record[`HW_NI_RECORD_HDR_BYTES_POS+:`HW_NI_RECORD_HDR_BYTES_WIDTH] = {25'd0, hdr_bytes};
    record[`HW_NI_RECORD_BODY_BYTES_POS+:`HW_NI_RECORD_BODY_BYTES_WIDTH] = body_bytes;
    for (k = 0; k < `HW_NI_RECORD_HEADER_WORDS; k = k + 1) begin
      if (k < {27'd0, hdr_bytes[6:2]}) begin
        record[`HW_NI_RECORD_HEADER_POS+32*k+:`HW_NI_RECORD_HEADER_WIDTH] = header[32*k+:32];
      end
    end
  end
endmodule
