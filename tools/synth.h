/* `clhls synth`: synthesis of a kernel's accelerator for a real board (Yosys with the
 * board's synthesis command; for boards with a place-and-route tool, nextpnr and the
 * bitstream packer), with resources against the board's capacity and fmax. */
#ifndef CLHLS_SYNTH_H
#define CLHLS_SYNTH_H

/* Runs `clhls synth`; argv[0] is "synth". Returns a CLI_EXIT_* code (tools/cli.h). */
int clhls_synth_main(int argc, char **argv);

#endif
