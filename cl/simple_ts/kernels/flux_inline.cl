/* Flux recomputation of the fused kernel (iterate_fused.cl): ρu, ρv, Fx, Fy are not stored
 * (spec §5.5) but rebuilt from iterate k wherever a fragment reads them. The expressions are
 * those of the `fluxes` kernel, so the values are bit-identical to the stored ones. Macros
 * expand where they are used, so every kernel after this piece sees these definitions. */
#undef RHO_U
#undef RHO_V
#undef FX
#undef FY
#define RHO_U(i,j) (rho_fc((i), (j)))
#define RHO_V(i,j) (rho_cf((i), (j)))
#define FX(i,j)    (Fx_fc(RHO_U((i), (j)), (i), (j)))
#define FY(i,j)    (Fy_cf(RHO_V((i), (j)), (i), (j)))
#define FLUX_ARGS
