// fixed_conv2d: 2-D convolution (torch.nn.Conv2d, any groups, dilation 1)
// on a stream of fixed-point images.
//
// Function: for every input image x[IN_CHANNELS][IN_HEIGHT][IN_WIDTH] (streamed
//   in row-major order: channel, row, column; IN_PARALLELISM words per beat,
//   word 0 in the low bits), emits y[OUT_CHANNELS][OH][OW] in the same order
//   (OUT_PARALLELISM words per beat), with ICG = IN_CHANNELS/GROUPS,
//   OCG = OUT_CHANNELS/GROUPS, and for output channel oc its group
//   g = oc / OCG:
//     OH = (IN_HEIGHT + 2*PADDING - KERNEL_H) / STRIDE + 1   (same for OW)
//     acc = (b[oc] << FRAC_WIDTH)
//           + sum_{icl<ICG,ky,kx} w[oc][icl][ky][kx]
//                 * x[g*ICG+icl][oy*STRIDE+ky-PADDING][ox*STRIDE+kx-PADDING]
//     (taps outside the image are zero padding and add nothing)
//     y[oc][oy][ox] = sat(rne(acc / 2^FRAC_WIDTH))           (docs/Hardware.md)
//   All tensors are <DATA_WIDTH, FRAC_WIDTH>; the accumulator has
//   2*DATA_WIDTH + clog2(ICG*KERNEL_H*KERNEL_W + 1) bits and never overflows.
// Weights and bias: ROMs loaded with $readmemh from WEIGHTS_FILE
//   (OUT_CHANNELS*ICG*KERNEL_H*KERNEL_W lines in torch order [oc][icl][ky][kx])
//   and BIAS_FILE (OUT_CHANNELS lines); one two's-complement word of DATA_WIDTH
//   bits per line, in hex. Each ROM is one array read at several addresses
//   per cycle.
// Parameters: DATA_WIDTH, FRAC_WIDTH, IN_PARALLELISM (P_in), OUT_PARALLELISM
//   (P_out), IN_CHANNELS, OUT_CHANNELS, GROUPS (divides both channel counts),
//   IN_HEIGHT, IN_WIDTH, KERNEL_H, KERNEL_W, STRIDE, PADDING (symmetric,
//   zeros), WEIGHTS_FILE, BIAS_FILE. Two modes:
//   - dense and grouped (ICG > 1 or OCG > 1): P_in divides ICG, P_out divides
//     OCG; P_in*P_out multiply-accumulates per cycle (P_out output channels of
//     one group at once, each adding P_in input channels per cycle);
//   - depthwise (GROUPS = IN_CHANNELS = OUT_CHANNELS, i.e. ICG = OCG = 1):
//     P_in = P_out = P divides IN_CHANNELS; P channels in parallel, P
//     multiply-accumulates per cycle.
//   (The input bus is P_in words, the output bus P_out words.)
// Implementation: the whole image is written into an image buffer (ready
//   high, one beat of P_in words per cycle); then, for each block of P_out
//   output channels (OUT_CHANNELS/P_out blocks, in order), for each output
//   position (oy, ox) in row-major order, the window's taps are visited one
//   chunk per cycle, CH = ICG/P_in chunks (depthwise: 1) times KERNEL_H*KERNEL_W
//   kernel positions (padding taps included, they add zero); each window's
//   P_out results are written into P_out output planes; then the block's
//   P_out*OH*OW words are emitted, OH*OW beats of P_out words, each held until
//   taken. Not pipelined: the next image is taken after the last output beat.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), with
//   NIN = IN_CHANNELS*IN_HEIGHT*IN_WIDTH, OHW = OH*OW, KK = KERNEL_H*KERNEL_W,
//   CH = ICG/P_in (depthwise 1), NB = OUT_CHANNELS/P_out:
//     T = NIN/P_in + NB * OHW * (CH*KK + 1)
//   An image whose first input beat moves on clock edge t0 has its last output
//   beat move on edge t0 + T - 1, and the next image's first beat can move on
//   edge t0 + T: the initiation interval is also T (N images: N*T cycles).
//   (NIN/P_in load cycles; per block OHW*CH*KK tap cycles and OHW emit cycles.)
//   A stalled output beat adds its stall cycles.
module fixed_conv2d #(
  parameter int DATA_WIDTH      = 8,
  parameter int FRAC_WIDTH      = 4,
  parameter int IN_PARALLELISM  = 1,
  parameter int OUT_PARALLELISM = 1,
  parameter int IN_CHANNELS     = 2,
  parameter int OUT_CHANNELS    = 2,
  parameter int GROUPS          = 1,
  parameter int IN_HEIGHT       = 4,
  parameter int IN_WIDTH        = 4,
  parameter int KERNEL_H        = 3,
  parameter int KERNEL_W        = 3,
  parameter int STRIDE          = 1,
  parameter int PADDING         = 1,
  parameter     WEIGHTS_FILE    = "",
  parameter     BIAS_FILE       = ""
) (
  input  logic                                  clk,
  input  logic                                  rst,
  input  logic [DATA_WIDTH*IN_PARALLELISM-1:0]  data_in_0,
  input  logic                                  data_in_0_valid,
  output logic                                  data_in_0_ready,
  output logic [DATA_WIDTH*OUT_PARALLELISM-1:0] data_out_0,
  output logic                                  data_out_0_valid,
  input  logic                                  data_out_0_ready
);
  localparam int W    = DATA_WIDTH;
  localparam int F    = FRAC_WIDTH;
  localparam int PI   = IN_PARALLELISM;
  localparam int PO   = OUT_PARALLELISM;
  localparam int C    = IN_CHANNELS;
  localparam int OC   = OUT_CHANNELS;
  localparam int G    = GROUPS;
  localparam int ICG  = C / G;
  localparam int OCG  = OC / G;
  localparam bit DW   = (ICG == 1) && (OCG == 1);     // depthwise mode
  localparam int H    = IN_HEIGHT;
  localparam int WD   = IN_WIDTH;
  localparam int KH   = KERNEL_H;
  localparam int KW   = KERNEL_W;
  localparam int KK   = KH * KW;
  localparam int OH   = (H + 2 * PADDING - KH) / STRIDE + 1;
  localparam int OWD  = (WD + 2 * PADDING - KW) / STRIDE + 1;
  localparam int OHW  = OH * OWD;
  localparam int HW   = H * WD;
  localparam int NIN  = C * HW;
  localparam int NW   = OC * ICG * KK;
  localparam int ACC  = 2 * W + $clog2(ICG * KK + 1);
  localparam int KIN  = DW ? 1 : PI;                  // products per output lane and cycle
  localparam int NX   = DW ? PO : PI;                 // input words read per cycle
  localparam int CH   = DW ? 1 : ((PI > 0) ? ICG / PI : 1); // chunks per window
  localparam int NB   = (PO > 0) ? OC / PO : 1;       // blocks of P_out output channels
  localparam int BPG  = DW ? 1 : ((PO > 0) ? OCG / PO : 1); // blocks per group
  localparam int GSTEP = DW ? PO : ICG;               // first input channel, from group to group
  localparam int OBW  = PO * W;
  localparam int NY   = PO * OHW;                     // words of a block's output planes
  // Counter widths (at least 1 bit).
  localparam int LA   = $clog2(NIN / ((PI > 0) ? PI : 1) + 1);
  localparam int NBA  = (NB > 1)  ? $clog2(NB)  : 1;
  localparam int BGA  = (BPG > 1) ? $clog2(BPG) : 1;
  localparam int CHA  = (CH > 1)  ? $clog2(CH)  : 1;
  localparam int CA   = (C > 1)   ? $clog2(C)   : 1;
  localparam int KHA  = (KH > 1)  ? $clog2(KH)  : 1;
  localparam int KWA  = (KW > 1)  ? $clog2(KW)  : 1;
  localparam int OHA  = (OH > 1)  ? $clog2(OH)  : 1;
  localparam int OWA  = (OWD > 1) ? $clog2(OWD) : 1;
  localparam int EA   = $clog2(OHW + 1);
  localparam int XA   = (NIN > 1) ? $clog2(NIN) : 1;
  localparam int YA   = (NY > 1)  ? $clog2(NY)  : 1;
  localparam int WA   = (NW > 1)  ? $clog2(NW)  : 1;
  localparam int BA   = (OC > 1)  ? $clog2(OC)  : 1;

  generate
    if (F < 0 || F >= W || PI < 1 || PO < 1 || G < 1 || C < 1 || OC < 1 ||
        C % G != 0 || OC % G != 0 ||
        (DW && (PI != PO || C % PO != 0)) ||
        (!DW && (ICG % PI != 0 || OCG % PO != 0)) ||
        KH < 1 || KW < 1 || STRIDE < 1 || PADDING < 0 ||
        H + 2 * PADDING < KH || WD + 2 * PADDING < KW) begin : g_bad_params
      initial $display("ERROR: fixed_conv2d: bad parameters");
    end
  endgenerate

  localparam logic [1:0] S_LOAD = 2'd0;
  localparam logic [1:0] S_RUN  = 2'd1;
  localparam logic [1:0] S_EMIT = 2'd2;

  logic [W-1:0] wrom [0:NW-1];
  logic [W-1:0] brom [0:OC-1];
  // Without files (a tool elaborating the defaults, as yosys's read_verilog
  // does) the ROMs stay unloaded; every instance mav exports names both.
  initial if (WEIGHTS_FILE != "") $readmemh(WEIGHTS_FILE, wrom);
  initial if (BIAS_FILE != "") $readmemh(BIAS_FILE, brom);

  logic [1:0]       state;
  logic [W-1:0]     xmem [0:NIN-1];  // the image, in stream order
  logic [W-1:0]     ymem [0:NY-1];   // the block's output planes, plane j at j*OH*OW
  logic [EA-1:0]    pos;    // output position oy*OW + ox within the plane
  logic [LA-1:0]    lcnt;   // input beats taken
  logic [NBA-1:0]   ob;     // block of output channels
  logic [BGA-1:0]   bg;     // block within its group
  logic [CA-1:0]    gbase;  // first input channel of the block's group (depthwise: of the block)
  logic [CHA-1:0]   chunk;
  logic [OHA-1:0]   oy;
  logic [OWA-1:0]   ox;
  logic [KHA-1:0]   ky;
  logic [KWA-1:0]   kx;
  logic [EA-1:0]    ecnt;   // output beats of the block emitted

  logic last_kx, last_ky, last_chunk, last_ox, last_oy, last_ob, first_tap, last_tap;
  assign last_kx    = (kx == KWA'(KW - 1));
  assign last_ky    = (ky == KHA'(KH - 1));
  assign last_chunk = (chunk == CHA'(CH - 1));
  assign last_ox    = (ox == OWA'(OWD - 1));
  assign last_oy    = (oy == OHA'(OH - 1));
  assign last_ob    = (ob == NBA'(NB - 1));
  assign first_tap  = (chunk == '0) && (ky == '0) && (kx == '0);
  assign last_tap   = last_chunk && last_ky && last_kx;

  // The tap's position in the padded image, and whether it is in the image.
  logic [31:0] py;
  logic [31:0] px;
  logic        in_image;
  assign py = 32'(oy) * STRIDE + 32'(ky);
  assign px = 32'(ox) * STRIDE + 32'(kx);
  generate
    if (PADDING == 0) begin : g_nopad
      assign in_image = 1'b1;
    end else begin : g_pad
      assign in_image = (py >= PADDING) && (py < PADDING + H) && (px >= PADDING) && (px < PADDING + WD);
    end
  endgenerate

  // The NX input words of this cycle: channels cbase .. cbase+NX-1 at the tap.
  logic [31:0]     cbase;
  logic [31:0]     xaddr0;
  logic [NX*W-1:0] xw;
  assign cbase  = 32'(gbase) + 32'(chunk) * PI;
  assign xaddr0 = cbase * HW + (py - PADDING) * WD + (px - PADDING);

  genvar gr, gj, gk;
  generate
    for (gr = 0; gr < NX; gr++) begin : g_x
      logic [XA-1:0] a;
      assign a = XA'(xaddr0 + gr * HW);
      assign xw[gr*W +: W] = in_image ? xmem[a] : '0;
    end
  endgenerate

  // P_out accumulators (output channels ob*P_out + j), KIN products each per cycle.
  logic [31:0]       oc0;
  logic [31:0]       tap;
  logic [PO*ACC-1:0] acc;
  logic [OBW-1:0]    y_words;
  assign oc0 = 32'(ob) * PO;
  assign tap = 32'(ky) * KW + 32'(kx);

  generate
    for (gj = 0; gj < PO; gj++) begin : g_out
      logic [W-1:0]        b_word;
      logic [ACC-1:0]      base;
      logic [KIN*2*W-1:0]  prods;
      logic [ACC-1:0]      acc_next;
      assign b_word = brom[BA'(oc0 + gj)];
      assign base   = first_tap ? ({{(ACC - W){b_word[W-1]}}, b_word} << F) : acc[gj*ACC +: ACC];
      for (gk = 0; gk < KIN; gk++) begin : g_in
        logic [W-1:0] w_word;
        logic [W-1:0] x_word;
        assign w_word = wrom[WA'(((oc0 + gj) * ICG + 32'(chunk) * PI + gk) * KK + tap)];
        assign x_word = xw[(DW ? gj : gk)*W +: W];
        assign prods[gk*2*W +: 2*W] = {{W{w_word[W-1]}}, w_word} * {{W{x_word[W-1]}}, x_word};
      end
      always_comb begin
        acc_next = base;
        for (int k = 0; k < KIN; k++)
          acc_next = acc_next + {{(ACC - 2 * W){prods[k*2*W + 2*W - 1]}}, prods[k*2*W +: 2*W]};
      end
      fixed_round_sat #(.IN_WIDTH(ACC), .SHIFT(F), .OUT_WIDTH(W)) u_rs (
        .data_in(acc_next), .data_out(y_words[gj*W +: W]));
      always_ff @(posedge clk) begin
        if (state == S_RUN) acc[gj*ACC +: ACC] <= acc_next;
      end
      // Output beat word j: plane word ecnt*P_out + j (the planes in row-major order).
      assign data_out_0[gj*W +: W] = ymem[YA'(32'(ecnt) * PO + gj)];
    end
  endgenerate

  assign data_in_0_ready  = (state == S_LOAD);
  assign data_out_0_valid = (state == S_EMIT);

  // Each window's P_out results go to position pos of the P_out planes.
  always_ff @(posedge clk) begin
    if (state == S_RUN && last_tap)
      for (int j = 0; j < PO; j++) ymem[YA'(j * OHW + 32'(pos))] <= y_words[j*W +: W];
  end

  // Each input beat's P_in words go to consecutive addresses.
  always_ff @(posedge clk) begin
    if (state == S_LOAD && data_in_0_valid)
      for (int k = 0; k < PI; k++) xmem[XA'(32'(lcnt) * PI + k)] <= data_in_0[k*W +: W];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= S_LOAD;
      lcnt  <= '0;
      ob    <= '0;
      bg    <= '0;
      gbase <= '0;
      chunk <= '0;
      oy <= '0; ox <= '0; ky <= '0; kx <= '0;
      ecnt  <= '0;
      pos   <= '0;
    end else begin
      case (state)
        S_LOAD: if (data_in_0_valid) begin
          if (lcnt == LA'(NIN / PI - 1)) begin
            lcnt  <= '0;
            state <= S_RUN;
          end else begin
            lcnt <= lcnt + 1'b1;
          end
        end
        S_RUN: begin
          if (!last_kx) kx <= kx + 1'b1;
          else begin
            kx <= '0;
            if (!last_ky) ky <= ky + 1'b1;
            else begin
              ky <= '0;
              if (!last_chunk) chunk <= chunk + 1'b1;
              else begin
                chunk <= '0;
                pos   <= last_ox && last_oy ? '0 : pos + 1'b1;
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
        end
        S_EMIT: if (data_out_0_ready) begin
          if (ecnt == EA'(OHW - 1)) begin
            ecnt <= '0;
            if (last_ob) begin
              ob    <= '0;
              bg    <= '0;
              gbase <= '0;
              state <= S_LOAD;
            end else begin
              ob    <= ob + 1'b1;
              state <= S_RUN;
              if (bg == BGA'(BPG - 1)) begin
                bg    <= '0;
                gbase <= CA'(32'(gbase) + GSTEP);
              end else begin
                bg <= bg + 1'b1;
              end
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
