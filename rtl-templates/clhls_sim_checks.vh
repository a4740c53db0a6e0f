// clhls_sim_checks.vh: the access checker of the simulator (sim-bridge/harness.cpp),
// for simulation only.
//
// The global load-store unit templates (clhls_lsu_load, clhls_lsu_store,
// clhls_lsu_store_ack, clhls_lsu_atomic) include this file inside their module when
// CLHLS_SIM_CHECKS is defined (the simulator's builds define it, synthesis never
// does), after defining SIM_ACCESS_KIND (0 load, 1 store, 2 atomic). Every request the
// unit accepts is checked with the work-item's own byte address and size, before any
// coalescing into memory lines, against the buffers the running kernel was given; the
// simulator ends the run at the first that falls outside them. The including module
// provides clk, rst, s_req_valid, s_req_ready, s_req_addr, idle, DATA_W, CU (its
// compute unit's number in the accelerator: each kernel's accesses are checked against
// its own buffers while several kernels run) and UNIT (its number in the compute unit).
//
// The simulator answers a request inside a buffer with the window of start addresses
// that stay inside that buffer (first..last for this access size); the unit keeps it
// and checks the requests that follow against it itself, so a unit streaming through
// one buffer calls the simulator once. The simulator changes a unit's buffers only
// between kernel launches, when the unit has drained: a request accepted while the
// unit is `idle` (nothing in flight) is always asked, and so is one outside the
// window. The call is a plain DPI-C function, without the scope a context function
// sets up on every call. Included once per module, no include guard.
import "DPI-C" function bit clhls_sim_access(
    input int unsigned cu, input int unsigned unit, input longint unsigned addr,
    input int unsigned bytes, input byte unsigned kind,
    output longint unsigned window_first, output longint unsigned window_last);

reg        sim_window_valid;  // the simulator's last answer gave sim_window_* (unused while idle)
reg [63:0] sim_window_first;  // lowest start address of an access known to be inside
reg [63:0] sim_window_last;   // highest such start address

always @(posedge clk)
    if (rst)
        sim_window_valid <= 1'b0;
    else if (s_req_valid && s_req_ready &&
             !(sim_window_valid && !idle && s_req_addr >= sim_window_first &&
               s_req_addr <= sim_window_last))
        sim_window_valid <= clhls_sim_access(CU, UNIT, s_req_addr, DATA_W / 8,
                                             SIM_ACCESS_KIND, sim_window_first,
                                             sim_window_last);
