// The NI's DMA engine (docs/rtl.md, "The DMA engine"): send side (ni_dma_tx),
// receive DMA (ni_dma_rx), the parser of arriving packet heads (ni_dma_frame),
// the receive-record formatter (ni_dma_record) and the CTRL/interrupt front end
// (ni_dma_ctrl). The descriptor and ring bookkeeping that decides *what* to
// move (send queue, handles, receive-buffer accounting, ring pointers) feeds
// these ports; this block decides *when* and moves the bytes.
//
// busy[0] send setup, [1] send offer delay, [2] send DMA, [3] packet offered,
// [4] receive setup, [5] receive DMA, [6] receive waits for a tail.
// One clock with three clock enables, so that each count runs on the edges of
// its own start (docs/rtl.md, "The wrapper and the clock"): tx_ce for the send
// side, rx_ce for the receive DMA, rx_tail_ce for a deposit's tail count.
// tx_active, rx_active, rx_tail_active: that part counts and needs its edges;
// an edge with its enable low changes nothing there (`active`: any of them).
// `error`: an internal check failed.
// The frame, header and record widths come from the generated include
// hw_ni_frame.vh (hw/ni_regs.h).
`include "hw_ni_frame.vh"
module ni_dma (
    input  wire                                clk,
    input  wire                                rst,
    input  wire                                tx_ce,
    input  wire                                rx_ce,
    input  wire                                rx_tail_ce,
    input  wire [                         1:0] cfg_dma_shift,
    input  wire [                        15:0] cfg_packet_setup_cycles,
    // send command
    input  wire                                tx_cmd_valid,
    input  wire [                        15:0] tx_cmd_setup_cycles,
    input  wire [                        31:0] tx_cmd_route,
    input  wire [  `HW_NI_FRAME_SRC_WIDTH-1:0] tx_cmd_src_node,
    input  wire [  `HW_NI_FRAME_SEQ_WIDTH-1:0] tx_cmd_seq,
    input  wire                                tx_cmd_first,
    input  wire                                tx_cmd_last,
    input  wire [                         6:0] tx_cmd_hdr_bytes,
    input  wire [  8*`HW_NI_HDR_MAX_BYTES-1:0] tx_cmd_header,
    input  wire [                        31:0] tx_cmd_body_bytes,
    input  wire [                        31:0] tx_cmd_offset,
    input  wire [                        31:0] tx_cmd_frag_addr,
    input  wire [                        19:0] tx_cmd_frag_bytes,
    output wire [                        31:0] mem_rd_addr,
    output wire                                mem_rd_en,
    input  wire [                        31:0] mem_rd_data,
    output wire                                tx_offer_valid,
    output wire [                        31:0] tx_offer_route,
    output wire [                        31:0] tx_offer_length,
    input  wire                                tx_offer_taken,
    output wire                                tx_head_we,
    output wire [8*(`HW_NI_FRAME_BYTES+`HW_NI_HDR_MAX_BYTES)-1:0] tx_head_words,
    output wire [                         4:0] tx_head_count,
    output wire                                tx_body_we,
    output wire [                        17:0] tx_body_index,
    output wire [                        31:0] tx_body_word,
    // receive DMA
    input  wire                                rx_load_valid,
    input  wire [                        31:0] rx_load_addr,
    input  wire [                        19:0] rx_load_bytes,
    input  wire [                        19:0] rx_load_start,
    input  wire                                rx_load_arrived,
    input  wire                                rx_tail_valid,
    output wire [                        19:0] rx_frag_rd_offset,
    output wire                                rx_frag_rd_en,
    input  wire [                        31:0] rx_frag_rd_data,
    output wire                                mem_wr_en,
    output wire [                        31:0] mem_wr_addr,
    output wire [                        31:0] mem_wr_data,
    output wire [                         2:0] mem_wr_bytes,
    output wire                                rx_done,
    // arriving packet head
    input  wire [                        31:0] rx_length_flit,
    input  wire [    8*`HW_NI_FRAME_BYTES-1:0] rx_frame,
    output wire [  `HW_NI_FRAME_SRC_WIDTH-1:0] rx_src_node,
    output wire [  `HW_NI_FRAME_SEQ_WIDTH-1:0] rx_seq,
    output wire                                rx_first,
    output wire                                rx_last,
    output wire [`HW_NI_FRAME_HDR_BYTES_WIDTH-1:0] rx_hdr_bytes,
    output wire [`HW_NI_FRAME_BODY_BYTES_WIDTH-1:0] rx_body_bytes,
    output wire [`HW_NI_FRAME_OFFSET_WIDTH-1:0] rx_offset,
    output wire [                        19:0] rx_frag_bytes,
    output wire                                rx_malformed,
    // receive records
    input  wire                                rec_valid,
    input  wire [                         1:0] rec_kind,
    input  wire [                        31:0] rec_src_node,
    input  wire [                        31:0] rec_handle,
    input  wire [                        31:0] rec_cookie,
    input  wire [                         6:0] rec_hdr_bytes,
    input  wire [                        31:0] rec_body_bytes,
    input  wire [  8*`HW_NI_HDR_MAX_BYTES-1:0] rec_header,
    output wire [8*`HW_NI_RX_RECORD_BYTES-1:0] rec_record,
    // registers and interrupts
    input  wire                                reg_we,
    input  wire [                        11:0] reg_addr,
    input  wire [                        31:0] reg_wdata,
    input  wire                                st_rx_records,
    input  wire                                st_tx_done_waiting,
    input  wire                                st_tx_space,
    output wire [                        31:0] ctrl,
    output wire                                irq_rx,
    output wire                                irq_tx,
    output wire [                         6:0] busy,
    output wire                                tx_active,
    output wire                                rx_active,
    output wire                                rx_tail_active,
    output wire                                active,
    output wire                                error
);
  wire tx_setup_busy, tx_delay_busy, tx_dma_busy, tx_error;
  wire rx_busy, rx_setup_busy, rx_tail_wait, rx_error;
  wire rec_bad;
  wire [3:0] rx_lane;

  ni_dma_tx tx (
      .clk(clk),
      .rst(rst),
      .ce(tx_ce),
      .cfg_dma_shift(cfg_dma_shift),
      .cmd_valid(tx_cmd_valid),
      .cmd_setup_cycles(tx_cmd_setup_cycles),
      .cmd_route(tx_cmd_route),
      .cmd_src_node(tx_cmd_src_node),
      .cmd_seq(tx_cmd_seq),
      .cmd_first(tx_cmd_first),
      .cmd_last(tx_cmd_last),
      .cmd_hdr_bytes(tx_cmd_hdr_bytes),
      .cmd_header(tx_cmd_header),
      .cmd_body_bytes(tx_cmd_body_bytes),
      .cmd_offset(tx_cmd_offset),
      .cmd_frag_addr(tx_cmd_frag_addr),
      .cmd_frag_bytes(tx_cmd_frag_bytes),
      .mem_rd_addr(mem_rd_addr),
      .mem_rd_en(mem_rd_en),
      .mem_rd_data(mem_rd_data),
      .offer_valid(tx_offer_valid),
      .offer_route(tx_offer_route),
      .offer_length(tx_offer_length),
      .offer_taken(tx_offer_taken),
      .head_we(tx_head_we),
      .head_words(tx_head_words),
      .head_count(tx_head_count),
      .body_we(tx_body_we),
      .body_index(tx_body_index),
      .body_word(tx_body_word),
      .setup_busy(tx_setup_busy),
      .delay_busy(tx_delay_busy),
      .dma_busy(tx_dma_busy),
      .active(tx_active),
      .error(tx_error)
  );

  ni_dma_rx rx (
      .clk(clk),
      .rst(rst),
      .ce(rx_ce),
      .tail_ce(rx_tail_ce),
      .cfg_dma_shift(cfg_dma_shift),
      .cfg_setup_cycles(cfg_packet_setup_cycles),
      .load_valid(rx_load_valid),
      .load_addr(rx_load_addr),
      .load_bytes(rx_load_bytes),
      .load_start(rx_load_start),
      .load_arrived(rx_load_arrived),
      .tail_valid(rx_tail_valid),
      .frag_rd_offset(rx_frag_rd_offset),
      .frag_rd_en(rx_frag_rd_en),
      .frag_rd_data(rx_frag_rd_data),
      .mem_wr_en(mem_wr_en),
      .mem_wr_addr(mem_wr_addr),
      .mem_wr_data(mem_wr_data),
      .mem_wr_bytes(mem_wr_bytes),
      .done(rx_done),
      .busy(rx_busy),
      .setup_busy(rx_setup_busy),
      .tail_wait(rx_tail_wait),
      .active(rx_active),
      .tail_active(rx_tail_active),
      .error(rx_error)
  );

  ni_dma_frame head_parser (
      .length_flit(rx_length_flit),
      .frame(rx_frame),
      .src_node(rx_src_node),
      .seq(rx_seq),
      .first(rx_first),
      .last(rx_last),
      .hdr_bytes(rx_hdr_bytes),
      .body_bytes(rx_body_bytes),
      .offset(rx_offset),
      .frag_bytes(rx_frag_bytes),
      .lane(rx_lane),
      .malformed(rx_malformed)
  );

  ni_dma_record records (
      .kind(rec_kind),
      .src_node(rec_src_node),
      .handle(rec_handle),
      .cookie(rec_cookie),
      .hdr_bytes(rec_hdr_bytes),
      .body_bytes(rec_body_bytes),
      .header(rec_header),
      .record(rec_record),
      .bad(rec_bad)
  );

  ni_dma_ctrl ctrl_regs (
      .clk(clk),
      .rst(rst),
      .reg_we(reg_we),
      .reg_addr(reg_addr),
      .reg_wdata(reg_wdata),
      .rx_records(st_rx_records),
      .tx_done_waiting(st_tx_done_waiting),
      .tx_space(st_tx_space),
      .ctrl(ctrl),
      .irq_rx(irq_rx),
      .irq_tx(irq_tx)
  );

  assign busy = {rx_tail_wait, rx_busy && !rx_setup_busy && !rx_tail_wait, rx_setup_busy,
                 tx_offer_valid, tx_dma_busy, tx_delay_busy, tx_setup_busy};
  assign active = tx_active || rx_active || rx_tail_active;
  assign error = tx_error || rx_error || (rec_valid && rec_bad);
  wire unused = &{1'b0, rx_lane};
endmodule
