/* Flux storage of the phase-kernel backend (jacobi.cl): ρu, ρv, Fx, Fy are arrays the
 * `fluxes` kernel fills; kernels that read them take these parameters. */
#define FLUX_ARGS \
    , __global const real* rho_u, __global const real* rho_v, __global const real* fx, \
    __global const real* fy
