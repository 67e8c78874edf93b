// Testbench of fixed_join2 (test/Hardware/join2.test), run by Inputs/sim.sh
// under Verilator (--binary --timing) and Icarus (-g2012) as module tb.
//
// Each join2_case drives the two inputs with independent random valid stalls
// (each input holds its beat until it is taken) and the output with random
// ready stalls. The parent's result is computed here as the parent would:
// combinationally from the two current input beats, result = d0 - d1 (per
// beat, modulo 2^BW), so that a beat of one input paired with the wrong beat
// of the other shows on the output. Every cycle it checks:
//   - the join: a beat of input 0 is taken exactly when a beat of input 1 is
//     (v0 && r0) == (v1 && r1), which fails when an input's ready ignores the
//     other input's valid;
//   - the documented ready rule: data_in_0_ready only with data_in_1_valid,
//     data_in_1_ready only with data_in_0_valid;
//   - the output: beat k is beat k of input 0 minus beat k of input 1, no beat
//     is lost or extra, and a stalled output holds its valid and data.
// The full-rate case also checks throughput: one beat per cycle once started.
// Each case prints "MISMATCH: case <k>: ..." per error; module tb prints, once
// all cases are done, "case <k>: PASS <n> beats" or "case <k>: FAIL ...".
module join2_case #(
  parameter int          DATA_WIDTH  = 8,
  parameter int          FRAC_WIDTH  = 4,
  parameter int          PARALLELISM = 1,
  parameter int          BEATS       = 200,
  parameter int          RATE0       = 10,  // input 0 offers a beat with probability RATE0/16
  parameter int          RATE1       = 10,
  parameter int          OUT_RATE    = 7,   // output ready with probability OUT_RATE/16
  parameter logic [31:0] SEED        = 32'd1,
  parameter int          ID          = 0     // case number in the messages
) (
  input  logic clk,
  input  logic rst,
  output logic done,
  output int   errors,
  output int   received
);
  localparam int BW = DATA_WIDTH * PARALLELISM;
  localparam int TIMEOUT = 40 * BEATS + 200;

  function automatic logic [31:0] xs(input logic [31:0] v);
    logic [31:0] t;
    t = v ^ (v << 13); t = t ^ (t >> 17); return t ^ (t << 5);
  endfunction

  // Beat k of input `stream`: BW pseudo-random bits.
  function automatic logic [BW-1:0] beat(input int stream, input int k);
    logic [31:0] h;
    logic [BW-1:0] v;
    h = SEED ^ (32'h9e3779b9 * (stream + 1)) ^ (32'h85ebca6b * k);
    v = '0;
    for (int b = 0; b < BW; b++) begin
      if (b % 32 == 0) begin h = xs(h); if (h == 0) h = 32'd1; h = xs(h); end
      v[b] = h[b % 32];
    end
    return v;
  endfunction

  // The two input streams.
  logic [BW-1:0] d0 = '0, d1 = '0;
  logic v0 = 1'b0, v1 = 1'b0;
  logic r0, r1;
  int i0 = 0, i1 = 0;  // beats taken
  logic [31:0] s0 = SEED ^ 32'h1234567, s1 = SEED ^ 32'h7654321, so = SEED ^ 32'h0badcafe;

  always @(posedge clk) begin
    s0 <= xs(s0);
    s1 <= xs(s1);
    if (!rst) begin
      if (v0 && r0) i0 <= i0 + 1;
      if (!v0 || r0) begin
        if (i0 + ((v0 && r0) ? 1 : 0) < BEATS && int'(s0[3:0]) < RATE0) begin
          v0 <= 1'b1;
          d0 <= beat(0, i0 + ((v0 && r0) ? 1 : 0));
        end else begin
          v0 <= 1'b0;
        end
      end
      if (v1 && r1) i1 <= i1 + 1;
      if (!v1 || r1) begin
        if (i1 + ((v1 && r1) ? 1 : 0) < BEATS && int'(s1[3:0]) < RATE1) begin
          v1 <= 1'b1;
          d1 <= beat(1, i1 + ((v1 && r1) ? 1 : 0));
        end else begin
          v1 <= 1'b0;
        end
      end
    end
  end

  // The parent's combinational result.
  logic [BW-1:0] result;
  assign result = d0 - d1;

  logic [BW-1:0] dout;
  logic vout;
  logic rout = 1'b0;

  fixed_join2 #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) dut (
    .clk(clk), .rst(rst),
    .data_in_0_valid(v0), .data_in_0_ready(r0),
    .data_in_1_valid(v1), .data_in_1_ready(r1),
    .result(result),
    .data_out_0(dout), .data_out_0_valid(vout), .data_out_0_ready(rout)
  );

  int cycle = 0;
  int first = -1;  // cycle of the first output beat
  int drain = 0;
  logic held = 1'b0;
  logic [BW-1:0] held_data = '0;
  logic [BW-1:0] want;

  initial begin
    done = 1'b0;
    errors = 0;
    received = 0;
  end

  always @(posedge clk) begin
    cycle <= cycle + 1;
    so <= xs(so);
    if (!rst && !done) begin
      rout <= int'(so[3:0]) < OUT_RATE;
      // The join and the ready rule, on the handshakes of this edge.
      if ((v0 && r0) != (v1 && r1)) begin
        $display("MISMATCH: case %0d: cycle %0d: input %0d beat taken without input %0d (v0=%b r0=%b v1=%b r1=%b)",
                 ID, cycle, (v0 && r0) ? 0 : 1, (v0 && r0) ? 1 : 0, v0, r0, v1, r1);
        errors <= errors + 1;
      end
      if (r0 && !v1) begin
        $display("MISMATCH: case %0d: cycle %0d: data_in_0_ready without data_in_1_valid", ID, cycle);
        errors <= errors + 1;
      end
      if (r1 && !v0) begin
        $display("MISMATCH: case %0d: cycle %0d: data_in_1_ready without data_in_0_valid", ID, cycle);
        errors <= errors + 1;
      end
      // The output.
      if (held && (!vout || dout !== held_data)) begin
        $display("MISMATCH: case %0d: output changed while stalled at beat %0d", ID, received);
        errors <= errors + 1;
      end
      held <= vout && !rout;
      held_data <= dout;
      if (vout && rout) begin
        want = beat(0, received) - beat(1, received);
        if (received >= BEATS) begin
          $display("MISMATCH: case %0d: extra beat %h", ID, dout);
          errors <= errors + 1;
        end else if (dout !== want) begin
          $display("MISMATCH: case %0d: beat %0d got %h expected %h", ID, received, dout, want);
          errors <= errors + 1;
        end
        if (received == 0) first <= cycle;
        // At full rate on all three ports the join moves one beat per cycle.
        if (RATE0 >= 16 && RATE1 >= 16 && OUT_RATE >= 16 && received == BEATS - 1 &&
            cycle - first != BEATS - 1) begin
          $display("MISMATCH: case %0d: %0d beats took %0d cycles at full rate", ID, BEATS, cycle - first + 1);
          errors <= errors + 1;
        end
        received <= received + 1;
      end
      if (received >= BEATS) drain <= drain + 1;
      if (drain == 100) done <= 1'b1;
      if (cycle == TIMEOUT) begin
        $display("MISMATCH: case %0d: timeout after %0d output beats (%0d and %0d input beats taken)",
                 ID, received, i0, i1);
        errors <= errors + 1;
        done <= 1'b1;
      end
    end
  end
endmodule

module tb;
  logic clk = 1'b0;
  logic rst = 1'b1;
  int cycle = 0;
  always #5 clk = ~clk;
  always @(posedge clk) begin
    cycle <= cycle + 1;
    if (cycle == 3) rst <= 1'b0;
  end

  localparam int N = 5;
  logic done [N];
  int errors [N];
  int received [N];

  // Case 0, as add.test: both inputs often stalled, the output stalled half
  // the time.
  join2_case #(.BEATS(300), .RATE0(10), .RATE1(10), .OUT_RATE(7), .SEED(32'd7), .ID(0))
    c0 (clk, rst, done[0], errors[0], received[0]);
  // Case 1: input 0 always offers, input 1 rarely: input 0 waits for input 1.
  join2_case #(.DATA_WIDTH(16), .FRAC_WIDTH(8), .PARALLELISM(3), .BEATS(200),
               .RATE0(16), .RATE1(3), .OUT_RATE(12), .SEED(32'd11), .ID(1))
    c1 (clk, rst, done[1], errors[1], received[1]);
  // Case 2: the other way round.
  join2_case #(.PARALLELISM(2), .BEATS(200), .RATE0(3), .RATE1(16), .OUT_RATE(12),
               .SEED(32'd13), .ID(2))
    c2 (clk, rst, done[2], errors[2], received[2]);
  // Case 3: no stalls: one beat per cycle.
  join2_case #(.BEATS(300), .RATE0(16), .RATE1(16), .OUT_RATE(16), .SEED(32'd17), .ID(3))
    c3 (clk, rst, done[3], errors[3], received[3]);
  // Case 4: both inputs always offer, the output is rarely ready: the output
  // stage fills and must hold both inputs back.
  join2_case #(.DATA_WIDTH(8), .FRAC_WIDTH(0), .PARALLELISM(1), .BEATS(200),
               .RATE0(16), .RATE1(16), .OUT_RATE(3), .SEED(32'd19), .ID(4))
    c4 (clk, rst, done[4], errors[4], received[4]);

  always @(posedge clk) begin
    if (done[0] && done[1] && done[2] && done[3] && done[4]) begin
      for (int k = 0; k < N; k++) begin
        if (errors[k] == 0) $display("case %0d: PASS %0d beats", k, received[k]);
        else $display("case %0d: FAIL: %0d errors, %0d beats", k, errors[k], received[k]);
      end
      $finish;
    end
  end
endmodule
