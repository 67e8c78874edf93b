// fixed_skid_buffer: a two-entry skid buffer (register slice) for a stream of
// PARALLELISM words of DATA_WIDTH bits.
//
// Function: data_out_0 carries the same beats as data_in_0, in order, none lost
// or duplicated. Both data_out_0_valid and data_in_0_ready are registered, so it
// breaks combinational valid and ready paths. Full throughput (one beat per cycle).
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only, not used by the logic),
//   PARALLELISM (words per beat).
// Protocol: valid/ready; a beat moves on a rising clock edge where valid && ready.
//   rst is active-high, synchronous. Latency: 1 cycle.
module fixed_skid_buffer #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1
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
  localparam int BW = DATA_WIDTH * PARALLELISM;

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= DATA_WIDTH || PARALLELISM < 1) begin : g_bad_params
      initial $display("ERROR: fixed_skid_buffer: need 0 <= FRAC_WIDTH < DATA_WIDTH, PARALLELISM >= 1");
    end
  endgenerate

  logic [BW-1:0] out_q;
  logic [BW-1:0] skid_q;
  logic          out_v;
  logic          skid_v;

  assign data_in_0_ready  = !skid_v;
  assign data_out_0       = out_q;
  assign data_out_0_valid = out_v;

  always_ff @(posedge clk) begin
    if (rst) begin
      out_v  <= 1'b0;
      skid_v <= 1'b0;
    end else if (data_out_0_ready || !out_v) begin
      // The output register is free (or being drained) this cycle.
      if (skid_v) begin
        out_q  <= skid_q;
        out_v  <= 1'b1;
        skid_v <= 1'b0;
      end else begin
        out_q <= data_in_0;
        out_v <= data_in_0_valid;
      end
    end else if (data_in_0_valid && !skid_v) begin
      // Output stalled: park the incoming beat.
      skid_q <= data_in_0;
      skid_v <= 1'b1;
    end
  end
endmodule
