// fixed_fork: broadcasts one stream of fixed-point words to OUTPUTS consumers.
//
// Function: every consumer receives every beat of data_in_0, in order, exactly
//   once. data_out_0 is shared by all consumers (it is data_in_0, unchanged);
//   consumer i has its own data_out_0_valid[i] and data_out_0_ready[i].
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only, not used by the logic),
//   PARALLELISM (words per beat), OUTPUTS (consumers, >= 2).
// Protocol: valid/ready; a beat moves on a rising clock edge where valid &&
//   ready; rst active-high, synchronous. Eager fork: a consumer may take the
//   current beat as soon as it is ready, whatever the others do; a register
//   per consumer remembers that it has taken it, and its valid stays low
//   until the next beat. The input beat is consumed on the edge where every
//   consumer has taken it or takes it:
//     data_out_0_valid[i] = data_in_0_valid && !taken[i]
//     data_in_0_ready     = AND over i of (data_out_0_ready[i] || taken[i])
//   data_in_0_ready depends combinationally on the consumers' ready (not on
//   data_in_0_valid); data_out_0 and data_out_0_valid depend combinationally
//   on data_in_0 and data_in_0_valid, which the producer holds stable.
//   Latency 0 (combinational); one beat per cycle when every consumer is ready.
module fixed_fork #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int OUTPUTS     = 2
) (
  input  logic                              clk,
  input  logic                              rst,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] data_in_0,
  input  logic                              data_in_0_valid,
  output logic                              data_in_0_ready,
  output logic [DATA_WIDTH*PARALLELISM-1:0] data_out_0,
  output logic [OUTPUTS-1:0]                data_out_0_valid,
  input  logic [OUTPUTS-1:0]                data_out_0_ready
);
  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= DATA_WIDTH || PARALLELISM < 1 || OUTPUTS < 2) begin : g_bad_params
      initial $display("ERROR: fixed_fork: need 0 <= FRAC_WIDTH < DATA_WIDTH, PARALLELISM >= 1, OUTPUTS >= 2");
    end
  endgenerate

  logic [OUTPUTS-1:0] taken;   // consumer i has taken the current input beat

  assign data_out_0       = data_in_0;
  assign data_out_0_valid = {OUTPUTS{data_in_0_valid}} & ~taken;
  assign data_in_0_ready  = &(data_out_0_ready | taken);

  always_ff @(posedge clk) begin
    if (rst || (data_in_0_valid && data_in_0_ready)) begin
      taken <= '0;
    end else begin
      taken <= taken | (data_out_0_valid & data_out_0_ready);
    end
  end
endmodule
