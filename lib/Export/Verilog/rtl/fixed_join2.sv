// fixed_join2: joins two streams into one registered stream; the handshake of
// the two-input elementwise components (fixed_add, fixed_mul).
//
// Function: the parent computes result combinationally from the current beats
//   of its two inputs (data_in_0, data_in_1, which only the parent sees); a
//   beat of result is taken, together with one beat of each input, on a rising
//   edge where both inputs are valid and the output stage can accept it, and
//   comes out on data_out_0 through a fixed_skid_buffer.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format of result, checked, not used by
//   the logic), PARALLELISM (words per beat).
// Protocol: valid/ready. data_in_0_ready = data_in_1_valid && (stage ready),
//   and the other way round: each input's ready depends on the other input's
//   valid, never on its own. rst active-high, synchronous.
//   Latency 1 cycle, one beat per cycle.
module fixed_join2 #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1
) (
  input  logic                              clk,
  input  logic                              rst,
  input  logic                              data_in_0_valid,
  output logic                              data_in_0_ready,
  input  logic                              data_in_1_valid,
  output logic                              data_in_1_ready,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] result,
  output logic [DATA_WIDTH*PARALLELISM-1:0] data_out_0,
  output logic                              data_out_0_valid,
  input  logic                              data_out_0_ready
);
  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= DATA_WIDTH || PARALLELISM < 1) begin : g_bad_params
      initial $display("ERROR: fixed_join2: need 0 <= FRAC_WIDTH < DATA_WIDTH, PARALLELISM >= 1");
    end
  endgenerate

  logic stage_ready;

  assign data_in_0_ready = data_in_1_valid && stage_ready;
  assign data_in_1_ready = data_in_0_valid && stage_ready;

  fixed_skid_buffer #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) u_out (
    .clk(clk), .rst(rst),
    .data_in_0(result), .data_in_0_valid(data_in_0_valid && data_in_1_valid),
    .data_in_0_ready(stage_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready)
  );
endmodule
