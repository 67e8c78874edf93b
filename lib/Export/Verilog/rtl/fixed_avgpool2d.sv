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
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only), PARALLELISM (words per
//   beat and channels pooled in parallel; divides CHANNELS), CHANNELS,
//   IN_HEIGHT, IN_WIDTH, KERNEL_H, KERNEL_W, STRIDE, RECIP_FRAC (fraction
//   bits of 1/n, 1..30, default 16).
// Implementation: fixed_window_scan buffers the whole image (one beat per
//   cycle), then visits one window tap per cycle in PARALLELISM channels at
//   once, then emits each block of P channels, each output beat held until
//   taken; this module holds the P running window sums. Not pipelined. The
//   scan checks the parameters, this module RECIP_FRAC.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), with
//   NIN = CHANNELS*IN_HEIGHT*IN_WIDTH, OHW = OH*OW, P = PARALLELISM:
//     T = NIN/P + CHANNELS/P * OHW * (KERNEL_H*KERNEL_W + 1)
//   An image whose first input beat moves on clock edge t0 has its last output
//   beat move on edge t0 + T - 1, and the next image's first beat can move on
//   edge t0 + T: the initiation interval is also T.
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
  localparam int P    = PARALLELISM;
  localparam int KK   = KERNEL_H * KERNEL_W;
  localparam int ACC  = W + $clog2(KK + 1);         // window sum, exact
  localparam int RW   = RECIP_FRAC + 2;             // R as a non-negative signed number
  localparam int PW   = ACC + RW;                   // s * R, exact
  localparam logic [RW-1:0] RECIP = RW'(((1 << RECIP_FRAC) + KK / 2) / KK);

  generate
    if (RECIP_FRAC < 1 || RECIP_FRAC > 30) begin : g_bad_params
      initial $display("ERROR: fixed_avgpool2d: need 1 <= RECIP_FRAC <= 30");
    end
  endgenerate

  // The tap being visited (fixed_window_scan): the same position in P
  // channels, lane j in bits [j*W +: W].
  logic           tap_valid;
  logic           tap_first;
  logic           tap_in;   // always high: no padding
  logic [P*W-1:0] x_words;
  logic [P*W-1:0] y_words;

  genvar gj;
  generate
    for (gj = 0; gj < P; gj++) begin : g_lane
      logic [W-1:0]   x_word;
      logic [ACC-1:0] acc;
      logic [ACC-1:0] acc_next;
      logic [PW-1:0]  scaled;
      assign x_word   = x_words[gj*W +: W];
      assign acc_next = (tap_first ? '0 : acc) + (tap_in ? {{(ACC - W){x_word[W-1]}}, x_word} : '0);
      assign scaled   = {{RW{acc_next[ACC-1]}}, acc_next} * {{ACC{1'b0}}, RECIP};
      fixed_round_sat #(.IN_WIDTH(PW), .SHIFT(RECIP_FRAC), .OUT_WIDTH(W)) u_rs (
        .data_in(scaled), .data_out(y_words[gj*W +: W]));
      always_ff @(posedge clk) begin
        if (tap_valid) acc <= acc_next;
      end
    end
  endgenerate

  fixed_window_scan #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM),
    .CHANNELS(CHANNELS), .IN_HEIGHT(IN_HEIGHT), .IN_WIDTH(IN_WIDTH),
    .KERNEL_H(KERNEL_H), .KERNEL_W(KERNEL_W), .STRIDE(STRIDE), .PADDING(0),
    .OUT_HEIGHT((IN_HEIGHT - KERNEL_H) / STRIDE + 1), .OUT_WIDTH((IN_WIDTH - KERNEL_W) / STRIDE + 1)
  ) u_scan (
    .clk(clk), .rst(rst),
    .data_in_0(data_in_0), .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready),
    .tap_valid(tap_valid), .tap_first(tap_first), .tap_in(tap_in),
    .tap_words(x_words), .win_results(y_words)
  );
endmodule
