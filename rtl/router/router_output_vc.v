// One output virtual channel: who owns it, its VC allocator, and (on links and
// the injection channel) the credits of the buffer at its far end
// (docs/network.md, "Timing contract", conditions 2 and 3).
//
// * VC allocation: a free VC goes to the requester after the one granted last
//   (round robin over the requesters' input (port, VC) numbers, rr_arbiter); the
//   grant is combinational, so the winner may send in the same cycle.
// * Release: with tail_credit (cfg_tail_sent = 0) when the credit of its packet's
//   tail comes back (free in the cycle the credit is usable); with tail_sent the
//   cycle after the tail crossed. The ejection VC (CREDITS = 0) is freed by the
//   endpoint's acceptance of the tail (`refuse` low at the tail's edge).
// * Credits: the counter starts at buffer_flits; a credit that arrives is usable
//   in the cycle it arrives (the wire delay is upstream of this input).
// * `error` (sticky): a send without a credit or without owning the VC, more
//   credits than buffer slots, a tail credit for a VC nobody owns.
module router_output_vc #(
    parameter integer NREQ = 9,
    parameter integer CREDITS = 1,
    parameter integer BMAX = 16,
    parameter integer CW = $clog2(BMAX + 1),
    parameter integer IW = (NREQ > 1) ? $clog2(NREQ) : 1
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [CW-1:0]   cfg_buffer_flits,
    input  wire            cfg_tail_sent,
    input  wire [NREQ-1:0] req,
    input  wire            cr_valid,
    input  wire            cr_tail,
    input  wire            send,
    input  wire            send_tail,
    input  wire            refuse,
    output wire [NREQ-1:0] grant,
    output wire            grant_any,
    output wire            credit_ok,
    output reg             error,
    output wire            busy   // owned, or credits still out
);
  reg own;
  reg [CW-1:0] count;

  wire credits = CREDITS != 0;
  wire rel = credits && !cfg_tail_sent && cr_valid && cr_tail && own;
  wire free = !own || rel;
  wire [IW-1:0] unused_grant_idx;

  rr_arbiter #(.N(NREQ)) allocator (
      .clk(clk), .rst(rst), .req(req & {NREQ{free}}), .advance(1'b1), .grant(grant),
      .grant_idx(unused_grant_idx), .any(grant_any));

  wire [CW:0] avail = {1'b0, count} + {{CW{1'b0}}, cr_valid};
  wire [CW:0] after = avail - {{CW{1'b0}}, send};
  assign credit_ok = !credits || avail != {(CW + 1) {1'b0}};
  wire release_on_send = credits ? cfg_tail_sent : !refuse;

  assign busy = own || (credits && count != cfg_buffer_flits);

  always @(posedge clk) begin
    if (rst) begin
      own <= 1'b0;
      count <= cfg_buffer_flits;
      error <= 1'b0;
    end else begin
      if (grant_any) own <= 1'b1;
      else if (rel || (send && send_tail && release_on_send)) own <= 1'b0;
      if (credits) count <= after[CW-1:0];
      if ((send && (!credit_ok || !(own || grant_any)))
          || (credits && after > {1'b0, cfg_buffer_flits})
          || (credits && !cfg_tail_sent && cr_valid && cr_tail && !own)) error <= 1'b1;
    end
  end
endmodule
