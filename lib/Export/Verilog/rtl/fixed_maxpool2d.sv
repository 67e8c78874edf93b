// fixed_maxpool2d: 2-D max pooling (torch.nn.MaxPool2d, no padding,
// dilation 1, floor mode) on a stream of fixed-point images.
//
// Function: for every input image x[CHANNELS][IN_HEIGHT][IN_WIDTH] (streamed in
//   row-major order: channel, row, column; PARALLELISM words per beat, word 0
//   in the low bits), emits y[CHANNELS][OH][OW] in the same order, with
//     OH = (IN_HEIGHT - KERNEL_H) / STRIDE + 1   (same for OW)
//     y[c][oy][ox] = max_{ky,kx} x[c][oy*STRIDE+ky][ox*STRIDE+kx]
//   (signed comparison; exact, same format <DATA_WIDTH, FRAC_WIDTH>).
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only), PARALLELISM (divides the
//   input and output element counts), CHANNELS, IN_HEIGHT, IN_WIDTH, KERNEL_H,
//   KERNEL_W, STRIDE.
// Implementation: the whole image is buffered (each beat is taken, then written
//   one word per cycle), then one window tap per cycle, then each output beat is
//   held until taken. Not pipelined.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Latency per image: (1 + PARALLELISM) cycles per input beat, then
//   CHANNELS*OH*OW*KERNEL_H*KERNEL_W tap cycles interleaved with the output
//   beats (each at least one cycle).
module fixed_maxpool2d #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int CHANNELS    = 2,
  parameter int IN_HEIGHT   = 4,
  parameter int IN_WIDTH    = 4,
  parameter int KERNEL_H    = 2,
  parameter int KERNEL_W    = 2,
  parameter int STRIDE      = 2
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
  localparam int C    = CHANNELS;
  localparam int H    = IN_HEIGHT;
  localparam int WD   = IN_WIDTH;
  localparam int KH   = KERNEL_H;
  localparam int KW   = KERNEL_W;
  localparam int OH   = (H - KH) / STRIDE + 1;
  localparam int OWD  = (WD - KW) / STRIDE + 1;
  localparam int NIN  = C * H * WD;
  localparam int BW   = P * W;
  localparam int XA   = (NIN > 1) ? $clog2(NIN) : 1;
  localparam int CA   = (C   > 1) ? $clog2(C)   : 1;
  localparam int KHA  = (KH  > 1) ? $clog2(KH)  : 1;
  localparam int KWA  = (KW  > 1) ? $clog2(KW)  : 1;
  localparam int OHA  = (OH  > 1) ? $clog2(OH)  : 1;
  localparam int OWA  = (OWD > 1) ? $clog2(OWD) : 1;
  localparam int PA   = $clog2(P + 1);
  localparam int ACC  = W;

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= W || P < 1 || NIN % P != 0 || (C * OH * OWD) % P != 0 ||
        STRIDE < 1 || KH > H || KW > WD) begin : g_bad_params
      initial $display("ERROR: fixed_maxpool2d: bad parameters");
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
  logic [ACC-1:0] acc;
  logic [CA-1:0]  c;
  logic [OHA-1:0] oy;
  logic [OWA-1:0] ox;
  logic [KHA-1:0] ky;
  logic [KWA-1:0] kx;

  logic [XA-1:0]  addr;
  logic [W-1:0]   x_word;
  logic [ACC-1:0] acc_next;
  logic [W-1:0]   y_word;
  logic           first_tap;
  logic           last_kx;
  logic           last_ky;
  logic           last_ox;
  logic           last_oy;
  logic           last_c;

  assign addr      = XA'(32'(c) * (H * WD) + (32'(oy) * STRIDE + 32'(ky)) * WD
                         + 32'(ox) * STRIDE + 32'(kx));
  assign x_word    = xmem[addr];
  assign first_tap = (ky == '0) && (kx == '0);
  // Signed maximum; the first tap of a window replaces the running value.
  assign acc_next  = (first_tap || $signed(x_word) > $signed(acc)) ? x_word : acc;
  assign y_word    = acc_next;
  assign last_kx   = (kx == KWA'(KW - 1));
  assign last_ky   = (ky == KHA'(KH - 1));
  assign last_ox   = (ox == OWA'(OWD - 1));
  assign last_oy   = (oy == OHA'(OH - 1));
  assign last_c    = (c == CA'(C - 1));

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
      c  <= '0; oy <= '0; ox <= '0;
      ky <= '0; kx <= '0;
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
          acc <= acc_next;
          if (!last_kx) kx <= kx + 1'b1;
          else begin
            kx <= '0;
            if (!last_ky) ky <= ky + 1'b1;
            else begin
              // One output done.
              ky   <= '0;
              obuf <= (obuf >> W) | (BW'(y_word) << (BW - W));
              if (!last_ox) ox <= ox + 1'b1;
              else begin
                ox <= '0;
                if (!last_oy) oy <= oy + 1'b1;
                else begin
                  oy <= '0;
                  c  <= last_c ? '0 : c + 1'b1;
                end
              end
              last_out <= last_ox && last_oy && last_c;
              if (pcnt == PA'(P - 1)) begin
                pcnt  <= '0;
                state <= S_EMIT;
              end else begin
                pcnt <= pcnt + 1'b1;
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
