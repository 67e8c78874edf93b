// fixed_window_scan: the image buffer and window iteration shared by the
// pooling components (fixed_maxpool2d, fixed_avgpool2d): each channel is
// reduced alone, PARALLELISM channels at a time.
//
// Function: buffers each input image x[CHANNELS][IN_HEIGHT][IN_WIDTH]
//   (streamed in row-major order: channel, row, column; PARALLELISM words per
//   beat, word 0 in the low bits), then, for each block of P = PARALLELISM
//   channels c0 = b*P .. c0+P-1 (CHANNELS/P blocks, in order), for every
//   output position (oy, ox) in row-major order, visits the taps of its window
//   one per cycle (ky < KERNEL_H, kx < KERNEL_W, kx fastest), giving the P
//   lanes j < P the words
//       tap_words[j] = x[c0+j][oy*STRIDE+ky-PADDING][ox*STRIDE+kx-PADDING]
//                      (0 outside the image: padding, or past the
//                      bottom/right edge in ceil mode; tap_in is then low)
//   for OH = OUT_HEIGHT rows and OW = OUT_WIDTH columns of output positions
//   per channel: (IN_HEIGHT + 2*PADDING - KERNEL_H) / STRIDE + 1 rounded down
//   (floor mode) or up (ceil mode; then the last window must start inside
//   the image or the top/left padding). The parent reduces each lane's taps
//   to one word, win_results[j], computed combinationally from the current
//   tap and its own registers; the scan takes the P results on the window's
//   last tap into P output planes and, after the block's last window, emits
//   them, y[c0..c0+P-1][OH][OW] in row-major order, OH*OW beats of P words.
// Tap interface (combinational from registers of this module, except as noted):
//   tap_valid   a tap is visited this cycle (the parent updates its registers only then);
//   tap_first   it is the first tap of its window (ky = kx = 0);
//   tap_in      it is inside the image (not padding, not past the edge);
//   tap_words   the P input words at the tap, lane j in bits [j*W +: W];
//   win_results (input) the P window results, taken on the window's last tap.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format, checked only), PARALLELISM
//   (divides CHANNELS), CHANNELS, IN_HEIGHT, IN_WIDTH, KERNEL_H, KERNEL_W,
//   STRIDE, PADDING (symmetric), OUT_HEIGHT, OUT_WIDTH (between the floor and
//   the ceil of the formula above).
// Implementation: the whole image is written into an image buffer, one beat
//   of P words per cycle (ready high); then one tap per cycle for P channels at once
//   (padding taps included); each block's output beats are held until taken.
//   Not pipelined: the next image is taken after the last output beat.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), with
//   NIN = CHANNELS*IN_HEIGHT*IN_WIDTH, OHW = OH*OW, P = PARALLELISM:
//     T = NIN/P + CHANNELS/P * OHW * (KERNEL_H*KERNEL_W + 1)
//   (NIN/P load cycles; per block OHW*KH*KW tap cycles and OHW emit cycles).
//   An image whose first input beat moves on clock edge t0 has its last output
//   beat move on edge t0 + T - 1, and the next image's first beat can move on
//   edge t0 + T: the initiation interval is also T.
module fixed_window_scan #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int CHANNELS    = 2,
  parameter int IN_HEIGHT   = 4,
  parameter int IN_WIDTH    = 4,
  parameter int KERNEL_H    = 3,
  parameter int KERNEL_W    = 3,
  parameter int STRIDE      = 1,
  parameter int PADDING     = 1,
  parameter int OUT_HEIGHT  = 4,
  parameter int OUT_WIDTH   = 4
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
  output logic                              tap_first,
  output logic                              tap_in,
  output logic [DATA_WIDTH*PARALLELISM-1:0] tap_words,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] win_results
);
  localparam int W    = DATA_WIDTH;
  localparam int P    = PARALLELISM;
  localparam int C    = CHANNELS;
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
  localparam int OHW  = OH * OWD;
  localparam int HW   = H * WD;
  localparam int NIN  = C * HW;
  localparam int NB   = (P > 0) ? C / P : 1;    // blocks of P channels
  localparam int NY   = P * OHW;                // words of a block's output planes
  // Counter widths (at least 1 bit).
  localparam int LA   = $clog2(NIN / ((P > 0) ? P : 1) + 1);
  localparam int NBA  = (NB > 1)  ? $clog2(NB)  : 1;
  localparam int KHA  = (KH > 1)  ? $clog2(KH)  : 1;
  localparam int KWA  = (KW > 1)  ? $clog2(KW)  : 1;
  localparam int OHA  = (OH > 1)  ? $clog2(OH)  : 1;
  localparam int OWA  = (OWD > 1) ? $clog2(OWD) : 1;
  localparam int EA   = $clog2(OHW + 1);
  localparam int XA   = (NIN > 1) ? $clog2(NIN) : 1;
  localparam int YA   = (NY > 1)  ? $clog2(NY)  : 1;

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= W || P < 1 || C < 1 || C % P != 0 ||
        KH < 1 || KW < 1 || STRIDE < 1 || PADDING < 0 ||
        H + 2 * PADDING < KH || WD + 2 * PADDING < KW ||
        OH < OH_FLOOR || OH > OH_CEIL || OWD < OW_FLOOR || OWD > OW_CEIL ||
        (OH - 1) * STRIDE >= H + PADDING || (OWD - 1) * STRIDE >= WD + PADDING) begin : g_bad_params
      initial $display("ERROR: fixed_window_scan: bad parameters");
    end
  endgenerate

  localparam logic [1:0] S_LOAD = 2'd0;
  localparam logic [1:0] S_TAP  = 2'd1;
  localparam logic [1:0] S_EMIT = 2'd2;

  logic [1:0]       state;
  logic [W-1:0]     xmem [0:NIN-1];  // the image, in stream order
  logic [W-1:0]     ymem [0:NY-1];   // the block's output planes, plane j at j*OH*OW
  logic [EA-1:0]    pos;    // output position oy*OW + ox within the plane
  logic [LA-1:0]    lcnt;   // input beats taken
  logic [NBA-1:0]   blk;    // block of channels
  logic [OHA-1:0]   oy;
  logic [OWA-1:0]   ox;
  logic [KHA-1:0]   ky;
  logic [KWA-1:0]   kx;
  logic [EA-1:0]    ecnt;   // output beats of the block emitted

  logic last_kx, last_ky, last_ox, last_oy, last_blk, last_tap;
  assign last_kx  = (kx == KWA'(KW - 1));
  assign last_ky  = (ky == KHA'(KH - 1));
  assign last_ox  = (ox == OWA'(OWD - 1));
  assign last_oy  = (oy == OHA'(OH - 1));
  assign last_blk = (blk == NBA'(NB - 1));
  assign last_tap = last_ky && last_kx;

  // The tap's position in the padded image, and whether it is in the image.
  logic [31:0] py;
  logic [31:0] px;
  logic        in_image;
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

  // Lane j reads channel blk*P + j.
  logic [31:0] xaddr0;
  assign xaddr0 = 32'(blk) * (P * HW) + (py - PADDING) * WD + (px - PADDING);

  genvar gj;
  generate
    for (gj = 0; gj < P; gj++) begin : g_lane
      logic [XA-1:0] a;
      assign a = XA'(xaddr0 + gj * HW);
      assign tap_words[gj*W +: W] = in_image ? xmem[a] : '0;
      // Output beat word j: plane word ecnt*P + j (the planes in row-major order).
      assign data_out_0[gj*W +: W] = ymem[YA'(32'(ecnt) * P + gj)];
    end
  endgenerate

  assign tap_valid = (state == S_TAP);
  assign tap_first = (ky == '0) && (kx == '0);
  assign tap_in    = in_image;

  assign data_in_0_ready  = (state == S_LOAD);
  assign data_out_0_valid = (state == S_EMIT);

  // Each window's P results go to position pos of the P planes.
  always_ff @(posedge clk) begin
    if (state == S_TAP && last_tap)
      for (int j = 0; j < P; j++) ymem[YA'(j * OHW + 32'(pos))] <= win_results[j*W +: W];
  end

  // Each input beat's P words go to consecutive addresses.
  always_ff @(posedge clk) begin
    if (state == S_LOAD && data_in_0_valid)
      for (int k = 0; k < P; k++) xmem[XA'(32'(lcnt) * P + k)] <= data_in_0[k*W +: W];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= S_LOAD;
      lcnt  <= '0;
      blk   <= '0;
      oy <= '0; ox <= '0; ky <= '0; kx <= '0;
      ecnt  <= '0;
      pos   <= '0;
    end else begin
      case (state)
        S_LOAD: if (data_in_0_valid) begin
          if (lcnt == LA'(NIN / P - 1)) begin
            lcnt  <= '0;
            state <= S_TAP;
          end else begin
            lcnt <= lcnt + 1'b1;
          end
        end
        S_TAP: begin
          if (!last_kx) kx <= kx + 1'b1;
          else begin
            kx <= '0;
            if (!last_ky) ky <= ky + 1'b1;
            else begin
              ky  <= '0;
              pos <= last_ox && last_oy ? '0 : pos + 1'b1;
              if (!last_ox) ox <= ox + 1'b1;
              else begin
                ox <= '0;
                if (!last_oy) oy <= oy + 1'b1;
                else begin
                  oy    <= '0;
                  state <= S_EMIT;
                end
              end
            end
          end
        end
        S_EMIT: if (data_out_0_ready) begin
          if (ecnt == EA'(OHW - 1)) begin
            ecnt <= '0;
            if (last_blk) begin
              blk   <= '0;
              state <= S_LOAD;
            end else begin
              blk   <= blk + 1'b1;
              state <= S_TAP;
            end
          end else begin
            ecnt <= ecnt + 1'b1;
          end
        end
        default: state <= S_LOAD;
      endcase
    end
  end
endmodule
