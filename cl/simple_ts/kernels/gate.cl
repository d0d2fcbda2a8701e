/* Loop-2 control on the device (phase form only): the host queues several loop-2 iterations
 * at once and reads one small buffer per batch instead of the residual maxima of every
 * iteration. `check` (jacobi.cl), the last kernel of an iteration, merges the residual maxima
 * exactly as the host does (src/methods/simple_ts/opencl/loop2.rs, `merge`), applies the
 * divergence guard and the tolerances of spec §4, and sets ctl[CTL_STOP]; every loop-2 kernel
 * returns at once while it is set, so the iterations queued after the last one are no-ops
 * and the state is the one the per-iteration host loop leaves. The host resets ctl at the
 * start of a step and before any kernel it launches outside loop 2.
 *
 * ctl holds: the stop code (0 running, 1 converged, 2 diverged), the iterations checked,
 * the diverged field (0 u, 1 v, 2 p, 3 T), the four maxima and their stored indices of the
 * last checked iteration; then, written once by the host, eps_v, eps_p, eps_T, the
 * divergence limit and the number of reduction groups; last, the C++ steady flag of compat
 * steady_test_first_sweep. Indices are exact in a double. */
#define CTL_STOP 0
#define CTL_ITERS 1
#define CTL_FIELD 2
#define CTL_MAX 3
#define CTL_AT 7
#define CTL_EPS_V 11
#define CTL_EPS_P 12
#define CTL_EPS_T 13
#define CTL_LIMIT 14
#define CTL_GROUPS 15
/* Compat steady_test_first_sweep: 1 if the last checked iteration passes the C++ code's steady
 * test, else 0 (written by every check). */
#define CTL_STEADY 16
#define CTL_LEN 17
/* The first CTL_RESET entries are per step; the rest are set once. */
#define CTL_RESET 11

#define LOOP2_GATE_ARG , __global const real* ctl
#define LOOP2_GATE \
    if (ctl[CTL_STOP] != 0.0) \
        return;
