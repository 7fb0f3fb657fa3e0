// Receive DMA of the NI's DMA engine: deposits accepted body fragments into node
// memory, one at a time in the order loaded. A fragment costs the setup cycles
// plus its bytes at 2^cfg_dma_shift bytes per cycle; one still arriving (loaded
// with load_arrived low) ends no earlier than ceil(min(bytes, 4) / D) cycles
// after tail_valid, its last flit's bytes (docs/node.md, "Deposit"). Word j is
// read from the fragment (frag_rd_*, the receive buffer, answered within the
// cycle) and written (mem_wr_*) once the DMA has moved its bytes; `done` pulses
// after the edge in which the last word was written and the tail rule is met.
//
// Two clock enables, so that each count runs on the edges of its own start
// (docs/rtl.md): `ce` for the load and the DMA, `tail_ce` for the tail and its
// count. Loads are sampled at the next edge with ce, tails at the next with
// tail_ce (a tail may come with its load); the write and done pulses last one
// edge. `error` (sticky): a load while busy, an empty fragment, a setup of 0
// cycles, a tail while none is awaited.
module ni_dma_rx (
    input  wire        clk,
    input  wire        rst,
    input  wire        ce,              // clock enable: loads and the DMA count
    input  wire        tail_ce,         // clock enable: the tail and its count
    input  wire [ 1:0] cfg_dma_shift,   // log2(ni.dma_bytes_per_cycle): 0..2
    input  wire [15:0] cfg_setup_cycles, // ni.packet_setup_cycles, >= 1
    input  wire        load_valid,
    input  wire [31:0] load_addr,       // node address of the fragment's first byte
    input  wire [19:0] load_bytes,
    input  wire [19:0] load_start,      // of the fragment in the receive buffer
    input  wire        load_arrived,    // its tail is in already
    input  wire        tail_valid,
    // receive buffer read port
    output wire [19:0] frag_rd_offset,
    output wire        frag_rd_en,
    input  wire [31:0] frag_rd_data,
    // node memory write port (little-endian, mem_wr_bytes of the word)
    output reg         mem_wr_en,
    output reg  [31:0] mem_wr_addr,
    output reg  [31:0] mem_wr_data,
    output reg  [ 2:0] mem_wr_bytes,
    output reg         done,
    output reg         busy,
    output wire        setup_busy,
    output wire        tail_wait,       // counted out, the tail not yet in
    output wire        active,          // the DMA counts: ce edges needed
    output wire        tail_active,     // the tail counts: tail_ce edges needed
    output reg         error
);
  reg [15:0] setup_left;
  reg [31:0] addr;
  reg [19:0] length;
  reg [19:0] start;
  reg [20:0] moved;  // bytes moved so far
  reg [17:0] word;  // next word
  reg counted;  // all bytes moved
  reg tail_in;  // the tail rule is met
  reg tail_seen;
  reg [2:0] tail_left;
  reg in_setup;

  wire [3:0] step = 4'd1 << cfg_dma_shift;
  wire [20:0] moved_next = (moved + {17'd0, step} > {1'b0, length}) ? {1'b0, length} :
      moved + {17'd0, step};
  wire [20:0] word_end = ({1'b0, word, 2'b00} + 21'd4 > {1'b0, length}) ? {1'b0, length} :
      {1'b0, word, 2'b00} + 21'd4;
  wire moving = busy && !in_setup && !counted;
  wire word_ready = moving && moved_next >= word_end;
  wire [20:0] word_bytes_full = word_end - {1'b0, word, 2'b00};
  wire [2:0] word_bytes = word_bytes_full[2:0];  // 1..4
  wire unused_word_bytes = |word_bytes_full[20:3];
  // the tail's last flit: ceil(min(bytes, 4) / D) cycles
  wire [2:0] last_flit_bytes = length >= 20'd4 ? 3'd4 : length[2:0];
  wire [2:0] tail_cycles = (last_flit_bytes + ((3'd1 << cfg_dma_shift) - 3'd1)) >> cfg_dma_shift;

  assign frag_rd_offset = start + {word, 2'b00};
  assign frag_rd_en = ce && word_ready;
  assign setup_busy = busy && in_setup;
  assign tail_wait = busy && counted && !tail_in;
  assign active = busy && (in_setup || !counted);
  assign tail_active = busy && tail_seen && !tail_in;

  wire counted_now = counted || (ce && moving && moved_next == {1'b0, length});
  wire tail_arrives = tail_ce && tail_valid && busy && !tail_seen && !tail_in;
  wire tail_now = tail_in || (tail_ce && tail_seen && tail_left == 3'd1) ||
                  (tail_arrives && tail_cycles == 3'd1);

  always @(posedge clk) begin
    if (rst) begin
      setup_left <= 16'd0;
      addr <= 32'd0;
      length <= 20'd0;
      start <= 20'd0;
      moved <= 21'd0;
      word <= 18'd0;
      counted <= 1'b0;
      tail_in <= 1'b0;
      tail_seen <= 1'b0;
      tail_left <= 3'd0;
      in_setup <= 1'b0;
      busy <= 1'b0;
      mem_wr_en <= 1'b0;
      mem_wr_addr <= 32'd0;
      mem_wr_data <= 32'd0;
      mem_wr_bytes <= 3'd0;
      done <= 1'b0;
      error <= 1'b0;
    end else begin
      mem_wr_en <= 1'b0;
      done <= 1'b0;
      if (ce && load_valid && (busy || load_bytes == 20'd0 || cfg_setup_cycles == 16'd0))
        error <= 1'b1;
      if (tail_ce && tail_valid && (busy ? tail_seen || tail_in : !(ce && load_valid)))
        error <= 1'b1;

      if (busy) begin
        if (ce && in_setup) begin
          setup_left <= setup_left - 16'd1;
          if (setup_left == 16'd1) in_setup <= 1'b0;
        end
        if (ce && word_ready) begin
          mem_wr_en <= 1'b1;
          mem_wr_addr <= addr + {12'd0, word, 2'b00};
          mem_wr_data <= frag_rd_data;
          mem_wr_bytes <= word_bytes;
          word <= word + 18'd1;
        end
        if (ce && moving) moved <= moved_next;
        counted <= counted_now;
        if (tail_arrives) begin
          tail_seen <= 1'b1;
          tail_left <= tail_cycles - 3'd1;
        end else if (tail_ce && tail_seen && !tail_in) begin
          tail_left <= tail_left - 3'd1;
        end
        tail_in <= tail_now;
        if (counted_now && tail_now) begin
          done <= 1'b1;
          busy <= 1'b0;
        end
      end else if (ce && load_valid && load_bytes != 20'd0) begin
        busy <= 1'b1;
        addr <= load_addr;
        length <= load_bytes;
        start <= load_start;
        moved <= 21'd0;
        word <= 18'd0;
        counted <= 1'b0;
        // A tail with the load binds no later than the DMA itself (setup >= 1).
        tail_in <= load_arrived || (tail_ce && tail_valid);
        tail_seen <= 1'b0;
        // the loading edge is the first setup cycle
        setup_left <= cfg_setup_cycles - 16'd1;
        in_setup <= cfg_setup_cycles > 16'd1;
      end
    end
  end
endmodule
