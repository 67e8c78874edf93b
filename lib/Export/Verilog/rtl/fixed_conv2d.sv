// fixed_conv2d: 2-D convolution (torch.nn.Conv2d, groups = 1, dilation = 1)
// on a stream of fixed-point images.
//
// Function: for every input image x[IN_CHANNELS][IN_HEIGHT][IN_WIDTH] (streamed
//   in row-major order: channel, row, column; PARALLELISM words per beat, word 0
//   in the low bits), emits y[OUT_CHANNELS][OH][OW] in the same order, with
//     OH = (IN_HEIGHT + 2*PADDING - KERNEL_H) / STRIDE + 1   (same for OW)
//     acc = (b[oc] << FRAC_WIDTH)
//           + sum_{ic,ky,kx} w[oc][ic][ky][kx] * x[ic][oy*STRIDE+ky-PADDING][ox*STRIDE+kx-PADDING]
//     (taps outside the image are zero padding and add nothing)
//     y[oc][oy][ox] = sat(rne(acc / 2^FRAC_WIDTH))           (docs/Hardware.md)
//   All tensors are <DATA_WIDTH, FRAC_WIDTH>; the accumulator has
//   2*DATA_WIDTH + clog2(IN_CHANNELS*KERNEL_H*KERNEL_W + 1) bits and never overflows.
// Weights and bias: ROMs loaded with $readmemh from WEIGHTS_FILE
//   (OUT_CHANNELS*IN_CHANNELS*KERNEL_H*KERNEL_W lines in torch order
//   [oc][ic][ky][kx]) and BIAS_FILE (OUT_CHANNELS lines); one two's-complement
//   word of DATA_WIDTH bits per line, in hex.
// Parameters: DATA_WIDTH, FRAC_WIDTH, PARALLELISM (divides the input and the
//   output element counts), IN_CHANNELS, OUT_CHANNELS, IN_HEIGHT, IN_WIDTH,
//   KERNEL_H, KERNEL_W, STRIDE, PADDING (symmetric, zeros), WEIGHTS_FILE, BIAS_FILE.
// Implementation: fixed_window_scan buffers the whole image (each beat is
//   taken, then written one word per cycle), then visits one tap per cycle
//   (padding taps included), then holds each output beat until taken; this
//   module holds the ROMs and the multiply-accumulate. Not pipelined. The scan
//   checks the parameters.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Latency per image: (1 + PARALLELISM) cycles per input beat, then
//   OUT_CHANNELS*OH*OW*IN_CHANNELS*KERNEL_H*KERNEL_W tap cycles interleaved with
//   the output beats (each at least one cycle).
module fixed_conv2d #(
  parameter int DATA_WIDTH   = 8,
  parameter int FRAC_WIDTH   = 4,
  parameter int PARALLELISM  = 1,
  parameter int IN_CHANNELS  = 2,
  parameter int OUT_CHANNELS = 2,
  parameter int IN_HEIGHT    = 4,
  parameter int IN_WIDTH     = 4,
  parameter int KERNEL_H     = 3,
  parameter int KERNEL_W     = 3,
  parameter int STRIDE       = 1,
  parameter int PADDING      = 1,
  parameter     WEIGHTS_FILE = "",
  parameter     BIAS_FILE    = ""
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
  localparam int F    = FRAC_WIDTH;
  localparam int C    = IN_CHANNELS;
  localparam int OC   = OUT_CHANNELS;
  localparam int KK   = KERNEL_H * KERNEL_W;
  localparam int NW   = OC * C * KK;
  localparam int ACC  = 2 * W + $clog2(C * KK + 1);
  localparam int WA   = (NW > 1) ? $clog2(NW) : 1;
  localparam int OCA  = (OC > 1) ? $clog2(OC) : 1;
  localparam int CA   = (C  > 1) ? $clog2(C)  : 1;
  localparam int KA   = (KK > 1) ? $clog2(KK) : 1;

  logic [W-1:0] wrom [0:NW-1];
  logic [W-1:0] brom [0:OC-1];
  // Without files (a tool elaborating the defaults, as yosys's read_verilog
  // does) the ROMs stay unloaded; every instance mav exports names both.
  initial if (WEIGHTS_FILE != "") $readmemh(WEIGHTS_FILE, wrom);
  initial if (BIAS_FILE != "") $readmemh(BIAS_FILE, brom);

  // The tap being visited (fixed_window_scan): output channel, input channel,
  // kernel position, and the input word (0 in the padding).
  logic           tap_valid;
  logic [OCA-1:0] tap_oc;
  logic [CA-1:0]  tap_ic;
  logic [KA-1:0]  tap_k;
  logic [W-1:0]   x_word;

  logic [ACC-1:0] acc;
  logic [WA-1:0]  waddr;
  logic [W-1:0]   w_word;
  logic [W-1:0]   b_word;
  logic [2*W-1:0] prod;
  logic           first_tap;
  logic [ACC-1:0] acc_base;
  logic [ACC-1:0] acc_next;
  logic [W-1:0]   y_word;

  assign waddr     = WA'((32'(tap_oc) * C + 32'(tap_ic)) * KK + 32'(tap_k));
  assign w_word    = wrom[waddr];
  assign b_word    = brom[tap_oc];
  assign prod      = {{W{w_word[W-1]}}, w_word} * {{W{x_word[W-1]}}, x_word};
  assign first_tap = (tap_ic == '0) && (tap_k == '0);
  assign acc_base  = first_tap ? ({{(ACC - W){b_word[W-1]}}, b_word} << F) : acc;
  assign acc_next  = acc_base + {{(ACC - 2 * W){prod[2*W-1]}}, prod};

  fixed_round_sat #(.IN_WIDTH(ACC), .SHIFT(F), .OUT_WIDTH(W)) u_rs (
    .data_in(acc_next), .data_out(y_word));

  always_ff @(posedge clk) begin
    if (tap_valid) acc <= acc_next;
  end

  // Every window spans all input channels: the tap reads channel tap_ic.
  fixed_window_scan #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM),
    .IN_CHANNELS(C), .OUT_CHANNELS(OC), .WINDOW_CHANNELS(C),
    .IN_HEIGHT(IN_HEIGHT), .IN_WIDTH(IN_WIDTH), .KERNEL_H(KERNEL_H), .KERNEL_W(KERNEL_W),
    .STRIDE(STRIDE), .PADDING(PADDING)
  ) u_scan (
    .clk(clk), .rst(rst),
    .data_in_0(data_in_0), .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready),
    .tap_valid(tap_valid), .tap_oc(tap_oc), .tap_ic(tap_ic), .tap_k(tap_k),
    .tap_ch(tap_ic), .tap_word(x_word), .win_result(y_word)
  );
endmodule
