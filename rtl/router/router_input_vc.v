// One input virtual channel of the router: its flit buffer, the route of the
// packet at its front, and the state of that packet (docs/network.md, "Timing
// contract", conditions 1 to 3).
//
// * A head requests its output VC once it is at the front of the buffer and has
//   spent router_delay - 1 cycles in it after its arrival (the first cycle it is
//   in the buffer counts; a head that waited behind another packet's tail is
//   older). The flits that arrived in the last router_delay - 1 cycles are the
//   newest entries of the buffer, so the front is ready when the buffer holds
//   more entries than arrived in that window.
// * Once granted, the VC sends its flits to that output VC; the tail frees it.
// * A tail sent to the ejection channel may be refused by the endpoint (input
//   `refuse`, sampled at the edge of the cycle it crosses): it is then held here,
//   its buffer slot's credit withheld, until `ej_hold` falls and it crosses again.
// * Credits: one per flit that leaves the buffer, registered (the downstream half
//   of the credit loop); a held tail's credit goes when it is finally accepted.
// * `error` (sticky): FIFO overflow or underflow, a head arriving inside a packet
//   or a body flit outside one (a flit on a VC its packet does not own), more
//   flits than buffer_flits in the buffer (credit protocol broken), a send
//   without a flit or without the VC.
//
// Entry format: {lane, tail, head, data[31:0]}; `lane` is the packet's VC lane
// within its class (on links: the VC number mod VCS).
`include "hw_packet.vh"

module router_input_vc #(
    parameter integer VCS = 1,
    parameter integer BMAX = 16,
    parameter integer RMAX = 16,
    parameter integer V = 2 * VCS,
    parameter integer OW = $clog2(4 * V + 1),
    parameter integer LW = (VCS > 1) ? $clog2(VCS) : 1,
    parameter integer CW = $clog2(BMAX + 1),
    parameter integer RW = $clog2(RMAX + 1),
    parameter integer EW = 34 + LW
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [7:0]    cfg_width,
    input  wire [7:0]    cfg_height,
    input  wire [7:0]    cfg_x,
    input  wire [7:0]    cfg_y,
    input  wire [CW-1:0] cfg_buffer_flits,
    input  wire [RW-1:0] cfg_router_delay,
    input  wire          push,
    input  wire [EW-1:0] push_entry,
    input  wire          grant,
    input  wire          send,
    input  wire          refuse,
    input  wire          ej_hold,
    output wire          req,
    output wire [OW-1:0] route_ovc,
    output wire          eff_act,
    output wire [OW-1:0] eff_ovc,
    output wire          can_go,
    output wire [33:0]   flit,
    output reg           credit,
    output reg           credit_tail,
    output reg           error,
    output wire          busy,    // holds a flit, a packet's VC, or recent history
    output wire [31:0]   head_wait // with a head sent: cycles it waited since it was ready
);
  localparam [OW-1:0] EJECT = OW'(4 * V);
  localparam integer HW = (RMAX > 2) ? RMAX - 1 : 1;

  wire [EW-1:0] head_entry;
  wire empty;
  wire full;
  wire [CW-1:0] count;
  wire fifo_error;

  reg act;               // the packet at the front owns output VC `ovc`
  reg [OW-1:0] ovc;
  reg gone;              // its tail was refused by the endpoint and is held in `hold`
  reg [33:0] hold;
  reg in_pkt;            // arrivals: between a head and its tail
  reg [HW-1:0] hist;     // hist[k]: a flit arrived at the edge k + 1 cycles ago
  reg [CW-1:0] young;
  reg [31:0] waited;     // statistics: cycles the front head has been ready so far

  wire pop = send && !gone;

  sync_fifo #(.WIDTH(EW), .DEPTH(BMAX)) buffer (
      .clk(clk), .rst(rst), .push(push), .push_data(push_entry), .pop(pop),
      .head(head_entry), .empty(empty), .full(full), .count(count), .error(fifo_error));

  // Arrivals of the last router_delay - 1 cycles.
  // Only the last router_delay - 1 cycles count; older history is never looked
  // at (nor kept busy for), so a stopped clock changes nothing.
  integer k;
  reg [HW-1:0] recent;
  always @* begin
    young = {CW{1'b0}};
    for (k = 0; k < HW; k = k + 1) begin
      recent[k] = k + 1 < {{(32 - RW) {1'b0}}, cfg_router_delay} && hist[k];
      if (recent[k]) young = young + 1'b1;
    end
  end

  wire front_head = !empty && head_entry[32];
  wire aged = count > young;
  assign req = !act && front_head && aged;

  wire [2:0] out_port;
  wire vc_class;
  route_compute route (
      .cfg_width(cfg_width), .cfg_height(cfg_height), .here_x(cfg_x), .here_y(cfg_y),
      .dest_x(head_entry[`HW_ROUTE_DEST_X_LSB+:`HW_ROUTE_DEST_X_WIDTH]), .dest_y(head_entry[`HW_ROUTE_DEST_Y_LSB+:`HW_ROUTE_DEST_Y_WIDTH]),
      .src_x(head_entry[`HW_ROUTE_SRC_X_LSB+:`HW_ROUTE_SRC_X_WIDTH]), .src_y(head_entry[`HW_ROUTE_SRC_Y_LSB+:`HW_ROUTE_SRC_Y_WIDTH]),
      .out_port(out_port), .vc_class(vc_class));
  wire [LW-1:0] lane = head_entry[EW-1:34];
  assign route_ovc = (out_port == 3'd4) ? EJECT
                   : OW'(out_port) * OW'(V) + (vc_class ? OW'(VCS) : {OW{1'b0}}) + OW'(lane);

  assign eff_act = act || grant;
  assign eff_ovc = act ? ovc : route_ovc;
  assign flit = gone ? hold : head_entry[33:0];
  assign can_go = eff_act && (gone ? !ej_hold : !empty);

  // Statistics (docs/network.md, head-wait cycles): a head is ready from the first
  // cycle it may request its VC until it crosses.
  wire head_ready = front_head && aged && !gone;
  assign head_wait = waited;

  wire is_tail = flit[33];
  wire refused = send && is_tail && eff_ovc == EJECT && refuse;
  wire [CW:0] occupancy = {1'b0, count} + {{CW{1'b0}}, gone} + {{CW{1'b0}}, push}
                        - {{CW{1'b0}}, pop};
  wire bad_arrival = push && (push_entry[32] ? in_pkt : !in_pkt);

  always @(posedge clk) begin
    if (rst) begin
      act <= 1'b0;
      ovc <= {OW{1'b0}};
      gone <= 1'b0;
      hold <= 34'd0;
      in_pkt <= 1'b0;
      hist <= {HW{1'b0}};
      credit <= 1'b0;
      credit_tail <= 1'b0;
      error <= 1'b0;
      waited <= 32'd0;
    end else begin
      if (send && flit[32]) waited <= 32'd0;
      else if (head_ready && waited != 32'hffffffff) waited <= waited + 32'd1;
      hist <= HW'({hist, push});
      if (push) in_pkt <= !push_entry[33];
      ovc <= eff_ovc;
      act <= eff_act;
      credit <= 1'b0;
      credit_tail <= 1'b0;
      if (send) begin
        if (refused) begin
          gone <= 1'b1;
          hold <= flit;
        end else begin
          gone <= 1'b0;
          credit <= 1'b1;
          credit_tail <= is_tail;
          if (is_tail) act <= 1'b0;
        end
      end
      if (fifo_error || bad_arrival || occupancy > {1'b0, cfg_buffer_flits}
          || (send && !can_go)) error <= 1'b1;
    end
  end

  assign busy = act || gone || !empty || |recent || credit;
  wire unused = full;
endmodule
