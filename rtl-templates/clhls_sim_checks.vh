// clhls_sim_checks.vh: the access checker of the simulator (sim-bridge/harness.cpp),
// for simulation only.
//
// The global load-store unit templates (clhls_lsu_load, clhls_lsu_store,
// clhls_lsu_store_ack, clhls_lsu_atomic) include this file inside their module when
// CLHLS_SIM_CHECKS is defined (the simulator's builds define it, synthesis never
// does), after defining SIM_ACCESS_KIND (0 load, 1 store, 2 atomic). Every request the
// unit accepts is reported with the work-item's own byte address and size, before any
// coalescing into memory lines; the simulator checks it against the buffers the
// running kernel was given and ends the run at the first that falls outside them. The
// including module provides clk, rst, s_req_valid, s_req_ready, s_req_addr, DATA_W, CU
// (its compute unit's number in the accelerator: each kernel's accesses are checked
// against its own buffers while several kernels run) and UNIT (its number in the
// compute unit). The call is a plain DPI-C function, without the scope a context
// function sets up on every call. Included once per module, no include guard.
import "DPI-C" function void clhls_sim_access(
    input int unsigned cu, input int unsigned unit, input longint unsigned addr,
    input int unsigned bytes, input byte unsigned kind);

always @(posedge clk)
    if (!rst && s_req_valid && s_req_ready)
        clhls_sim_access(CU, UNIT, s_req_addr, DATA_W / 8, SIM_ACCESS_KIND);
