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
// Implementation: the whole image is buffered (each beat is taken, then written
//   one word per cycle), then one tap per cycle (padding taps included), then
//   each output beat is held until taken. Not pipelined.
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
  parameter     WEIGHTS_FILE = "weights.mem",
  parameter     BIAS_FILE    = "bias.mem"
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
  localparam int P    = PARALLELISM;
  localparam int C    = IN_CHANNELS;
  localparam int OC   = OUT_CHANNELS;
  localparam int H    = IN_HEIGHT;
  localparam int WD   = IN_WIDTH;
  localparam int KH   = KERNEL_H;
  localparam int KW   = KERNEL_W;
  localparam int OH   = (H + 2 * PADDING - KH) / STRIDE + 1;
  localparam int OWD  = (WD + 2 * PADDING - KW) / STRIDE + 1;
  localparam int NIN  = C * H * WD;
  localparam int NW   = OC * C * KH * KW;
  localparam int ACC  = 2 * W + $clog2(C * KH * KW + 1);
  localparam int BW   = P * W;
  // Counter widths (at least 1 bit).
  localparam int XA   = (NIN > 1) ? $clog2(NIN) : 1;
  localparam int WA   = (NW  > 1) ? $clog2(NW)  : 1;
  localparam int OCA  = (OC  > 1) ? $clog2(OC)  : 1;
  localparam int CA   = (C   > 1) ? $clog2(C)   : 1;
  localparam int KHA  = (KH  > 1) ? $clog2(KH)  : 1;
  localparam int KWA  = (KW  > 1) ? $clog2(KW)  : 1;
  localparam int OHA  = (OH  > 1) ? $clog2(OH)  : 1;
  localparam int OWA  = (OWD > 1) ? $clog2(OWD) : 1;
  localparam int PA   = $clog2(P + 1);

  generate
    if (F < 0 || F >= W || P < 1 || NIN % P != 0 || (OC * OH * OWD) % P != 0 ||
        STRIDE < 1 || PADDING < 0 || OH < 1 || OWD < 1) begin : g_bad_params
      initial $display("ERROR: fixed_conv2d: bad parameters");
    end
  endgenerate

  localparam logic [1:0] S_LOAD   = 2'd0;
  localparam logic [1:0] S_UNPACK = 2'd1;
  localparam logic [1:0] S_MAC    = 2'd2;
  localparam logic [1:0] S_EMIT   = 2'd3;

  logic [W-1:0] wrom [0:NW-1];
  logic [W-1:0] brom [0:OC-1];
  logic [W-1:0] xmem [0:NIN-1];
  initial $readmemh(WEIGHTS_FILE, wrom);
  initial $readmemh(BIAS_FILE, brom);

  logic [1:0]     state;
  logic [BW-1:0]  stage;     // the beat being written into xmem
  logic [PA-1:0]  ucnt;
  logic [XA-1:0]  widx;
  logic [BW-1:0]  obuf;
  logic [PA-1:0]  pcnt;
  logic           last_out;  // the beat in obuf ends the image
  logic [ACC-1:0] acc;
  logic [OCA-1:0] oc;
  logic [OHA-1:0] oy;
  logic [OWA-1:0] ox;
  logic [CA-1:0]  ic;
  logic [KHA-1:0] ky;
  logic [KWA-1:0] kx;

  // Tap address: padded coordinates, then the bounds test.
  logic [31:0]    py;
  logic [31:0]    px;
  logic [XA-1:0]  addr;
  logic [WA-1:0]  waddr;
  logic           in_image;
  assign py     = 32'(oy) * STRIDE + 32'(ky);
  assign px     = 32'(ox) * STRIDE + 32'(kx);
  generate
    if (PADDING == 0) begin : g_nopad
      assign in_image = 1'b1;
    end else begin : g_pad
      assign in_image = (py >= PADDING) && (py < PADDING + H) && (px >= PADDING) && (px < PADDING + WD);
    end
  endgenerate
  assign waddr  = WA'((32'(oc) * C + 32'(ic)) * (KH * KW) + 32'(ky) * KW + 32'(kx));
  assign addr   = XA'(32'(ic) * (H * WD) + (py - PADDING) * WD + (px - PADDING));

  logic [W-1:0]   w_word;
  logic [W-1:0]   x_word;
  logic [W-1:0]   b_word;
  logic [2*W-1:0] prod;
  logic [ACC-1:0] acc_base;
  logic [ACC-1:0] acc_next;
  logic [W-1:0]   y_word;
  logic           first_tap;
  logic           last_kx;
  logic           last_ky;
  logic           last_ic;
  logic           last_ox;
  logic           last_oy;
  logic           last_oc;

  assign w_word    = wrom[waddr];
  assign x_word    = in_image ? xmem[addr] : '0;
  assign b_word    = brom[oc];
  assign prod      = {{W{w_word[W-1]}}, w_word} * {{W{x_word[W-1]}}, x_word};
  assign first_tap = (ic == '0) && (ky == '0) && (kx == '0);
  assign acc_base  = first_tap ? ({{(ACC - W){b_word[W-1]}}, b_word} << F) : acc;
  assign acc_next  = acc_base + {{(ACC - 2 * W){prod[2*W-1]}}, prod};
  assign last_kx   = (kx == KWA'(KW - 1));
  assign last_ky   = (ky == KHA'(KH - 1));
  assign last_ic   = (ic == CA'(C - 1));
  assign last_ox   = (ox == OWA'(OWD - 1));
  assign last_oy   = (oy == OHA'(OH - 1));
  assign last_oc   = (oc == OCA'(OC - 1));

  fixed_round_sat #(.IN_WIDTH(ACC), .SHIFT(F), .OUT_WIDTH(W)) u_rs (
    .data_in(acc_next), .data_out(y_word));

  assign data_in_0_ready  = (state == S_LOAD);
  assign data_out_0_valid = (state == S_EMIT);
  assign data_out_0       = obuf;

  always_ff @(posedge clk) begin
    if (state == S_UNPACK) xmem[widx] <= stage[W-1:0];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state    <= S_LOAD;
      ucnt     <= '0;
      widx     <= '0;
      pcnt     <= '0;
      last_out <= 1'b0;
      oc <= '0; oy <= '0; ox <= '0;
      ic <= '0; ky <= '0; kx <= '0;
    end else begin
      case (state)
        S_LOAD: if (data_in_0_valid) begin
          stage <= data_in_0;
          ucnt  <= '0;
          state <= S_UNPACK;
        end
        S_UNPACK: begin
          stage <= stage >> W;
          if (widx == XA'(NIN - 1)) begin
            widx  <= '0;
            state <= S_MAC;
          end else begin
            widx <= widx + 1'b1;
            if (ucnt == PA'(P - 1)) state <= S_LOAD;
          end
          ucnt <= ucnt + 1'b1;
        end
        S_MAC: begin
          acc   <= acc_next;
          if (!last_kx) kx <= kx + 1'b1;
          else begin
            kx <= '0;
            if (!last_ky) ky <= ky + 1'b1;
            else begin
              ky <= '0;
              if (!last_ic) ic <= ic + 1'b1;
              else begin
                // One output done.
                ic   <= '0;
                obuf <= (obuf >> W) | (BW'(y_word) << (BW - W));
                if (!last_ox) ox <= ox + 1'b1;
                else begin
                  ox <= '0;
                  if (!last_oy) oy <= oy + 1'b1;
                  else begin
                    oy <= '0;
                    oc <= last_oc ? '0 : oc + 1'b1;
                  end
                end
                last_out <= last_ox && last_oy && last_oc;
                if (pcnt == PA'(P - 1)) begin
                  pcnt  <= '0;
                  state <= S_EMIT;
                end else begin
                  pcnt <= pcnt + 1'b1;
                end
              end
            end
          end
        end
        S_EMIT: if (data_out_0_ready) state <= last_out ? S_LOAD : S_MAC;
        default: state <= S_LOAD;
      endcase
    end
  end
endmodule
