// Switch and link allocation (docs/network.md, "Timing contract", rule 4). Every
// input VC whose packet may send its next flit this cycle (`cand`, conditions 1
// to 3 met) competes for the output channel of the output VC it owns. Per cycle:
//   1. a channel whose previous-cycle flit was not a tail stays with that packet
//      if it is a candidate again (a stalled worm yields; a new packet on the same
//      VC does not inherit it: only a tail ends a packet's hold on its VC);
//   2. with input speedup only: each input port not left by a packet kept in
//      step 1 puts forward one candidate among its VCs, the first after the VC
//      whose flit left the port last, among those whose channel was not kept;
//   3. each channel not kept takes the first remaining candidate after the output
//      VC that crossed it last.
// Output channels: 0..3 the links E, W, N, S (V VCs each, output VC o * V + k),
// 4 the ejection channel (one VC, number 4 * V). Input VCs are numbered the same
// way (input port p, VC v: p * V + v; the local input is 4 * V).
module router_switch_alloc #(
    parameter integer VCS = 1,
    parameter integer V = 2 * VCS,
    parameter integer N = 4 * V + 1,
    parameter integer OW = $clog2(4 * V + 1),
    parameter integer VW = (V > 1) ? $clog2(V) : 1
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            cfg_input_speedup,
    input  wire [N-1:0]    cand,
    input  wire [N*OW-1:0] ovc,      // per input VC: the output VC it owns
    input  wire [N-1:0]    tail,     // per input VC: its next flit is a tail
    output reg  [N-1:0]    send,     // per input VC: its flit crosses this cycle
    output reg  [4:0]      ch_valid, // per channel: a flit crosses
    output reg  [5*OW-1:0] ch_src,   // per channel: the input VC it comes from
    output wire            busy      // a flit crossed in the previous cycle
);
  reg [4:0] sent_valid;
  reg [4:0] sent_tail;
  reg [5*OW-1:0] sent_ovc;

  function automatic integer chan_of(input integer j);
    chan_of = (j >= 4 * V) ? 4 : j / V;
  endfunction

  reg [4:0] keep;
  reg [5*OW-1:0] keep_src;
  reg [4:0] port_busy;
  reg [N-1:0] cand2;
  reg [N-1:0] final_cand;
  reg [4*V-1:0] port_req;
  wire [4*V-1:0] port_grant;
  wire [3:0] port_advance;
  reg [4*V-1:0] chan_req;
  wire [4*V-1:0] chan_grant;
  wire [3:0] unused_chan_any;
  wire [3:0] unused_port_any;
  wire [4*VW-1:0] unused_chan_idx;
  wire [4*VW-1:0] unused_port_idx;
  integer i;
  integer o;
  integer k;

  genvar g;
  generate
    for (g = 0; g < 4; g = g + 1) begin : g_link
      rr_arbiter #(.N(V)) chan_arb (
          .clk(clk), .rst(rst), .req(chan_req[g*V+:V]), .advance(1'b1),
          .grant(chan_grant[g*V+:V]), .grant_idx(unused_chan_idx[g*VW+:VW]),
          .any(unused_chan_any[g]));
      rr_arbiter #(.N(V)) port_arb (
          .clk(clk), .rst(rst), .req(port_req[g*V+:V]), .advance(port_advance[g]),
          .grant(port_grant[g*V+:V]), .grant_idx(unused_port_idx[g*VW+:VW]),
          .any(unused_port_any[g]));
    end
  endgenerate

  // The output VC of input VC i, as an integer.
  function automatic integer ovc_of(input [N*OW-1:0] all, input integer which);
    ovc_of = {{(32 - OW) {1'b0}}, all[which*OW+:OW]};
  endfunction

  // Step 1: the packets that keep their channel; the input ports they leave.
  always @* begin
    keep = 5'd0;
    keep_src = {5 * OW{1'b0}};
    port_busy = 5'd0;
    for (o = 0; o < 5; o = o + 1)
      for (i = 0; i < N; i = i + 1)
        if (sent_valid[o] && !sent_tail[o] && cand[i] && ovc[i*OW+:OW] == sent_ovc[o*OW+:OW]) begin
          keep[o] = 1'b1;
          keep_src[o*OW+:OW] = OW'(i);
          port_busy[chan_of(i)] = 1'b1;
        end
    for (i = 0; i < N; i = i + 1) cand2[i] = cand[i] && !keep[chan_of(ovc_of(ovc, i))];
    for (i = 0; i < 4 * V; i = i + 1) port_req[i] = cand2[i] && !port_busy[i/V];
  end

  // Step 2: one candidate per input port (input speedup only).
  always @* begin
    if (cfg_input_speedup) final_cand = {cand2[N-1] && !port_busy[4], port_grant};
    else final_cand = cand2;
    chan_req = {4 * V{1'b0}};
    for (k = 0; k < N; k = k + 1)
      if (final_cand[k] && ovc_of(ovc, k) < 4 * V) chan_req[ovc_of(ovc, k)] = 1'b1;
  end

  // Step 3: each channel not kept takes the next candidate after its last VC.
  integer c;
  integer j;
  always @* begin
    send = {N{1'b0}};
    ch_valid = keep;
    ch_src = keep_src;
    for (j = 0; j < N; j = j + 1) begin
      c = chan_of(ovc_of(ovc, j));
      if (keep[c] && keep_src[c*OW+:OW] == OW'(j)) send[j] = 1'b1;
      if (final_cand[j] && (c == 4 || chan_grant[ovc_of(ovc, j)])) begin
        send[j] = 1'b1;
        ch_valid[c] = 1'b1;
        ch_src[c*OW+:OW] = OW'(j);
      end
    end
  end

  // The port pointer follows the VC that left the port (with speedup only its pick
  // can; without it the pointer is never used).
  genvar p;
  generate
    for (p = 0; p < 4; p = p + 1) begin : g_port_advance
      assign port_advance[p] = |(port_grant[p*V+:V] & send[p*V+:V]);
    end
  endgenerate

  assign busy = |sent_valid;

  always @(posedge clk) begin
    if (rst) begin
      sent_valid <= 5'd0;
      sent_tail <= 5'd0;
      sent_ovc <= {5 * OW{1'b0}};
    end else begin
      for (o = 0; o < 5; o = o + 1) begin
        sent_valid[o] <= ch_valid[o];
        sent_tail[o] <= tail[ch_src[o*OW+:OW]];
        sent_ovc[o*OW+:OW] <= ovc[ch_src[o*OW+:OW]*OW+:OW];
      end
    end
  end

endmodule
