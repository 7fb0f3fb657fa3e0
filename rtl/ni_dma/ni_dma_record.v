// Formats a receive record (hw_ni_rx_record_t of hw/ni_regs.h, 128 bytes,
// little-endian words): word 0 kind, 1 source node, 2 handle, 3 cookie,
// 4 header bytes, 5 body bytes, 6-7 reserved, 8-23 the software header
// (bytes past hdr_bytes zero), 24-31 padding. Combinational: the record is
// written into the ring in the cycle it is generated (docs/node.md).
module ni_dma_record (
    input  wire [   1:0] kind,        // HW_NI_REC_HEADER 1, HW_NI_REC_DONE 2
    input  wire [  31:0] src_node,
    input  wire [  31:0] handle,
    input  wire [  31:0] cookie,
    input  wire [   6:0] hdr_bytes,   // 0..64, multiple of 4
    input  wire [  31:0] body_bytes,
    input  wire [ 511:0] header,
    output reg  [1023:0] record,
    output wire          bad          // unknown kind or header size
);
  localparam [1:0] REC_HEADER = 2'd1, REC_DONE = 2'd2;
  assign bad = (kind != REC_HEADER && kind != REC_DONE) || hdr_bytes > 7'd64 ||
               hdr_bytes[1:0] != 2'd0;

  integer k;
  always @(*) begin
    record = 1024'd0;
    record[31:0] = {30'd0, kind};
    record[63:32] = src_node;
    record[95:64] = handle;
    record[127:96] = cookie;
    record[159:128] = {25'd0, hdr_bytes};
    record[191:160] = body_bytes;
    for (k = 0; k < 16; k = k + 1) begin
      if (k < {27'd0, hdr_bytes[6:2]}) record[256+32*k+:32] = header[32*k+:32];
    end
  end
endmodule
