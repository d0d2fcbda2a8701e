/* Prelude: precision, contraction, required defines, index macros.  spec §5, STYLE §2.
 * Always the first piece (cl/README.md, assembly order). Storage is ghost-padded:
 * CFG_NXT = nx + 2 columns, CFG_NYT = ny + 2 rows, cell (i, j) at i + j*CFG_NXT (src/grid.rs). */

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* Keep a*b + c as two roundings, as the Rust reference does (the default is ON). */
#pragma OPENCL FP_CONTRACT OFF

/* -D contract: every required host define, checked here so a missing one names itself. */
#ifndef CFG_NXT
#error "CFG_NXT not defined (stored columns, nx + 2)"
#endif
#ifndef CFG_NYT
#error "CFG_NYT not defined (stored rows, ny + 2)"
#endif

/* All field arithmetic is FP64; the name says "the solver's float". */
typedef double real;

/* Linear index of stored cell (i, j), as Grid::idx. */
#define IDX(i,j)      ((i) + (j)*CFG_NXT)

/* Column / row clamped into storage: halo items of edge groups read outside [0, NXT) and
 * [0, NYT) (spec §5.2, "clamped reads"). int arguments. */
#define CLAMP_I(i)    (clamp((int)(i), 0, CFG_NXT - 1))
#define CLAMP_J(j)    (clamp((int)(j), 0, CFG_NYT - 1))

/* Linear index of (i, j) with both clamped. */
#define IDXC(i,j)     (IDX(CLAMP_I(i), CLAMP_J(j)))
