// fixed_maxpool2d: 2-D max pooling (torch.nn.MaxPool2d, dilation 1, padding,
// floor or ceil mode) on a stream of fixed-point images.
//
// Function: for every input image x[CHANNELS][IN_HEIGHT][IN_WIDTH] (streamed in
//   row-major order: channel, row, column; PARALLELISM words per beat, word 0
//   in the low bits), emits y[CHANNELS][OH][OW] in the same order, with
//     OH = OUT_HEIGHT, OW = OUT_WIDTH (PyTorch's rule, computed by the
//       exporter: (IN_HEIGHT + 2*PADDING - KERNEL_H) / STRIDE rounded down,
//       or up in ceil mode, plus 1; in ceil mode the last window starts
//       inside the image or the top/left padding)
//     y[c][oy][ox] = max x[c][oy*STRIDE+ky-PADDING][ox*STRIDE+kx-PADDING]
//                    over the taps (ky, kx) inside the image
//   (padding, and in ceil mode the part of a window past the bottom/right
//   edge, is ignored; every window has a tap inside the image; signed
//   comparison; exact, same format <DATA_WIDTH, FRAC_WIDTH>).
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only), PARALLELISM (divides the
//   input and output element counts), CHANNELS, IN_HEIGHT, IN_WIDTH, KERNEL_H,
//   KERNEL_W, STRIDE, PADDING, OUT_HEIGHT, OUT_WIDTH.
// Implementation: fixed_window_scan buffers the whole image (each beat is
//   taken, then written one word per cycle), then visits one window tap per
//   cycle, then holds each output beat until taken; this module holds the
//   running maximum. Not pipelined. The scan checks the parameters.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), with
//   NIN = CHANNELS*IN_HEIGHT*IN_WIDTH, NOUT = CHANNELS*OH*OW, P = PARALLELISM:
//     T = NIN/P * (1 + P) + NOUT * KERNEL_H*KERNEL_W + NOUT/P
//   (fixed_window_scan: padding taps are visited too). An image whose first
//   input beat moves on clock edge t0 has its last output beat move on edge
//   t0 + T - 1; the initiation interval is also T.
module fixed_maxpool2d #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int CHANNELS    = 2,
  parameter int IN_HEIGHT   = 4,
  parameter int IN_WIDTH    = 4,
  parameter int KERNEL_H    = 2,
  parameter int KERNEL_W    = 2,
  parameter int STRIDE      = 2,
  parameter int PADDING     = 0,
  parameter int OUT_HEIGHT  = 2,
  parameter int OUT_WIDTH   = 2
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

  // The tap being visited (fixed_window_scan): channel, position in the
  // window (tap_ic is always 0: one channel per window), and the input word.
  logic           tap_valid;
  logic [CA-1:0]  tap_oc;
  logic           tap_ic;
  logic [KA-1:0]  tap_k;
  logic [W-1:0]   x_word;
  logic           x_in;

  logic [W-1:0]   acc;
  logic [W-1:0]   acc_next;
  logic [W-1:0]   y_word;
  logic           first_tap;

  logic [W-1:0]   acc_base;
  assign first_tap = (tap_ic == 1'b0) && (tap_k == '0);
  // Signed maximum over the taps inside the image: a window starts from the
  // most negative word, which any tap inside the image replaces or equals.
  assign acc_base  = first_tap ? {1'b1, {(W - 1){1'b0}}} : acc;
  assign acc_next  = (x_in && $signed(x_word) > $signed(acc_base)) ? x_word : acc_base;
  assign y_word    = acc_next;

  always_ff @(posedge clk) begin
    if (tap_valid) acc <= acc_next;
  end

  // Each channel is pooled alone: the tap of output channel c reads channel c.
  fixed_window_scan #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM),
    .IN_CHANNELS(C), .OUT_CHANNELS(C), .WINDOW_CHANNELS(1),
    .IN_HEIGHT(IN_HEIGHT), .IN_WIDTH(IN_WIDTH), .KERNEL_H(KERNEL_H), .KERNEL_W(KERNEL_W),
    .STRIDE(STRIDE), .PADDING(PADDING), .OUT_HEIGHT(OUT_HEIGHT), .OUT_WIDTH(OUT_WIDTH)
  ) u_scan (
    .clk(clk), .rst(rst),
    .data_in_0(data_in_0), .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready),
    .tap_valid(tap_valid), .tap_oc(tap_oc), .tap_ic(tap_ic), .tap_k(tap_k),
    .tap_ch(tap_oc), .tap_word(x_word), .tap_in(x_in), .win_result(y_word)
  );
endmodule
