// fixed_window_scan: the image buffer and window iteration shared by the
// pooling components (fixed_maxpool2d, fixed_avgpool2d); usable for any
// sliding-window reduction.
//
// Function: buffers each input image x[IN_CHANNELS][IN_HEIGHT][IN_WIDTH]
//   (streamed in row-major order: channel, row, column; PARALLELISM words per
//   beat, word 0 in the low bits), then visits, for every output position
//   (oc, oy, ox) in row-major order, the taps of its window, one per cycle:
//     for ic < WINDOW_CHANNELS, ky < KERNEL_H, kx < KERNEL_W (kx fastest):
//       tap_word = x[tap_ch][oy*STRIDE+ky-PADDING][ox*STRIDE+kx-PADDING]
//                  (0 outside the image: padding, or past the bottom/right
//                  edge in ceil mode; tap_in is then low)
//   for OH = OUT_HEIGHT rows and OW = OUT_WIDTH columns of output positions
//   per channel: (IN_HEIGHT + 2*PADDING - KERNEL_H) / STRIDE + 1 rounded down
//   (floor mode) or up (ceil mode; then the last window must start inside
//   the image or the top/left padding). The parent reduces the taps of a window to
//   one word, win_result, computed combinationally from the current tap and
//   its own registers; the scan takes win_result on the window's last tap,
//   packs PARALLELISM results into a beat and emits y[OUT_CHANNELS][OH][OW]
//   in row-major order.
// Tap interface (all combinational from registers of this module, except as noted):
//   tap_valid  a tap is visited this cycle (the parent updates its registers only then);
//   tap_oc     its output channel oc;
//   tap_ic     its channel within the window, ic (0 when WINDOW_CHANNELS = 1);
//   tap_k      its kernel position ky*KERNEL_W + kx; the first tap of a window
//              has tap_ic = 0 and tap_k = 0, the last WINDOW_CHANNELS-1 and
//              KERNEL_H*KERNEL_W-1;
//   tap_ch     (input, from the parent, combinational in tap_oc / tap_ic) the
//              input channel the tap reads: tap_ic when a window spans all
//              channels (conv2d), tap_oc when each channel is pooled alone;
//   tap_word   the input word at the tap (0 when !tap_in);
//   tap_in     the tap is inside the image (not padding, not past the edge);
//   win_result (input) the window's output word, taken on its last tap.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format, checked only), PARALLELISM
//   (divides the input and output element counts), IN_CHANNELS, OUT_CHANNELS,
//   WINDOW_CHANNELS (1 .. IN_CHANNELS), IN_HEIGHT, IN_WIDTH, KERNEL_H,
//   KERNEL_W, STRIDE, PADDING (symmetric), OUT_HEIGHT, OUT_WIDTH (between the
//   floor and the ceil of the formula above).
// Implementation: each input beat is taken (ready high in the load state),
//   then written into the buffer one word per cycle; after the last word, one
//   tap per cycle; when PARALLELISM results are packed, the output beat is held
//   until taken. Not pipelined.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), with
//   NIN = IN_CHANNELS*IN_HEIGHT*IN_WIDTH, NOUT = OUT_CHANNELS*OH*OW,
//   P = PARALLELISM:
//     T = NIN/P * (1 + P) + NOUT * WINDOW_CHANNELS*KERNEL_H*KERNEL_W + NOUT/P
//   (per input beat one load and P write cycles; one cycle per tap, every
//   padding tap included; one cycle per output beat). An image whose first
//   input beat moves on clock edge t0 has its last output beat move on edge
//   t0 + T - 1, and the next image's first beat can move on edge t0 + T: the
//   initiation interval is also T.
module fixed_window_scan #(
  parameter int DATA_WIDTH      = 8,
  parameter int FRAC_WIDTH      = 4,
  parameter int PARALLELISM     = 1,
  parameter int IN_CHANNELS     = 2,
  parameter int OUT_CHANNELS    = 2,
  parameter int WINDOW_CHANNELS = 2,
  parameter int IN_HEIGHT       = 4,
  parameter int IN_WIDTH        = 4,
  parameter int KERNEL_H        = 3,
  parameter int KERNEL_W        = 3,
  parameter int STRIDE          = 1,
  parameter int PADDING         = 1,
  parameter int OUT_HEIGHT      = 4,
  parameter int OUT_WIDTH       = 4
) (
  input  logic                              clk,
  input  logic                              rst,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] data_in_0,
  input  logic                              data_in_0_valid,
  output logic                              data_in_0_ready,
  output logic [DATA_WIDTH*PARALLELISM-1:0] data_out_0,
  output logic                              data_out_0_valid,
  input  logic                              data_out_0_ready,
  output logic                              tap_valid,
  output logic [((OUT_CHANNELS > 1) ? $clog2(OUT_CHANNELS) : 1)-1:0]       tap_oc,
  output logic [((WINDOW_CHANNELS > 1) ? $clog2(WINDOW_CHANNELS) : 1)-1:0] tap_ic,
  output logic [((KERNEL_H * KERNEL_W > 1) ? $clog2(KERNEL_H * KERNEL_W) : 1)-1:0] tap_k,
  input  logic [((IN_CHANNELS > 1) ? $clog2(IN_CHANNELS) : 1)-1:0]         tap_ch,
  output logic [DATA_WIDTH-1:0]             tap_word,
  output logic                              tap_in,
  input  logic [DATA_WIDTH-1:0]             win_result
);
  localparam int W    = DATA_WIDTH;
  localparam int P    = PARALLELISM;
  localparam int C    = IN_CHANNELS;
  localparam int OC   = OUT_CHANNELS;
  localparam int WC   = WINDOW_CHANNELS;
  localparam int H    = IN_HEIGHT;
  localparam int WD   = IN_WIDTH;
  localparam int KH   = KERNEL_H;
  localparam int KW   = KERNEL_W;
  localparam int OH   = OUT_HEIGHT;
  localparam int OWD  = OUT_WIDTH;
  localparam int OH_FLOOR = (H + 2 * PADDING - KH) / STRIDE + 1;
  localparam int OW_FLOOR = (WD + 2 * PADDING - KW) / STRIDE + 1;
  localparam int OH_CEIL  = (H + 2 * PADDING - KH + STRIDE - 1) / STRIDE + 1;
  localparam int OW_CEIL  = (WD + 2 * PADDING - KW + STRIDE - 1) / STRIDE + 1;
  localparam int NIN  = C * H * WD;
  localparam int BW   = P * W;
  // Counter widths (at least 1 bit).
  localparam int XA   = (NIN > 1)     ? $clog2(NIN)     : 1;
  localparam int OCA  = (OC > 1)      ? $clog2(OC)      : 1;
  localparam int ICA  = (WC > 1)      ? $clog2(WC)      : 1;
  localparam int KA   = (KH * KW > 1) ? $clog2(KH * KW) : 1;
  localparam int KHA  = (KH > 1)      ? $clog2(KH)      : 1;
  localparam int KWA  = (KW > 1)      ? $clog2(KW)      : 1;
  localparam int OHA  = (OH > 1)      ? $clog2(OH)      : 1;
  localparam int OWA  = (OWD > 1)     ? $clog2(OWD)     : 1;
  localparam int PA   = $clog2(P + 1);

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= W || P < 1 || C < 1 || OC < 1 || WC < 1 || WC > C ||
        KH < 1 || KW < 1 || STRIDE < 1 || PADDING < 0 ||
        H + 2 * PADDING < KH || WD + 2 * PADDING < KW ||
        OH < OH_FLOOR || OH > OH_CEIL || OWD < OW_FLOOR || OWD > OW_CEIL ||
        (OH - 1) * STRIDE >= H + PADDING || (OWD - 1) * STRIDE >= WD + PADDING ||
        NIN % P != 0 || (OC * OH * OWD) % P != 0) begin : g_bad_params
      initial $display("ERROR: fixed_window_scan: bad parameters");
    end
  endgenerate

  localparam logic [1:0] S_LOAD   = 2'd0;
  localparam logic [1:0] S_UNPACK = 2'd1;
  localparam logic [1:0] S_TAP    = 2'd2;
  localparam logic [1:0] S_EMIT   = 2'd3;

  logic [W-1:0] xmem [0:NIN-1];

  logic [1:0]     state;
  logic [BW-1:0]  stage;     // the beat being written into xmem
  logic [PA-1:0]  ucnt;
  logic [XA-1:0]  widx;
  logic [BW-1:0]  obuf;
  logic [PA-1:0]  pcnt;
  logic           last_out;  // the beat in obuf ends the image
  logic [OCA-1:0] oc;
  logic [OHA-1:0] oy;
  logic [OWA-1:0] ox;
  logic [ICA-1:0] ic;
  logic [KHA-1:0] ky;
  logic [KWA-1:0] kx;

  // Tap address: padded coordinates, then the bounds test.
  logic [31:0]    py;
  logic [31:0]    px;
  logic [XA-1:0]  addr;
  logic           in_image;
  assign py = 32'(oy) * STRIDE + 32'(ky);
  assign px = 32'(ox) * STRIDE + 32'(kx);
  // Windows may reach past the bottom/right edge in ceil mode, even unpadded.
  generate
    if (PADDING == 0 && OH == OH_FLOOR && OWD == OW_FLOOR) begin : g_inside
      assign in_image = 1'b1;
    end else if (PADDING == 0) begin : g_edge
      assign in_image = (py < H) && (px < WD);
    end else begin : g_pad
      assign in_image = (py >= PADDING) && (py < PADDING + H) && (px >= PADDING) && (px < PADDING + WD);
    end
  endgenerate
  assign addr = XA'(32'(tap_ch) * (H * WD) + (py - PADDING) * WD + (px - PADDING));

  logic last_kx;
  logic last_ky;
  logic last_ic;
  logic last_ox;
  logic last_oy;
  logic last_oc;
  assign last_kx = (kx == KWA'(KW - 1));
  assign last_ky = (ky == KHA'(KH - 1));
  assign last_ic = (ic == ICA'(WC - 1));
  assign last_ox = (ox == OWA'(OWD - 1));
  assign last_oy = (oy == OHA'(OH - 1));
  assign last_oc = (oc == OCA'(OC - 1));

  assign tap_valid = (state == S_TAP);
  assign tap_oc    = oc;
  assign tap_ic    = ic;
  assign tap_k     = KA'(32'(ky) * KW + 32'(kx));
  assign tap_word  = in_image ? xmem[addr] : '0;
  assign tap_in    = in_image;

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
            state <= S_TAP;
          end else begin
            widx <= widx + 1'b1;
            if (ucnt == PA'(P - 1)) state <= S_LOAD;
          end
          ucnt <= ucnt + 1'b1;
        end
        S_TAP: begin
          if (!last_kx) kx <= kx + 1'b1;
          else begin
            kx <= '0;
            if (!last_ky) ky <= ky + 1'b1;
            else begin
              ky <= '0;
              if (!last_ic) ic <= ic + 1'b1;
              else begin
                // The window is done: win_result is its output word.
                ic   <= '0;
                obuf <= (obuf >> W) | (BW'(win_result) << (BW - W));
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
        S_EMIT: if (data_out_0_ready) state <= last_out ? S_LOAD : S_TAP;
        default: state <= S_LOAD;
      endcase
    end
  end
endmodule
