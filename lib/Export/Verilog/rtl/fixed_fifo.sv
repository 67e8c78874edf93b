// fixed_fifo: a synchronous FIFO of DEPTH beats, each PARALLELISM words of
// DATA_WIDTH bits.
//
// Function: data_out_0 carries the beats of data_in_0, in order, none lost or
// duplicated. data_in_0_ready = not full; data_out_0_valid = not empty. A beat
// may enter and another leave in the same cycle. First-word fall-through:
// data_out_0 shows the head entry while data_out_0_valid is high.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only, not used by the logic),
//   PARALLELISM (words per beat), DEPTH (entries, a power of two >= 2).
// Protocol: valid/ready; a beat moves on a rising clock edge where valid && ready.
//   rst is active-high, synchronous. Latency: 1 cycle (write to valid).
module fixed_fifo #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int DEPTH       = 4
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
  localparam int AW = $clog2(DEPTH);

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= DATA_WIDTH || PARALLELISM < 1 ||
        DEPTH < 2 || (1 << AW) != DEPTH) begin : g_bad_params
      initial $display("ERROR: fixed_fifo: need 0 <= FRAC_WIDTH < DATA_WIDTH, PARALLELISM >= 1, DEPTH a power of two >= 2");
    end
  endgenerate

  logic [BW-1:0] mem [0:DEPTH-1];
  logic [AW-1:0] rd_ptr;
  logic [AW-1:0] wr_ptr;
  logic [AW:0]   count;
  logic          push;
  logic          pop;

  assign data_in_0_ready  = (count != (AW + 1)'(DEPTH));
  assign data_out_0_valid = (count != '0);
  assign data_out_0       = mem[rd_ptr];
  assign push             = data_in_0_valid && data_in_0_ready;
  assign pop              = data_out_0_valid && data_out_0_ready;

  always_ff @(posedge clk) begin
    if (push) mem[wr_ptr] <= data_in_0;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      rd_ptr <= '0;
      wr_ptr <= '0;
      count  <= '0;
    end else begin
      if (push) wr_ptr <= wr_ptr + 1'b1;
      if (pop)  rd_ptr <= rd_ptr + 1'b1;
      if (push && !pop)      count <= count + 1'b1;
      else if (pop && !push) count <= count - 1'b1;
    end
  end
endmodule
