// clhls_sim_checks.vh: the DPI-C import of the simulator's access checker
// (sim-bridge/harness.cpp), for simulation only.
//
// The global load-store unit templates (clhls_lsu_load, clhls_lsu_store,
// clhls_lsu_store_ack, clhls_lsu_atomic) include this file inside their module when
// CLHLS_SIM_CHECKS is defined (the simulator's builds define it, synthesis never
// does) and report every request they accept: the work-item's own byte address and
// size, before any coalescing into memory lines. The simulator checks each one
// against the buffers the running kernel was given and ends the run at the first that
// falls outside them. Module-scope import: included once per module, no include
// guard. unit is the unit's UNIT parameter (its number in the compute unit); kind is
// 0 for a load, 1 for a store, 2 for an atomic.
import "DPI-C" function void clhls_sim_access(
    input int unsigned unit, input longint unsigned addr, input int unsigned bytes,
    input byte unsigned kind);
