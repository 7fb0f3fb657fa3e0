// Synchronous first-in first-out buffer with show-ahead output: `head` is the
// oldest entry whenever `empty` is low. A push and a pop in the same cycle are
// allowed, also when full (the pop frees the slot the push takes). A push into a
// full buffer or a pop from an empty one is dropped and raises the sticky
// `error` output (the router's and DMA engine's internal checks report it).
module sync_fifo #(
    parameter integer WIDTH = 32,
    parameter integer DEPTH = 4,
    parameter integer AW = (DEPTH > 1) ? $clog2(DEPTH) : 1,
    parameter integer CW = $clog2(DEPTH + 1)
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             push,
    input  wire [WIDTH-1:0] push_data,
    input  wire             pop,
    output wire [WIDTH-1:0] head,
    output wire             empty,
    output wire             full,
    output reg  [CW-1:0]    count,
    output reg              error
);
  reg [WIDTH-1:0] mem[0:DEPTH-1];
  reg [AW-1:0] rd;
  reg [AW-1:0] wr;

  wire do_pop = pop && !empty;
  wire do_push = push && (!full || do_pop);

  assign empty = count == {CW{1'b0}};
  assign full = count == CW'(DEPTH);
  assign head = mem[rd];

  function automatic [AW-1:0] next_index(input [AW-1:0] i);
    next_index = (i == AW'(DEPTH - 1)) ? {AW{1'b0}} : i + 1'b1;
  endfunction

  always @(posedge clk) begin
    if (rst) begin
      rd <= {AW{1'b0}};
      wr <= {AW{1'b0}};
      count <= {CW{1'b0}};
      error <= 1'b0;
    end else begin
      if (do_push) begin
        mem[wr] <= push_data;
        wr <= next_index(wr);
      end
      if (do_pop) rd <= next_index(rd);
      if (do_push && !do_pop) count <= count + 1'b1;
      else if (do_pop && !do_push) count <= count - 1'b1;
      if ((push && !do_push) || (pop && !do_pop)) error <= 1'b1;
    end
  end
endmodule
