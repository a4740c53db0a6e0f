// tb_idiv: clhls_idiv for WIDTH 8/16/32/64, SIGNED 0/1 and LATENCY 1, 3, 36, WIDTH
// and WIDTH + 1 (the corners of its register structure; 36 and 9 exceed 8 bits),
// plus WIDTH 32 / LATENCY 34 (the defaults, two spare registers). The reference is
// computed here on a separate path: Verilog's own / and % (truncating, remainder
// with the dividend's sign) with division by zero and the signed overflow spelled
// out, and every reference result is checked against q * b + r == a, |r| < |b| and
// the sign of r. Operands: a cross product of edge values (0, 1, 2, -1, -2, min,
// min + 1, max, max - 1, ...), every pair for 8 bits, then targeted random pairs
// (random magnitudes, b = 0 / 1 / -1, a < b, a == b, a = k * b + small). Each
// instance has its own randomly toggled clock enable (long stalls, single bubbles,
// full-rate runs) and random operands while ce = 0; a reference pipeline advances
// only on enabled cycles and q, r are compared bit-exactly on every cycle, so a
// divider that advances or changes while ce = 0 fails too.
`timescale 1ns/1ps

module idiv_check #(
    parameter W = 32, parameter SIGNED = 0, parameter LAT = 36,
    parameter DEFAULTS = 0,  // 1: instantiate clhls_idiv with its default parameters
    parameter RANDOM = 20000 // random vectors after the edge cases
) (input wire clk, output reg done, output integer errors, output integer checked);
    localparam MAX_REPORTS = 8;
    localparam NE = 14;                               // edge values
    localparam EXHAUSTIVE = (W == 8) ? 65536 : 0;     // every 8-bit pair
    localparam N = NE * NE + EXHAUSTIVE + RANDOM;     // vectors in all
    localparam [W-1:0] ONES = {W{1'b1}};
    localparam [W-1:0] MIN  = (SIGNED != 0) ? {1'b1, {(W-1){1'b0}}} : {W{1'b0}};
    localparam [W-1:0] MAX  = (SIGNED != 0) ? {1'b0, {(W-1){1'b1}}} : {W{1'b1}};

    reg ce = 0;
    reg [W-1:0] a_in = 0, b_in = 0;
    wire [W-1:0] q, r;
    integer next = 0, cycle = 0, k;
    integer cur = -1;              // number of the vector on a_in/b_in, -1: none (garbage)
    integer last_bad = -1;         // last vector reported (once, even if held for cycles)
    // Reference pipeline, one entry per enabled register stage; num -1: bubble.
    integer     p_num [0:LAT-1];
    reg [W-1:0] p_a [0:LAT-1], p_b [0:LAT-1], p_q [0:LAT-1], p_r [0:LAT-1];
    reg [W-1:0] va, vb, eq, er;
    reg en;

    generate
        if (DEFAULTS) begin : u
            clhls_idiv dut (.clk(clk), .ce(ce), .a(a_in), .b(b_in), .q(q), .r(r));
        end else begin : u
            clhls_idiv #(.WIDTH(W), .SIGNED(SIGNED), .LATENCY(LAT)) dut (
                .clk(clk), .ce(ce), .a(a_in), .b(b_in), .q(q), .r(r));
        end
    endgenerate

    function automatic [W-1:0] rnd(input integer dummy);
        rnd = {$urandom, $urandom};
    endfunction

    // A random value of 1 .. W significant bits (and a random sign when signed).
    function automatic [W-1:0] rnd_len(input integer dummy);
        reg [W-1:0] v;
        begin
            v = rnd(0) >> ($urandom % W);
            if (SIGNED != 0 && $urandom % 2) v = -v;
            rnd_len = v;
        end
    endfunction

    function automatic [W-1:0] edge_value(input integer n);
        case (n)
            0: edge_value = 0;
            1: edge_value = 1;
            2: edge_value = 2;
            3: edge_value = 3;
            4: edge_value = 7;
            5: edge_value = ONES;          // -1
            6: edge_value = ONES - 1;      // -2
            7: edge_value = ONES - 6;      // -7
            8: edge_value = MIN;
            9: edge_value = MIN + 1;
            10: edge_value = MAX;
            11: edge_value = MAX - 1;
            12: edge_value = {1'b1, {(W-1){1'b0}}};   // 2^(W-1) also when unsigned
            default: edge_value = {1'b0, {(W-1){1'b1}}};
        endcase
    endfunction

    // Operands of vector n: edge cross product, then every 8-bit pair, then random.
    task automatic operands(input integer n, output [W-1:0] x, output [W-1:0] y);
        integer m;
        reg [W-1:0] t;
        begin
            if (n < NE * NE) begin
                x = edge_value(n / NE); y = edge_value(n % NE);
            end else if (n < NE * NE + EXHAUSTIVE) begin
                m = n - NE * NE;
                x = m % 256; y = m / 256;
            end else begin
                case ($urandom % 10)
                    0: begin x = rnd(0); y = rnd(0); end
                    1: begin x = rnd(0); y = rnd_len(0); end
                    2, 3: begin x = rnd_len(0); y = rnd_len(0); end
                    4: begin                                // tiny, unit and extreme divisors
                        x = rnd_len(0);
                        case ($urandom % 6)
                            0: y = 0; 1: y = 1; 2: y = ONES;
                            3: y = MIN; 4: y = MAX; default: y = $urandom % 4;
                        endcase
                    end
                    5: begin                                // extreme dividends
                        case ($urandom % 4)
                            0: x = MIN; 1: x = MAX; 2: x = 0; default: x = ONES;
                        endcase
                        y = rnd_len(0);
                    end
                    6: begin x = rnd_len(0); y = ($urandom % 2) ? x : -x; end  // |a| == |b|
                    7: begin                                // |a| < |b|
                        y = rnd_len(0);
                        t = (SIGNED != 0 && y[W-1]) ? -y : y;
                        x = (t == 0) ? 0 : rnd(0) % t;
                        if (SIGNED != 0 && $urandom % 2) x = -x;
                    end
                    default: begin                          // a = k * b + small: remainders near 0 and b
                        y = rnd_len(0);
                        t = $urandom % 64;
                        x = y * t + (($urandom % 2) ? $urandom % 4 : -($urandom % 4));
                    end
                endcase
            end
        end
    endtask

    // |v| as W + 1 bits (the most negative value has no W-bit magnitude).
    function automatic [W:0] mag(input [W-1:0] v);
        mag = (SIGNED != 0 && v[W-1]) ? -{1'b1, v} : {1'b0, v};
    endfunction

    // The expected {q, r}: C semantics plus clhls' choices for b = 0 and overflow.
    task automatic reference(input [W-1:0] x, input [W-1:0] y, output [W-1:0] qq, output [W-1:0] rr);
        reg signed [W-1:0] sx, sy;
        reg [W-1:0] back;
        begin
            sx = x; sy = y;
            if (y == 0) begin
                qq = ONES; rr = x;
            end else if (SIGNED != 0 && x == MIN && y == ONES) begin
                qq = MIN; rr = 0;
            end else begin
                if (SIGNED != 0) begin qq = sx / sy; rr = sx % sy; end
                else begin qq = x / y; rr = x % y; end
                // The reference itself: a = q * b + r, |r| < |b|, r has the sign of a.
                back = qq * y + rr;
                if (back !== x || mag(rr) >= mag(y) || (SIGNED != 0 && rr != 0 && rr[W-1] != x[W-1])) begin
                    $display("FAIL idiv reference broken: W=%0d SIGNED=%0d a=%h b=%h q=%h r=%h",
                             W, SIGNED, x, y, qq, rr);
                    $fatal(1);
                end
            end
        end
    endtask

    // Random clock enable: the mode changes every 256 cycles.
    function automatic reg pick_ce(input integer c);
        case ((c / 256) % 5)
            0: pick_ce = 1'b1;                       // full rate
            1: pick_ce = ($urandom % 4) != 0;
            2: pick_ce = ($urandom % 2) != 0;
            3: pick_ce = ($urandom % 8) == 0;        // long stalls
            default: pick_ce = ($urandom % 16) != 0; // single bubbles
        endcase
    endfunction

    initial begin
        done = 0; errors = 0; checked = 0;
        for (k = 0; k < LAT; k = k + 1) p_num[k] = -1;
    end

    always @(posedge clk) if (!done) begin
        cycle = cycle + 1;
        // The output before this edge must be the vector in the last stage, also while
        // ce = 0: it holds.
        if (p_num[LAT-1] >= 0) begin
            if ((q !== p_q[LAT-1] || r !== p_r[LAT-1]) && p_num[LAT-1] != last_bad) begin
                if (errors < MAX_REPORTS)
                    $display("FAIL idiv W=%0d SIGNED=%0d LATENCY=%0d vector %0d: a=%h b=%h -> q=%h r=%h, expected q=%h r=%h",
                             W, SIGNED, LAT, p_num[LAT-1], p_a[LAT-1], p_b[LAT-1], q, r,
                             p_q[LAT-1], p_r[LAT-1]);
                errors = errors + 1;
                last_bad = p_num[LAT-1];
            end
            if (ce) checked = checked + 1;
        end
        // This edge moves the reference only if enabled.
        if (ce) begin
            for (k = LAT - 1; k > 0; k = k - 1) begin
                p_num[k] = p_num[k-1]; p_a[k] = p_a[k-1]; p_b[k] = p_b[k-1];
                p_q[k] = p_q[k-1]; p_r[k] = p_r[k-1];
            end
            p_num[0] = cur; p_a[0] = a_in; p_b[0] = b_in;
            if (cur >= 0) begin
                reference(a_in, b_in, eq, er);
                p_q[0] = eq; p_r[0] = er;
            end
        end
        // Operands for the next edge: the next vector when enabled, garbage otherwise.
        en = pick_ce(cycle);
        ce <= en;
        if (en && next < N) begin
            operands(next, va, vb);
            a_in <= va; b_in <= vb; cur = next; next = next + 1;
        end else begin
            a_in <= rnd(0); b_in <= rnd(0); cur = -1;
        end
        // Finished once every vector went through and was compared.
        if (next >= N && checked == N) done <= 1;
    end
endmodule

// All widths and latencies of one signedness; tb_idiv (unsigned) and tb_idiv_signed
// are separate tops so that each verilates in about half the time.
module idiv_suite #(parameter SIGNED = 0, parameter string NAME = "tb_idiv") ();
    reg clk = 0; always #5 clk = ~clk;
    localparam NL = 5;             // latencies per width
    localparam NU = 4 * NL + 1;
    wire [NU-1:0] done;
    wire [31:0] errors [0:NU-1];
    wire [31:0] checked [0:NU-1];

    // 1: all steps in one stage; 3: several bits per stage, a shorter last one;
    // 36: the boards' int_div (two bits per stage at 64, spare registers below);
    // WIDTH: one bit per stage, no spare register; WIDTH + 1: one spare register.
    function integer latency(input integer w, input integer k);
        case (k)
            0: latency = 1;
            1: latency = 3;
            2: latency = 36;
            3: latency = w;
            default: latency = w + 1;
        endcase
    endfunction

    genvar i, l;
    generate
        for (i = 0; i < 4; i = i + 1) begin : wd
            for (l = 0; l < NL; l = l + 1) begin : lt
                localparam U = i * NL + l;
                idiv_check #(.W(8 << i), .SIGNED(SIGNED), .LAT(latency(8 << i, l)),
                             .RANDOM((8 << i) == 8 ? 2000 : 20000))
                    chk (.clk(clk), .done(done[U]), .errors(errors[U]), .checked(checked[U]));
            end
        end
    endgenerate
    // WIDTH 32, LATENCY 34: the defaults (instantiated without parameters when unsigned).
    idiv_check #(.W(32), .SIGNED(SIGNED), .LAT(34), .DEFAULTS(SIGNED == 0))
        dflt (.clk(clk), .done(done[NU-1]), .errors(errors[NU-1]), .checked(checked[NU-1]));

    integer cycles = 0, total_errors, total_checked, u;
    always @(posedge clk) begin
        cycles = cycles + 1;
        if (&done) begin
            total_errors = 0; total_checked = 0;
            for (u = 0; u < NU; u = u + 1) begin
                total_errors = total_errors + errors[u];
                total_checked = total_checked + checked[u];
            end
            if (total_errors != 0) begin
                $display("FAIL %s: %0d mismatches in %0d compared vectors", NAME, total_errors, total_checked);
                $fatal(1);
            end
            $display("PASS %s: %0d vectors in %0d dividers (SIGNED=%0d) compared bit-exactly (%0d cycles)",
                     NAME, total_checked, NU, SIGNED, cycles);
            $finish;
        end
        if (cycles > 2000000) begin $display("FAIL %s: timeout", NAME); $fatal(1); end
    end
endmodule

module tb_idiv;
    idiv_suite #(.SIGNED(0), .NAME("tb_idiv")) suite ();
endmodule

module tb_idiv_signed;
    idiv_suite #(.SIGNED(1), .NAME("tb_idiv_signed")) suite ();
endmodule
