// fixed_channel_mul: multiplies each channel of an image by one scale word,
// broadcast over H and W (the squeeze-and-excitation scale, x * s with s of
// shape [N, C, 1, 1]).
//
// Function: per image, data_in_1 carries the CHANNELS scale words s[0..C-1]
//   and data_in_0 the CHANNELS * SPATIAL words x of the image in row-major
//   order (channel, then the SPATIAL = H * W positions); word i of the image
//   becomes
//     y = requant_W(x * s[i / SPATIAL], F) = sat_W(rne(x * s[i / SPATIAL], F))
//   all in <DATA_WIDTH, FRAC_WIDTH> (docs/Hardware.md, "Per operation"; the
//   product is exact in 2W bits, as for fixed_mul).
// Parameters: DATA_WIDTH, FRAC_WIDTH, PARALLELISM (P, words per beat of x and
//   y, divides CHANNELS * SPATIAL), SCALE_PARALLELISM (SP, words per beat of s,
//   divides CHANNELS), CHANNELS (C), SPATIAL (S = H * W). Checked.
// Implementation: two phases per image. Load: takes the C/SP scale beats
//   (data_in_1_ready = 1, data_in_0_ready = 0) into a C-word register. Stream:
//   takes the C*S/P beats of x (data_in_1_ready = 0), each word multiplied by
//   its channel's scale (each lane of the bus keeps its own channel and
//   position counters), into a fixed_skid_buffer; after the last x beat of
//   the image it loads the next image's scales. The scales of one image are
//   not loaded while the previous image streams (no double buffering).
// Protocol: valid/ready on data_in_0, data_in_1 and data_out_0; a beat moves
//   on a rising clock edge where valid && ready; no ready depends on its own
//   valid; rst active-high, synchronous (back to loading the scales).
// Latency and throughput with no stalls: an image takes C/SP + C*S/P cycles:
//   the scale beats in cycles 0 .. C/SP - 1, the x beats in cycles C/SP ..
//   C/SP + C*S/P - 1, each output beat one cycle after its x beat (the first
//   in cycle C/SP + 1, the last in cycle C/SP + C*S/P); the next image's
//   scale beats start in cycle C/SP + C*S/P.
module fixed_channel_mul #(
  parameter int DATA_WIDTH        = 8,
  parameter int FRAC_WIDTH        = 4,
  parameter int PARALLELISM       = 1,
  parameter int SCALE_PARALLELISM = 1,
  parameter int CHANNELS          = 2,
  parameter int SPATIAL           = 4
) (
  input  logic                                    clk,
  input  logic                                    rst,
  input  logic [DATA_WIDTH*PARALLELISM-1:0]       data_in_0,
  input  logic                                    data_in_0_valid,
  output logic                                    data_in_0_ready,
  input  logic [DATA_WIDTH*SCALE_PARALLELISM-1:0] data_in_1,
  input  logic                                    data_in_1_valid,
  output logic                                    data_in_1_ready,
  output logic [DATA_WIDTH*PARALLELISM-1:0]       data_out_0,
  output logic                                    data_out_0_valid,
  input  logic                                    data_out_0_ready
);
  localparam int W     = DATA_WIDTH;
  localparam int P     = PARALLELISM;
  localparam int SP    = SCALE_PARALLELISM;
  localparam int C     = CHANNELS;
  localparam int S     = SPATIAL;
  localparam int NS    = (SP > 0) ? C / SP : 1;          // scale beats per image
  localparam int NX    = (P > 0) ? C * S / P : 1;        // x beats per image
  localparam int NSA   = (NS > 1) ? $clog2(NS) : 1;
  localparam int NXA   = (NX > 1) ? $clog2(NX) : 1;
  localparam int CA    = (C > 1) ? $clog2(C) : 1;        // channel index
  localparam int SA    = $clog2(S) + 1;                  // position + step < 2S
  localparam int P_DIV = (S > 0) ? P / S : 0;            // a beat advances a lane by
  localparam int P_MOD = (S > 0) ? P % S : 0;            // P words: P_DIV channels, P_MOD positions

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= DATA_WIDTH || P < 1 || SP < 1 || C < 1 || S < 1 ||
        (C * S) % P != 0 || C % SP != 0) begin : g_bad_params
      initial $display("ERROR: fixed_channel_mul: need 0 <= FRAC_WIDTH < DATA_WIDTH, PARALLELISM dividing CHANNELS*SPATIAL, SCALE_PARALLELISM dividing CHANNELS");
    end
  endgenerate

  logic             loading;     // phase: taking the scales
  logic [NSA-1:0]   s_beat;
  logic [NXA-1:0]   x_beat;
  logic [C*W-1:0]   scales;      // s[c] in word c
  logic             s_take;
  logic             x_take;
  logic             x_last;
  logic             stage_ready;
  logic [W*P-1:0]   result;

  assign data_in_1_ready = loading;
  assign data_in_0_ready = !loading && stage_ready;
  assign s_take = data_in_1_valid && loading;
  assign x_take = data_in_0_valid && data_in_0_ready;
  assign x_last = (x_beat == NXA'(NX - 1));

  always_ff @(posedge clk) begin
    if (rst) begin
      loading <= 1'b1;
      s_beat  <= '0;
      x_beat  <= '0;
    end else begin
      if (s_take) begin
        s_beat <= (s_beat == NSA'(NS - 1)) ? '0 : s_beat + 1'b1;
        if (s_beat == NSA'(NS - 1)) loading <= 1'b0;
      end
      if (x_take) begin
        x_beat <= x_last ? '0 : x_beat + 1'b1;
        if (x_last) loading <= 1'b1;
      end
    end
  end

  // The scale beats shift in from the top: after C/SP beats, beat b is in
  // words b*SP .. b*SP + SP - 1.
  generate
    if (NS > 1) begin : g_shift_in
      always_ff @(posedge clk) begin
        if (s_take) scales <= {data_in_1, scales[C*W-1:SP*W]};
      end
    end else begin : g_load
      always_ff @(posedge clk) begin
        if (s_take) scales <= data_in_1;
      end
    end
  endgenerate

  // Lane j of the bus: the channel ch and position sp (in the channel) of its
  // word; at the start of an image word j is at (j / S, j % S), and each beat
  // moves it P words on.
  genvar j;
  generate
    for (j = 0; j < P; j = j + 1) begin : g_lane
      localparam logic [CA-1:0] CH0 = CA'(j / S);
      localparam logic [SA-1:0] SP0 = SA'(j % S);
      logic [CA-1:0]  ch;
      logic [SA-1:0]  sp;
      logic [SA-1:0]  sp_sum;
      logic           carry;
      logic [W-1:0]   x;
      logic [W-1:0]   s;
      logic [2*W-1:0] wide;

      assign sp_sum = sp + SA'(P_MOD);
      assign carry  = (sp_sum >= SA'(S));
      always_ff @(posedge clk) begin
        if (rst || (x_take && x_last)) begin
          ch <= CH0;
          sp <= SP0;
        end else if (x_take) begin
          ch <= ch + CA'(P_DIV) + CA'(carry);
          sp <= carry ? sp_sum - SA'(S) : sp_sum;
        end
      end

      assign x    = data_in_0[j*W +: W];
      assign s    = W'(scales >> (32'(ch) * W));
      assign wide = {{W{x[W-1]}}, x} * {{W{s[W-1]}}, s};
      fixed_round_sat #(.IN_WIDTH(2 * W), .SHIFT(FRAC_WIDTH), .OUT_WIDTH(W)) u_rs (
        .data_in(wide), .data_out(result[j*W +: W]));
    end
  endgenerate

  fixed_skid_buffer #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) u_out (
    .clk(clk), .rst(rst),
    .data_in_0(result), .data_in_0_valid(data_in_0_valid && !loading),
    .data_in_0_ready(stage_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready)
  );
endmodule
