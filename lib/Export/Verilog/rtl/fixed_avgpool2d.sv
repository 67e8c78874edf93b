// fixed_avgpool2d: 2-D average pooling (torch.nn.AvgPool2d, no padding,
// floor mode) and, with KERNEL_H = IN_HEIGHT and KERNEL_W = IN_WIDTH, the mean
// over H and W (AdaptiveAvgPool2d(1), x.mean((2, 3))), on a stream of
// fixed-point images.
//
// Function: for every input image x[CHANNELS][IN_HEIGHT][IN_WIDTH] (streamed in
//   row-major order: channel, row, column; PARALLELISM words per beat, word 0
//   in the low bits), emits y[CHANNELS][OH][OW] in the same order, with
//     OH = (IN_HEIGHT - KERNEL_H) / STRIDE + 1   (same for OW)
//     n  = KERNEL_H * KERNEL_W
//     s  = sum_{ky,kx} x[c][oy*STRIDE+ky][ox*STRIDE+kx]      (exact)
//     R  = floor((2^RECIP_FRAC + floor(n/2)) / n)            (1/n, RECIP_FRAC fraction bits)
//     y[c][oy][ox] = sat(rne(s * R / 2^RECIP_FRAC))            (docs/Hardware.md)
//   x and y are <DATA_WIDTH, FRAC_WIDTH>.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only), PARALLELISM (divides the
//   input and output element counts), CHANNELS, IN_HEIGHT, IN_WIDTH, KERNEL_H,
//   KERNEL_W, STRIDE, RECIP_FRAC (fraction bits of 1/n, 1..30, default 16).
// Implementation: fixed_window_scan buffers the whole image (each beat is
//   taken, then written one word per cycle), then visits one window tap per
//   cycle, then holds each output beat until taken; this module holds the
//   running window sum. Not pipelined. The scan checks the parameters, this
//   module RECIP_FRAC.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Latency per image: (1 + PARALLELISM) cycles per input beat, then
//   CHANNELS*OH*OW*KERNEL_H*KERNEL_W tap cycles interleaved with the output
//   beats (each at least one cycle).
module fixed_avgpool2d #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int CHANNELS    = 2,
  parameter int IN_HEIGHT   = 4,
  parameter int IN_WIDTH    = 4,
  parameter int KERNEL_H    = 2,
  parameter int KERNEL_W    = 2,
  parameter int STRIDE      = 2,
  parameter int RECIP_FRAC  = 16
) (
  input  logic                              clk,
  input  logic                              rst,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] data_in_0,
  input  logic                              data_in_0_valid,
  output logic                              data_in_0_ready,
  output logic [DATA_WIDTH*PARALLELISM-1:0] data_out_0,
  output logic                              data_out_0_valid,
  input  logic                              data_out_0_ready
);
  localparam int W    = DATA_WIDTH;
  localparam int C    = CHANNELS;
  localparam int KK   = KERNEL_H * KERNEL_W;
  localparam int CA   = (C  > 1) ? $clog2(C)  : 1;
  localparam int KA   = (KK > 1) ? $clog2(KK) : 1;
  localparam int ACC  = W + $clog2(KK + 1);         // window sum, exact
  localparam int RW   = RECIP_FRAC + 2;             // R as a non-negative signed number
  localparam int PW   = ACC + RW;                   // s * R, exact
  localparam logic [RW-1:0] RECIP = RW'(((1 << RECIP_FRAC) + KK / 2) / KK);

  generate
    if (RECIP_FRAC < 1 || RECIP_FRAC > 30) begin : g_bad_params
      initial $display("ERROR: fixed_avgpool2d: need 1 <= RECIP_FRAC <= 30");
    end
  endgenerate

  // The tap being visited (fixed_window_scan): channel, position in the
  // window (tap_ic is always 0: one channel per window), and the input word.
  logic           tap_valid;
  logic [CA-1:0]  tap_oc;
  logic           tap_ic;
  logic [KA-1:0]  tap_k;
  logic [W-1:0]   x_word;
  logic           x_in;   // always high: no padding

  logic [ACC-1:0] acc;
  logic [ACC-1:0] acc_next;
  logic [W-1:0]   y_word;
  logic           first_tap;
  logic [PW-1:0]  scaled;

  assign first_tap = (tap_ic == 1'b0) && (tap_k == '0);
  assign acc_next  = (first_tap ? '0 : acc) + (x_in ? {{(ACC - W){x_word[W-1]}}, x_word} : '0);
  assign scaled    = {{RW{acc_next[ACC-1]}}, acc_next} * {{ACC{1'b0}}, RECIP};
  fixed_round_sat #(.IN_WIDTH(PW), .SHIFT(RECIP_FRAC), .OUT_WIDTH(W)) u_rs (
    .data_in(scaled), .data_out(y_word));

  always_ff @(posedge clk) begin
    if (tap_valid) acc <= acc_next;
  end

  // Each channel is pooled alone: the tap of output channel c reads channel c.
  fixed_window_scan #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM),
    .IN_CHANNELS(C), .OUT_CHANNELS(C), .WINDOW_CHANNELS(1),
    .IN_HEIGHT(IN_HEIGHT), .IN_WIDTH(IN_WIDTH), .KERNEL_H(KERNEL_H), .KERNEL_W(KERNEL_W),
    .STRIDE(STRIDE), .PADDING(0),
    .OUT_HEIGHT((IN_HEIGHT - KERNEL_H) / STRIDE + 1), .OUT_WIDTH((IN_WIDTH - KERNEL_W) / STRIDE + 1)
  ) u_scan (
    .clk(clk), .rst(rst),
    .data_in_0(data_in_0), .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready),
    .tap_valid(tap_valid), .tap_oc(tap_oc), .tap_ic(tap_ic), .tap_k(tap_k),
    .tap_ch(tap_oc), .tap_word(x_word), .tap_in(x_in), .win_result(y_word)
  );
endmodule
