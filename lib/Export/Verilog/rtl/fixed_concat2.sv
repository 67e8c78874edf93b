// fixed_concat2: concatenates two streams of images along the channels
// (torch.cat([a, b], dim=1) of two NCHW tensors).
//
// Function: per image, data_out_0 carries the IN0_WORDS words of data_in_0's
//   image, then the IN1_WORDS words of data_in_1's image (for NCHW tensors,
//   C0 * H * W and C1 * H * W words: the channels of a, then those of b),
//   unchanged; then the next image. Same format <DATA_WIDTH, FRAC_WIDTH>.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only), PARALLELISM (P, words per
//   beat on all three streams; divides IN0_WORDS and IN1_WORDS, checked),
//   IN0_WORDS, IN1_WORDS (words per image of each input, >= 1).
// Implementation: a selector passes IN0_WORDS/P beats of data_in_0, then
//   IN1_WORDS/P beats of data_in_1, into a fixed_skid_buffer. Input 1 is not
//   taken while input 0's image is in progress (its producer waits), and
//   input 0 not while input 1's is.
// Protocol: valid/ready on data_in_0, data_in_1 and data_out_0; a beat moves
//   on a rising clock edge where valid && ready; data_in_N_ready depends on
//   the phase and the output stage only, never on a valid; rst active-high,
//   synchronous (back to the start of an image from data_in_0).
// Latency and throughput with no stalls: one beat per cycle, latency 1
//   cycle: an image takes (IN0_WORDS + IN1_WORDS)/P cycles; the beat taken in
//   cycle k (input 0's first beat in cycle 0, input 1's first in cycle
//   IN0_WORDS/P) is on data_out_0 in cycle k + 1.
module fixed_concat2 #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int IN0_WORDS   = 8,
  parameter int IN1_WORDS   = 4
) (
  input  logic                              clk,
  input  logic                              rst,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] data_in_0,
  input  logic                              data_in_0_valid,
  output logic                              data_in_0_ready,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] data_in_1,
  input  logic                              data_in_1_valid,
  output logic                              data_in_1_ready,
  output logic [DATA_WIDTH*PARALLELISM-1:0] data_out_0,
  output logic                              data_out_0_valid,
  input  logic                              data_out_0_ready
);
  localparam int P   = PARALLELISM;
  localparam int N0  = (P > 0) ? IN0_WORDS / P : 1;   // beats per image, input 0
  localparam int N1  = (P > 0) ? IN1_WORDS / P : 1;   // and input 1
  localparam int NA  = ((N0 > N1 ? N0 : N1) > 1) ? $clog2(N0 > N1 ? N0 : N1) : 1;

  generate
    if (P < 1 || IN0_WORDS < 1 || IN1_WORDS < 1 || IN0_WORDS % P != 0 || IN1_WORDS % P != 0) begin : g_bad_params
      initial $display("ERROR: fixed_concat2: need PARALLELISM dividing IN0_WORDS >= 1 and IN1_WORDS >= 1");
    end
  endgenerate

  logic          second;   // phase: passing input 1's image
  logic [NA-1:0] beat;     // beats passed in this phase
  logic          stage_ready;
  logic          take;
  logic          last;

  assign data_in_0_ready = !second && stage_ready;
  assign data_in_1_ready = second && stage_ready;
  assign take = second ? (data_in_1_valid && stage_ready) : (data_in_0_valid && stage_ready);
  assign last = (beat == (second ? NA'(N1 - 1) : NA'(N0 - 1)));

  always_ff @(posedge clk) begin
    if (rst) begin
      second <= 1'b0;
      beat   <= '0;
    end else if (take) begin
      beat <= last ? '0 : beat + 1'b1;
      if (last) second <= !second;
    end
  end

  fixed_skid_buffer #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) u_out (
    .clk(clk), .rst(rst),
    .data_in_0(second ? data_in_1 : data_in_0),
    .data_in_0_valid(second ? data_in_1_valid : data_in_0_valid),
    .data_in_0_ready(stage_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready)
  );
endmodule
