// Send side of the NI's DMA engine: one packet per command. It waits for the
// send DMA to finish the previous packet, spends the command's setup cycles,
// then builds the packet (route and length flits of hw/packet.h, the NI frame
// and the software header of hw/ni_regs.h, laid out by the generated includes
// hw_packet.vh and hw_ni_frame.vh) and starts the body DMA, which
// reads node memory through mem_rd_* at 2^cfg_dma_shift bytes per cycle and
// writes each body word into the injection buffer (body_we). The packet is
// offered (offer_valid) after the least delay that keeps every flit behind the
// DMA (docs/node.md, "Timing of one message"); offer_taken is the local port
// taking it. Flits are 4 bytes; the DMA moves at most one word per cycle.
//
// Commands and offer_taken are sampled at the next rising edge with `ce` high
// (the engine's own edges: every count below is of those); outputs change only
// at edges, and the write pulses last one edge. `error` (sticky) reports a command while a packet is still
// being set up or offered, or offer_taken without an offer.
`include "hw_packet.vh"
`include "hw_ni_frame.vh"
module ni_dma_tx (
    input  wire                              clk,
    input  wire                              rst,
    input  wire                              ce,               // clock enable: this engine's edges
    input  wire [                       1:0] cfg_dma_shift,    // log2(ni.dma_bytes_per_cycle): 0..2
    // packet command
    input  wire                              cmd_valid,
    input  wire [                      15:0] cmd_setup_cycles, // >= 1 (descriptor + packet setup)
    input  wire [                      31:0] cmd_route,        // route flit
    input  wire [`HW_NI_FRAME_SRC_WIDTH-1:0] cmd_src_node,
    input  wire [`HW_NI_FRAME_SEQ_WIDTH-1:0] cmd_seq,
    input  wire                              cmd_first,
    input  wire                              cmd_last,
    input  wire [                       6:0] cmd_hdr_bytes,    // 0..HW_NI_HDR_MAX_BYTES, multiple of 4 (first packet only)
    input  wire [8*`HW_NI_HDR_MAX_BYTES-1:0] cmd_header,       // software header, word k in [32k+31:32k]
    input  wire [                      31:0] cmd_body_bytes,   // of the whole message
    input  wire [                      31:0] cmd_offset,       // of this fragment in the body
    input  wire [                      31:0] cmd_frag_addr,    // node address of this fragment
    input  wire [                      19:0] cmd_frag_bytes,
    // node memory read port: the memory answers within the cycle
    output wire [                      31:0] mem_rd_addr,
    output wire                              mem_rd_en,
    input  wire [                      31:0] mem_rd_data,
    // the packet towards the router's local port
    output reg                               offer_valid,
    output reg  [                      31:0] offer_route,
    output reg  [                      31:0] offer_length,
    input  wire                              offer_taken,
    // injection buffer: payload words 0..head_count-1 (frame, header) at once,
    // then the body words one by one
    output reg                               head_we,
    output reg  [8*(`HW_NI_FRAME_BYTES+`HW_NI_HDR_MAX_BYTES)-1:0] head_words,
    output reg  [                       4:0] head_count,
    output reg                               body_we,
    output reg  [                      17:0] body_index,       // payload word index
    output reg  [                      31:0] body_word,
    // status
    output wire                              setup_busy,
    output wire                              delay_busy,
    output reg                               dma_busy,
    output wire                              active,           // counting: must be clocked
    output reg                               error
);
  localparam [1:0] IDLE = 2'd0, SETUP = 2'd1, DELAY = 2'd2, OFFER = 2'd3;
  localparam integer FRAME_BITS = 8 * `HW_NI_FRAME_BYTES;
  localparam integer HDR_BITS = 8 * `HW_NI_HDR_MAX_BYTES;
  localparam integer HDR_MAX_WORDS = `HW_NI_HDR_MAX_BYTES / 4;
  localparam integer HDR_FIELD_W = `HW_NI_FRAME_HDR_BYTES_WIDTH;
  localparam [31:0] FRAME_BYTES = `HW_NI_FRAME_BYTES;
  localparam [4:0] FRAME_WORDS = `HW_NI_FRAME_BYTES / 4;
  localparam [31:0] HEAD_FLITS = `HW_PKT_HEAD_FLITS;

  reg [1:0] state;
  reg [15:0] setup_left;
  reg [31:0] delay_left;
  // the command being set up
  reg [31:0] route_q;
  reg [FRAME_BITS-1:0] frame_q;
  reg [HDR_BITS-1:0] header_q;
  reg [6:0] hdr_bytes_q;
  reg [31:0] frag_addr_q;
  reg [19:0] frag_q;
  // the body DMA of the packet built last
  reg [31:0] dma_addr;
  reg [19:0] dma_frag;
  reg [20:0] dma_bytes;  // read so far
  reg [17:0] dma_word;  // next body word
  reg [17:0] dma_first_index;  // payload word of body word 0

  wire accept = cmd_valid && (state == IDLE || (state == OFFER && offer_taken));
  wire [3:0] dma_step = 4'd1 << cfg_dma_shift;

  // ---- offer delay: flit i crosses the injection channel 1 + i cycles after the
  // offer at the earliest and needs the body up to the end of its payload slice;
  // the first body flit and the last two are the tightest (docs/node.md).
  function automatic [31:0] ceil_div_d(input [31:0] bytes, input [1:0] shift);
    ceil_div_d = (bytes + ((32'd1 << shift) - 32'd1)) >> shift;
  endfunction
  function automatic [31:0] flit_slack(input [31:0] i, input [31:0] body_start,
                                       input [31:0] frag, input [1:0] shift);
    reg [31:0] slice_end, need, ready;
    begin
      slice_end = (i - 32'd1) * 32'd4;
      if (slice_end > body_start + frag) slice_end = body_start + frag;
      need = slice_end > body_start ? slice_end - body_start : 32'd0;
      ready = ceil_div_d(need, shift);
      flit_slack = ready > 32'd1 + i ? ready - 32'd1 - i : 32'd0;
    end
  endfunction
  function automatic [31:0] max32(input [31:0] a, input [31:0] b);
    max32 = a > b ? a : b;
  endfunction

  // The command being built: the inputs when it builds in the edge that accepts
  // it (a one-cycle setup), else the latched copy.
  wire [6:0] cmd_hdr = cmd_first ? cmd_hdr_bytes : 7'd0;
  reg [FRAME_BITS-1:0] cmd_frame;  // the command's frame (hw_ni_frame.vh)
  always @(*) begin
    cmd_frame = {FRAME_BITS{1'b0}};
    cmd_frame[`HW_NI_FRAME_SRC_POS+:`HW_NI_FRAME_SRC_WIDTH] = cmd_src_node;
    cmd_frame[`HW_NI_FRAME_SEQ_POS+:`HW_NI_FRAME_SEQ_WIDTH] = cmd_seq;
    cmd_frame[`HW_NI_FRAME_HDR_BYTES_POS+:HDR_FIELD_W] = {{(HDR_FIELD_W - 7) {1'b0}}, cmd_hdr};
    cmd_frame[`HW_NI_FRAME_FIRST_POS] = cmd_first;
    cmd_frame[`HW_NI_FRAME_LAST_POS] = cmd_last;
    cmd_frame[`HW_NI_FRAME_BODY_BYTES_POS+:`HW_NI_FRAME_BODY_BYTES_WIDTH] = cmd_body_bytes;
    cmd_frame[`HW_NI_FRAME_OFFSET_POS+:`HW_NI_FRAME_OFFSET_WIDTH] = cmd_offset;
  end

  wire [31:0] b_route = accept ? cmd_route : route_q;
  wire [FRAME_BITS-1:0] b_frame = accept ? cmd_frame : frame_q;
  wire [31:0] b_addr = accept ? cmd_frag_addr : frag_addr_q;
  wire [HDR_BITS-1:0] b_header = accept ? cmd_header : header_q;
  wire [6:0] b_hdr = accept ? cmd_hdr : hdr_bytes_q;
  wire [19:0] b_frag = accept ? cmd_frag_bytes : frag_q;

  // Payload byte offsets to flit indices: 4-byte flits after the head flits.
  wire [31:0] body_start = FRAME_BYTES + {25'd0, b_hdr};
  wire [31:0] frag32 = {12'd0, b_frag};
  wire [31:0] first_flit = HEAD_FLITS + (body_start >> 2);
  wire [31:0] last_flit = HEAD_FLITS - 32'd1 + ((body_start + frag32 + 32'd3) >> 2);
  wire [31:0] offer_delay = b_frag == 20'd0 ? 32'd0 :
      max32(flit_slack(first_flit, body_start, frag32, cfg_dma_shift),
            max32(flit_slack(last_flit > first_flit ? last_flit - 32'd1 : first_flit,
                             body_start, frag32, cfg_dma_shift),
                  flit_slack(last_flit, body_start, frag32, cfg_dma_shift)));

  // ---- body DMA: word j is read once the DMA has read its bytes
  wire [20:0] dma_next = (dma_bytes + {17'd0, dma_step} > {1'b0, dma_frag}) ?
      {1'b0, dma_frag} : dma_bytes + {17'd0, dma_step};
  wire [20:0] word_end = ({1'b0, dma_word, 2'b00} + 21'd4 > {1'b0, dma_frag}) ?
      {1'b0, dma_frag} : {1'b0, dma_word, 2'b00} + 21'd4;
  wire word_ready = dma_busy && dma_next >= word_end;
  assign mem_rd_addr = dma_addr + {12'd0, dma_word, 2'b00};
  assign mem_rd_en = ce && word_ready;

  // The setup counts only cycles in which the DMA was already free.
  wire build_now = (state == SETUP && !dma_busy && setup_left == 16'd1) ||
                   (accept && !dma_busy && cmd_setup_cycles == 16'd1);

  assign setup_busy = state == SETUP;
  assign delay_busy = state == DELAY;
  assign active = state == SETUP || state == DELAY || dma_busy;

  integer k;
  always @(posedge clk) begin
    if (rst) begin
      state <= IDLE;
      setup_left <= 16'd0;
      delay_left <= 32'd0;
      offer_valid <= 1'b0;
      offer_route <= 32'd0;
      offer_length <= 32'd0;
      head_we <= 1'b0;
      head_words <= {(FRAME_BITS + HDR_BITS) {1'b0}};
      head_count <= 5'd0;
      body_we <= 1'b0;
      body_index <= 18'd0;
      body_word <= 32'd0;
      dma_busy <= 1'b0;
      dma_addr <= 32'd0;
      dma_frag <= 20'd0;
      dma_bytes <= 21'd0;
      dma_word <= 18'd0;
      dma_first_index <= 18'd0;
      route_q <= 32'd0;
      frame_q <= {FRAME_BITS{1'b0}};
      header_q <= {HDR_BITS{1'b0}};
      hdr_bytes_q <= 7'd0;
      frag_addr_q <= 32'd0;
      frag_q <= 20'd0;
      error <= 1'b0;
    end else begin
      head_we <= 1'b0;
      body_we <= 1'b0;
      // Pulses last one edge; everything else moves only on the engine's edges.
      if (ce) begin
        if (cmd_valid && !accept) error <= 1'b1;
        if (offer_taken && state != OFFER) error <= 1'b1;
        if (cmd_setup_cycles == 16'd0 && cmd_valid) error <= 1'b1;

        // body DMA
        if (word_ready) begin
          body_we <= 1'b1;
          body_index <= dma_first_index + dma_word;
          body_word <= mem_rd_data;
          dma_word <= dma_word + 18'd1;
        end
        if (dma_busy) begin
          dma_bytes <= dma_next;
          if (dma_next == {1'b0, dma_frag}) dma_busy <= 1'b0;
        end

        // command, setup, delay, offer
        if (state == OFFER && offer_taken) begin
          offer_valid <= 1'b0;
          state <= IDLE;
        end
        if (accept) begin
          route_q <= cmd_route;
          frame_q <= cmd_frame;
          header_q <= cmd_header;
          hdr_bytes_q <= b_hdr;
          frag_addr_q <= cmd_frag_addr;
          frag_q <= cmd_frag_bytes;
          setup_left <= dma_busy ? cmd_setup_cycles : cmd_setup_cycles - 16'd1;
          state <= SETUP;
        end else if (state == SETUP && !dma_busy) begin
          setup_left <= setup_left - 16'd1;
        end else if (state == DELAY) begin
          delay_left <= delay_left - 32'd1;
          if (delay_left == 32'd1) begin
            offer_valid <= 1'b1;
            state <= OFFER;
          end
        end

        // build: frame and header at once, the body DMA starts, the offer follows
        // its delay
        if (build_now) begin
          offer_route <= b_route;
          offer_length <= {12'd0, FRAME_BYTES[19:0] + {13'd0, b_hdr} + b_frag};
          head_we <= 1'b1;
          head_words[FRAME_BITS-1:0] <= b_frame;
          for (k = 0; k < HDR_MAX_WORDS; k = k + 1) begin
            head_words[FRAME_BITS+32*k+:32] <=
                (k < {27'd0, b_hdr[6:2]}) ? b_header[32*k+:32] : 32'd0;
          end
          head_count <= FRAME_WORDS + b_hdr[6:2];
          dma_addr <= b_addr;
          dma_frag <= b_frag;
          dma_bytes <= 21'd0;
          dma_word <= 18'd0;
          dma_first_index <= {13'd0, FRAME_WORDS} + {13'd0, b_hdr[6:2]};
          dma_busy <= b_frag != 20'd0;
          if (offer_delay == 32'd0) begin
            offer_valid <= 1'b1;
            state <= OFFER;
          end else begin
            delay_left <= offer_delay;
            state <= DELAY;
          end
        end
      end
    end
  end
endmodule
