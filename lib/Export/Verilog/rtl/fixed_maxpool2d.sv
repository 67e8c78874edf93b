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
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only), PARALLELISM (words per
//   beat and channels pooled in parallel; divides CHANNELS), CHANNELS,
//   IN_HEIGHT, IN_WIDTH, KERNEL_H, KERNEL_W, STRIDE, PADDING, OUT_HEIGHT, OUT_WIDTH.
// Implementation: fixed_window_scan buffers the whole image (one beat per
//   cycle), then visits one window tap per cycle in PARALLELISM channels at
//   once (padding taps included, and ignored here), then emits each block of
//   P channels, each output beat held until taken; this module holds the P
//   running maxima. Not pipelined. The scan checks the parameters.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), with
//   NIN = CHANNELS*IN_HEIGHT*IN_WIDTH, OHW = OH*OW, P = PARALLELISM:
//     T = NIN/P + CHANNELS/P * OHW * (KERNEL_H*KERNEL_W + 1)
//   An image whose first input beat moves on clock edge t0 has its last output
//   beat move on edge t0 + T - 1, and the next image's first beat can move on
//   edge t0 + T: the initiation interval is also T.
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
  localparam int P    = PARALLELISM;

  // The tap being visited (fixed_window_scan): the same position in P
  // channels, lane j in bits [j*W +: W].
  logic           tap_valid;
  logic           tap_first;
  logic           tap_in;
  logic [P*W-1:0] x_words;
  logic [P*W-1:0] y_words;

  genvar gj;
  generate
    for (gj = 0; gj < P; gj++) begin : g_lane
      logic [W-1:0] x_word;
      logic [W-1:0] acc;
      logic [W-1:0] acc_base;
      logic [W-1:0] acc_next;
      assign x_word   = x_words[gj*W +: W];
      // Signed maximum over the taps inside the image: a window starts from
      // the most negative word, which any tap inside the image replaces or equals.
      assign acc_base = tap_first ? {1'b1, {(W - 1){1'b0}}} : acc;
      assign acc_next = (tap_in && $signed(x_word) > $signed(acc_base)) ? x_word : acc_base;
      assign y_words[gj*W +: W] = acc_next;
      always_ff @(posedge clk) begin
        if (tap_valid) acc <= acc_next;
      end
    end
  endgenerate

  fixed_window_scan #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM),
    .CHANNELS(CHANNELS), .IN_HEIGHT(IN_HEIGHT), .IN_WIDTH(IN_WIDTH),
    .KERNEL_H(KERNEL_H), .KERNEL_W(KERNEL_W), .STRIDE(STRIDE), .PADDING(PADDING),
    .OUT_HEIGHT(OUT_HEIGHT), .OUT_WIDTH(OUT_WIDTH)
  ) u_scan (
    .clk(clk), .rst(rst),
    .data_in_0(data_in_0), .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready),
    .tap_valid(tap_valid), .tap_first(tap_first), .tap_in(tap_in),
    .tap_words(x_words), .win_results(y_words)
  );
endmodule
