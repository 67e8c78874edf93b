// fixed_width_convert: repacks a stream of fixed-point words from
// IN_PARALLELISM words per beat to OUT_PARALLELISM words per beat, between two
// nodes that stream at different widths.
//
// Function: the words of data_out_0 are the words of data_in_0, unchanged and
//   in the same order (word 0 of a beat, in the low bits, first); only the
//   number of words per beat changes. Neither parallelism need divide the
//   other (2 -> 3, 4 -> 6, 6 -> 4 all work); the tensors are multiples of both,
//   so no partial beat occurs and nothing is padded or flushed.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format, not used by the logic),
//   IN_PARALLELISM (I, words per input beat), OUT_PARALLELISM (O, words per
//   output beat), both >= 1.
// Implementation: a queue of CAP = I + O + min(I, O) - 1 word registers, with
//   a count n of the words held, word 0 the oldest. The output beat is words
//   0 .. O-1, valid when n >= O; an input beat is taken when n <= CAP - I
//   (data_in_0_ready depends only on n, not on data_out_0_ready nor on
//   data_in_0_valid). In one clock edge the queue both shifts out a taken
//   output beat and appends a taken input beat. Both data_out_0 and
//   data_out_0_valid come straight from registers.
//   Why CAP suffices (no stalls on either side): with I <= O, n is at most
//   O - 1 + I at the start of any cycle (n >= O pops O), so the input is
//   always ready (n <= CAP - I = O + I - 1); with I > O, whenever n < 2*O
//   the input is ready (2*O - 1 <= CAP - I), so after a pop n stays >= O and
//   the output beat is valid every cycle once the first one is.
// Protocol: valid/ready on data_in_0 and data_out_0; a beat moves on a rising
//   clock edge where valid && ready; rst active-high, synchronous (empties the
//   queue).
// Latency and throughput with no stalls (input valid in every cycle from
//   cycle 0, output always ready): the output beat k (k = 0, 1, ...) is valid
//   and taken in cycle max(k + 1, ceil((k + 1) * O / I)), i.e. one cycle after
//   the input beat that completes it, and never later than one beat per
//   cycle allows: the converter is never the bottleneck. A stream of N words
//   leaves in N / min(I, O) cycles after a latency of 1 cycle (last output
//   beat in cycle N / min(I, O)); with I > O the input is stalled by the
//   output rate (it cannot be faster), with I <= O the input never stalls.
module fixed_width_convert #(
  parameter int DATA_WIDTH      = 8,
  parameter int FRAC_WIDTH      = 4,
  parameter int IN_PARALLELISM  = 2,
  parameter int OUT_PARALLELISM = 3
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
  localparam int W   = DATA_WIDTH;
  localparam int I   = IN_PARALLELISM;
  localparam int O   = OUT_PARALLELISM;
  localparam int CAP = I + O + ((I < O) ? I : O) - 1;   // words held
  localparam int CW  = $clog2(CAP + 1);                 // width of the count

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= DATA_WIDTH || I < 1 || O < 1) begin : g_bad_params
      initial $display("ERROR: fixed_width_convert: need 0 <= FRAC_WIDTH < DATA_WIDTH, IN_PARALLELISM >= 1, OUT_PARALLELISM >= 1");
    end
  endgenerate

  logic [CAP*W-1:0] q;      // the queue, word 0 (oldest) in the low bits
  logic [CAP*W-1:0] q_next;
  logic [CW-1:0]    n;      // words held
  logic [CW-1:0]    base;   // where an input beat's word 0 goes this edge
  logic             push;
  logic             pop;

  assign data_in_0_ready  = (n <= CW'(CAP - I));
  assign data_out_0_valid = (n >= CW'(O));
  assign data_out_0       = q[O*W-1:0];
  assign push = data_in_0_valid && data_in_0_ready;
  assign pop  = data_out_0_valid && data_out_0_ready;
  assign base = pop ? n - CW'(O) : n;

  // Slot k of the next queue: input word k - base if the input beat lands on
  // it (push, base <= k < base + I), else the word shifted down by a pop,
  // else its own.
  genvar k;
  generate
    for (k = 0; k < CAP; k = k + 1) begin : g_slot
      logic [W-1:0]   kept;
      logic [CW-1:0]  off;
      logic           lands;
      logic [W-1:0]   word;
      if (k + O < CAP) begin : g_shift
        assign kept = pop ? q[(k + O)*W +: W] : q[k*W +: W];
      end else begin : g_top
        assign kept = q[k*W +: W];   // a pop empties it; the value is not read
      end
      assign off     = CW'(k) - base;
      assign lands   = push && (CW'(k) >= base) && (off < CW'(I));
      assign word    = W'(data_in_0 >> (32'(off) * W));
      assign q_next[k*W +: W] = lands ? word : kept;
    end
  endgenerate

  always_ff @(posedge clk) begin
    if (rst) begin
      n <= '0;
    end else begin
      n <= base + (push ? CW'(I) : '0);
    end
    q <= q_next;
  end
endmodule
