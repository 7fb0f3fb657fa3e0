// The wormhole router of the torus (docs/rtl.md, docs/network.md): five input
// ports (E, W, N, S: the links, named by the direction their packets travel, and
// the local input fed by the network interface), five output channels (the four
// links and the ejection channel to the network interface), 2 x VCS virtual
// channels per link (dateline class x lane), credit-based flow control, and the
// timing contract of docs/network.md cycle for cycle:
//
//   input VCs (router_input_vc: buffer, route, head readiness)
//     -> VC allocation (router_output_vc, one per output VC)
//     -> switch and link allocation (router_switch_alloc)
//     -> crossbar (router_crossbar) -> output links, ejection
//   credits come back registered from each input VC and are counted per output VC.
//
// Links are registered at the receiver: a flit on out_<d> in cycle t is in the
// neighbour's buffer from t + 1 (plus the wire delay the environment adds). Credits
// leave registered (cr_out_<d> in the cycle after the flit left) and are usable
// in the cycle they reach cr_in_<d>. A link word is {valid, vc, tail, head, data};
// a credit word {tail[V], valid[V]} (one bit per VC).
//
// Configuration inputs (cfg_*) are constant after reset: torus size and this
// router's position, buffer depth (at most BMAX), router delay (1 .. RMAX), and the
// two router policies (net.vc_realloc = tail_sent, net.input_speedup = 1).
//
// The network interface side: inj_* offers one flit per cycle, which crosses the
// injection channel in the cycle inj_ready is high; the packet's lane rides with
// it (the length flit carries it too, but the head must be routed before that
// flit may have arrived). ej_* shows the flit crossing the ejection channel (and
// ej_lane the packet's lane, for the environment's bookkeeping); the endpoint
// answers a tail with ej_refuse at that cycle's edge (refused: the tail stays in
// the router) and holds a refused tail back with ej_hold until it can take it.
//
// `error` (sticky) rises when any internal check fails: credits below zero or above
// the buffer depth, a flit on a VC its packet does not own, a FIFO overflow or
// underflow, an injection that breaks the packet framing. `busy` is low when the
// router holds nothing and a clock edge would change nothing (the environment may
// then stop its clock).
module router #(
    parameter integer VCS = 1,
    parameter integer BMAX = 16,
    parameter integer RMAX = 16,
    parameter integer V = 2 * VCS,
    parameter integer VW = (V > 1) ? $clog2(V) : 1,
    parameter integer LKW = 35 + VW,
    parameter integer CW = $clog2(BMAX + 1),
    parameter integer RW = $clog2(RMAX + 1)
) (
    input  wire           clk,
    input  wire           rst,
    input  wire [7:0]     cfg_width,
    input  wire [7:0]     cfg_height,
    input  wire [7:0]     cfg_x,
    input  wire [7:0]     cfg_y,
    input  wire [CW-1:0]  cfg_buffer_flits,
    input  wire [RW-1:0]  cfg_router_delay,
    input  wire           cfg_tail_sent,
    input  wire           cfg_input_speedup,
    input  wire [LKW-1:0] in_e,
    input  wire [LKW-1:0] in_w,
    input  wire [LKW-1:0] in_n,
    input  wire [LKW-1:0] in_s,
    output wire [LKW-1:0] out_e,
    output wire [LKW-1:0] out_w,
    output wire [LKW-1:0] out_n,
    output wire [LKW-1:0] out_s,
    input  wire [2*V-1:0] cr_in_e,
    input  wire [2*V-1:0] cr_in_w,
    input  wire [2*V-1:0] cr_in_n,
    input  wire [2*V-1:0] cr_in_s,
    output wire [2*V-1:0] cr_out_e,
    output wire [2*V-1:0] cr_out_w,
    output wire [2*V-1:0] cr_out_n,
    output wire [2*V-1:0] cr_out_s,
    input  wire           inj_valid,
    input  wire           inj_head,
    input  wire           inj_tail,
    input  wire [3:0]     inj_lane,
    input  wire [31:0]    inj_data,
    output wire           inj_ready,
    output wire           ej_valid,
    output wire           ej_head,
    output wire           ej_tail,
    output wire [31:0]    ej_data,
    output wire [3:0]     ej_lane,
    input  wire           ej_refuse,
    input  wire           ej_hold,
    output wire           error,
    output wire           busy,
    // Statistics, not hardware: with a head on a channel, the cycles it waited for
    // its VC and the channel since it was ready (docs/network.md, head-wait cycles).
    output wire [31:0]    wait_e,
    output wire [31:0]    wait_w,
    output wire [31:0]    wait_n,
    output wire [31:0]    wait_s,
    output wire [31:0]    wait_ej
);
  localparam integer N = 4 * V + 1;  // input VCs, and output VCs
  localparam integer OW = $clog2(N);
  localparam integer LW = (VCS > 1) ? $clog2(VCS) : 1;
  localparam integer EW = 34 + LW;
  localparam integer LOCAL = 4 * V;

  wire [4*LKW-1:0] in_link = {in_s, in_n, in_w, in_e};
  wire [4*2*V-1:0] cr_in = {cr_in_s, cr_in_n, cr_in_w, cr_in_e};

  // Input VCs.
  wire [N-1:0] ivc_req, ivc_grant, ivc_act, ivc_can_go, ivc_send, ivc_credit, ivc_credit_tail;
  wire [N-1:0] ivc_error, ivc_busy, ivc_cand, ivc_tail;
  wire [N*OW-1:0] ivc_route, ivc_ovc;
  wire [N*34-1:0] ivc_flit;
  wire [N*32-1:0] ivc_wait;
  wire [N-1:0] ivc_push;
  wire [N*EW-1:0] ivc_entry;
  // Output VCs (the last is the ejection VC) and the injection channel's VC.
  wire [N-1:0] ovc_credit_ok, ovc_error, ovc_busy, ovc_send, ovc_send_tail, ovc_grant_any;
  wire [N*N-1:0] ovc_req, ovc_grant;  // [j*N + i]: input VC i and output VC j
  wire inj_send, inj_grant, inj_credit_ok, inj_error, inj_busy;
  wire unused_inj_grant_any;
  reg inj_cur;  // the injection channel's VC belongs to the packet being offered

  wire [LW-1:0] inj_lane_vc = LW'(inj_lane % 4'(VCS));
  assign inj_send = inj_valid && inj_ready;
  assign inj_ready = inj_credit_ok && (inj_cur || inj_grant);

  genvar i, j;
  generate
    for (i = 0; i < N; i = i + 1) begin : g_in
      if (i < LOCAL) begin : g_link
        wire [LKW-1:0] w = in_link[(i/V)*LKW+:LKW];
        assign ivc_push[i] = w[LKW-1] && w[34+:VW] == VW'(i % V);
        assign ivc_entry[i*EW+:EW] = {LW'((i % V) % VCS), w[33:0]};
      end else begin : g_local
        assign ivc_push[i] = inj_send;
        assign ivc_entry[i*EW+:EW] = {inj_lane_vc, inj_tail, inj_head, inj_data};
      end
      assign ivc_grant[i] = |(ovc_grant_col(ovc_grant, i));
      assign ivc_cand[i] = ivc_can_go[i] && ovc_credit_ok[ivc_ovc[i*OW+:OW]];
      assign ivc_tail[i] = ivc_flit[i*34+33];
      router_input_vc #(.VCS(VCS), .BMAX(BMAX), .RMAX(RMAX)) ivc (
          .clk(clk), .rst(rst), .cfg_width(cfg_width), .cfg_height(cfg_height), .cfg_x(cfg_x),
          .cfg_y(cfg_y), .cfg_buffer_flits(cfg_buffer_flits), .cfg_router_delay(cfg_router_delay),
          .push(ivc_push[i]), .push_entry(ivc_entry[i*EW+:EW]), .grant(ivc_grant[i]),
          .send(ivc_send[i]), .refuse(ej_refuse), .ej_hold(ej_hold), .req(ivc_req[i]),
          .route_ovc(ivc_route[i*OW+:OW]), .eff_act(ivc_act[i]), .eff_ovc(ivc_ovc[i*OW+:OW]),
          .can_go(ivc_can_go[i]), .flit(ivc_flit[i*34+:34]), .credit(ivc_credit[i]),
          .credit_tail(ivc_credit_tail[i]), .error(ivc_error[i]), .busy(ivc_busy[i]),
          .head_wait(ivc_wait[i*32+:32]));
    end

    for (j = 0; j < N; j = j + 1) begin : g_out
      for (i = 0; i < N; i = i + 1) begin : g_req
        assign ovc_req[j*N+i] = ivc_req[i] && ivc_route[i*OW+:OW] == OW'(j);
      end
      wire [N-1:0] senders;
      for (i = 0; i < N; i = i + 1) begin : g_send
        assign senders[i] = ivc_send[i] && ivc_ovc[i*OW+:OW] == OW'(j);
      end
      assign ovc_send[j] = |senders;
      assign ovc_send_tail[j] = |(senders & ivc_tail);
      if (j < LOCAL) begin : g_link
        router_output_vc #(.NREQ(N), .CREDITS(1), .BMAX(BMAX)) ovc (
            .clk(clk), .rst(rst), .cfg_buffer_flits(cfg_buffer_flits),
            .cfg_tail_sent(cfg_tail_sent), .req(ovc_req[j*N+:N]), .cr_valid(cr_in[(j/V)*2*V+j%V]),
            .cr_tail(cr_in[(j/V)*2*V+V+j%V]), .send(ovc_send[j]), .send_tail(ovc_send_tail[j]),
            .refuse(1'b0), .grant(ovc_grant[j*N+:N]), .grant_any(ovc_grant_any[j]),
            .credit_ok(ovc_credit_ok[j]), .error(ovc_error[j]), .busy(ovc_busy[j]));
      end else begin : g_eject
        router_output_vc #(.NREQ(N), .CREDITS(0), .BMAX(BMAX)) ovc (
            .clk(clk), .rst(rst), .cfg_buffer_flits(cfg_buffer_flits),
            .cfg_tail_sent(cfg_tail_sent), .req(ovc_req[j*N+:N]), .cr_valid(1'b0),
            .cr_tail(1'b0), .send(ovc_send[j]), .send_tail(ovc_send_tail[j]),
            .refuse(ej_refuse), .grant(ovc_grant[j*N+:N]), .grant_any(ovc_grant_any[j]),
            .credit_ok(ovc_credit_ok[j]), .error(ovc_error[j]), .busy(ovc_busy[j]));
      end
    end
  endgenerate

  function automatic [N-1:0] ovc_grant_col(input [N*N-1:0] grants, input integer col);
    integer r;
    begin
      for (r = 0; r < N; r = r + 1) ovc_grant_col[r] = grants[r*N+col];
    end
  endfunction

  // The injection channel: one VC, requested by the head on offer, credits for the
  // local input buffer.
  router_output_vc #(.NREQ(1), .CREDITS(1), .BMAX(BMAX)) inject (
      .clk(clk), .rst(rst), .cfg_buffer_flits(cfg_buffer_flits), .cfg_tail_sent(cfg_tail_sent),
      .req(inj_valid && inj_head && !inj_cur), .cr_valid(ivc_credit[LOCAL]),
      .cr_tail(ivc_credit_tail[LOCAL]), .send(inj_send), .send_tail(inj_tail), .refuse(1'b0),
      .grant(inj_grant), .grant_any(unused_inj_grant_any), .credit_ok(inj_credit_ok), .error(inj_error),
      .busy(inj_busy));

  // Framing: a body flit only after its head crossed, a head only after the
  // previous tail did (`inj_mid` in between).
  reg inj_mid;
  reg framing_error;
  always @(posedge clk) begin
    if (rst) begin
      inj_cur <= 1'b0;
      inj_mid <= 1'b0;
      framing_error <= 1'b0;
    end else begin
      if (inj_send && inj_tail) inj_cur <= 1'b0;
      else if (inj_grant) inj_cur <= 1'b1;
      if (inj_send) inj_mid <= !inj_tail;
      if (inj_valid && (inj_head == inj_mid)) framing_error <= 1'b1;
    end
  end

  // Switch allocation and crossbar.
  wire [4:0] ch_valid;
  wire [5*OW-1:0] ch_src;
  wire [5*34-1:0] ch_flit;
  wire [5*OW-1:0] ch_ovc;
  wire [5*32-1:0] ch_wait;
  wire sa_busy;
  router_switch_alloc #(.VCS(VCS)) switch_alloc (
      .clk(clk), .rst(rst), .cfg_input_speedup(cfg_input_speedup), .cand(ivc_cand),
      .ovc(ivc_ovc), .tail(ivc_tail), .send(ivc_send), .ch_valid(ch_valid), .ch_src(ch_src),
      .busy(sa_busy));
  router_crossbar #(.N(N), .OW(OW)) crossbar (
      .in_flit(ivc_flit), .in_ovc(ivc_ovc), .in_wait(ivc_wait), .ch_src(ch_src),
      .out_flit(ch_flit), .out_ovc(ch_ovc), .out_wait(ch_wait));
  assign wait_e = ch_wait[0*32+:32];
  assign wait_w = ch_wait[1*32+:32];
  assign wait_n = ch_wait[2*32+:32];
  assign wait_s = ch_wait[3*32+:32];
  assign wait_ej = ch_wait[4*32+:32];

  // Output links: {valid, vc, flit}; the VC within the link is ovc - o * V.
  function automatic [LKW-1:0] link_word(input valid, input [OW-1:0] ovc, input integer o,
                                         input [33:0] f);
    reg [VW-1:0] vc;
    begin
      vc = VW'(ovc - OW'(o * V));
      link_word = valid ? {1'b1, vc, f} : {LKW{1'b0}};
    end
  endfunction
  assign out_e = link_word(ch_valid[0], ch_ovc[0*OW+:OW], 0, ch_flit[0*34+:34]);
  assign out_w = link_word(ch_valid[1], ch_ovc[1*OW+:OW], 1, ch_flit[1*34+:34]);
  assign out_n = link_word(ch_valid[2], ch_ovc[2*OW+:OW], 2, ch_flit[2*34+:34]);
  assign out_s = link_word(ch_valid[3], ch_ovc[3*OW+:OW], 3, ch_flit[3*34+:34]);
  assign ej_valid = ch_valid[4];
  assign ej_tail = ch_valid[4] && ch_flit[4*34+33];
  assign ej_head = ch_valid[4] && ch_flit[4*34+32];
  assign ej_data = ch_valid[4] ? ch_flit[4*34+:32] : 32'd0;
  // The lane of the ejected packet as the VC it arrived on says (0 for a packet
  // from the local input): with the route flit it names the packet's in-order
  // stream, which lets the environment match a head to its packet.
  wire [OW-1:0] ej_src = ch_src[4*OW+:OW];
  assign ej_lane = 4'((ej_src % OW'(V)) % OW'(VCS));

  // Credits back to the upstream routers: {tail bits, valid bits} per input port.
  assign cr_out_e = {ivc_credit_tail[0*V+:V] & ivc_credit[0*V+:V], ivc_credit[0*V+:V]};
  assign cr_out_w = {ivc_credit_tail[1*V+:V] & ivc_credit[1*V+:V], ivc_credit[1*V+:V]};
  assign cr_out_n = {ivc_credit_tail[2*V+:V] & ivc_credit[2*V+:V], ivc_credit[2*V+:V]};
  assign cr_out_s = {ivc_credit_tail[3*V+:V] & ivc_credit[3*V+:V], ivc_credit[3*V+:V]};

  assign error = |ivc_error || |ovc_error || inj_error || framing_error;
  assign busy = |ivc_busy || |ovc_busy || inj_busy || sa_busy || inj_cur;

  wire unused = |ovc_grant_any || |ivc_act || |ch_ovc[4*OW+:OW];
endmodule
