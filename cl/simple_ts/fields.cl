/* Accessors of the stored fields and geometry (level 1, STYLE §2).  spec §2.1, src/grid.rs.
 * Each expects a kernel parameter of the lower-case name in scope (a macro is only expanded
 * where it is used, so a kernel declares just the parameters of the accessors it uses):
 *   iterate k: rho, u, v, p, t, gam (__global const real*, one value per stored cell,
 *   index IDX(i,j)); level n: rho_n, u_n, v_n, p_n, t_n; face densities and mass fluxes
 *   rho_u, rho_v, fx, fy (reference::Fluxes); explicit convective terms cu, cv, ct;
 *   pseudo-velocities and d-coefficients u_hat, d_u, v_hat, d_v (reference::Work);
 *   cell (__global const int*, cell class per stored cell), u_face, v_face (int face
 *   classes), hx (CFG_NXT widths), hy (CFG_NYT widths); walls: wall_of (int per stored
 *   cell, index into the wall records of solids), wall_u, wall_v, wall_t (real per wall),
 *   wall_bc (int per wall, geometry::Wall::code: WALL_SLIP_BIT and the THERMAL_* condition).
 * u(i,j) lives on the west face of cell (i,j), v(i,j) on its south face (src/methods/simple_ts/fields.rs). */

/* Cell classes, the values of geometry::FLUID / SOLID / OPEN (checked by tests/fragments.rs). */
#define CELL_FLUID 0
#define CELL_SOLID 1
#define CELL_OPEN  2

/* Face classes, the values of geometry::F_SOLVED ... F_NONE (checked by tests/fragments.rs). */
#define F_SOLVED   0
#define F_FIXED    1
#define F_COPY     2
#define F_PERIODIC 3
#define F_NONE     4

/* Wall conditions, geometry::Wall::code (checked by tests/fragments.rs): bit 0 velocity slip,
 * bits 1–2 the temperature condition, a discriminant of case::Thermal. */
#define WALL_SLIP_BIT     1
#define THERMAL_JUMP      0
#define THERMAL_FIXED     1
#define THERMAL_ADIABATIC 2

/* Two paths through every kernel (spec §5.6): one if/else per evaluation point between the
 * fast path, whose whole stencil is computed fluid with solved faces, and the boundary path.
 * FASTP is an integer constant expression: 0 at program scope, 1 inside PATHS' fast branch
 * (an enum in an inner block shadows it), so the compiler folds the class tests below away
 * on the fast path. The host's mask (`fast`, src/methods/simple_ts/opencl/paths.rs) says which points may take it.
 * OpenCL C 1.2 has no variadic macros (NVIDIA refuses them), so `body` must not contain a
 * comma outside parentheses. */
enum { FASTP = 0 };
#define PATHS(is_fast, body) \
    { if (is_fast) { enum { FASTP = 1 }; body } else { body } }

/* Where a field value of (i,j) is read. With DEV_ALIAS (the fused form) copy ghosts and
 * copy/periodic faces are never written on the device: the boundary path reads their source
 * instead (c_alias, u_alias, v_alias: the stored index each cell or face copies, itself
 * elsewhere; bc::Ghosts resolved through chains), so one loop-2 launch leaves a consistent
 * iterate. The phase form fills them with copy kernels and reads them in place.
 *
 * DEV_LEAN (the fused form's lean storage, about 100 B per cell): ρ and Γ are not stored but
 * computed where read, ρ = p/T and Γ = √T, which are exactly the values the other forms store
 * (both are correctly rounded); and all geometry of a cell is one packed word `geo`
 * (src/methods/simple_ts/opencl/paths.rs, `pack_geometry`): bits 0–1 cell class, 2–4 u-face class, 5–7 v-face
 * class, 8 fast-path flag, 9–12, 13–16, 17–20 the alias offsets of the cell, u-face and
 * v-face (dx+1 | (dy+1)<<2), 21–31 the wall record of a solid cell. */
#ifndef DEV_ALIAS
#define DEV_ALIAS 0
#endif
#ifndef DEV_LEAN
#define DEV_LEAN 0
#endif
#if DEV_LEAN
#define GEO(i,j)   ((uint)geo[IDX((i),(j))])
/* Stored index k plus the alias offset packed at bits sh … sh+3 of geo[k]. A function, not a
 * macro: the accessors below are read inside deeply nested fragments, and as text the
 * offset's two reads of geo (each with its own copy of the index expression) multiplied the
 * program's size and its build time. Same integer arithmetic, so the same index. */
inline int lean_alias(__global const uint* geo, const int k, const int sh)
{
    const uint g = geo[k];
    return k + ((int)((g >> sh) & 3u) - 1 + ((int)((g >> (sh + 2)) & 3u) - 1) * CFG_NXT);
}
#define CI(i,j) (FASTP ? IDX((i),(j)) : lean_alias(geo, IDX((i),(j)), 9))
#define UI(i,j) (FASTP ? IDX((i),(j)) : lean_alias(geo, IDX((i),(j)), 13))
#define VI(i,j) (FASTP ? IDX((i),(j)) : lean_alias(geo, IDX((i),(j)), 17))
#define FAST(i,j)  ((int)((GEO((i),(j)) >> 8) & 1u))
#elif DEV_ALIAS
#define CI(i,j) (FASTP ? IDX((i),(j)) : c_alias[IDX((i),(j))])
#define UI(i,j) (FASTP ? IDX((i),(j)) : u_alias[IDX((i),(j))])
#define VI(i,j) (FASTP ? IDX((i),(j)) : v_alias[IDX((i),(j))])
#define FAST(i,j)  (fast[IDX((i),(j))])
#else
#define CI(i,j) IDX((i),(j))
#define UI(i,j) IDX((i),(j))
#define VI(i,j) IDX((i),(j))
#define FAST(i,j)  (fast[IDX((i),(j))])
#endif

#define U(i,j)     (u[UI((i),(j))])
#define V(i,j)     (v[VI((i),(j))])
#define P(i,j)     (p[CI((i),(j))])
#define T(i,j)     (t[CI((i),(j))])
#define U_N(i,j)   (u_n[UI((i),(j))])
#define V_N(i,j)   (v_n[VI((i),(j))])
#define P_N(i,j)   (p_n[CI((i),(j))])
#define T_N(i,j)   (t_n[CI((i),(j))])
#if DEV_LEAN
/* lean_rho (ops.cl, after the equation of state): ρ = p/T of one stored cell. */
#define RHO(i,j)   (lean_rho(p, t, CI((i),(j))))
#define GAM(i,j)   (gam_eos(T((i),(j))))
#define RHO_N(i,j) (lean_rho(p_n, t_n, CI((i),(j))))
#else
#define RHO(i,j)   (rho[CI((i),(j))])
#define GAM(i,j)   (gam[CI((i),(j))])
#define RHO_N(i,j) (rho_n[CI((i),(j))])
#endif
#define RHO_U(i,j) (rho_u[IDX((i),(j))])
#define RHO_V(i,j) (rho_v[IDX((i),(j))])
#define FX(i,j)    (fx[IDX((i),(j))])
#define FY(i,j)    (fy[IDX((i),(j))])
#define CU(i,j)    (cu[IDX((i),(j))])
#define CV(i,j)    (cv[IDX((i),(j))])
#define CT(i,j)    (ct[IDX((i),(j))])
#define U_HAT(i,j) (u_hat[IDX((i),(j))])
#define D_U(i,j)   (d_u[IDX((i),(j))])
#define V_HAT(i,j) (v_hat[IDX((i),(j))])
#define D_V(i,j)   (d_v[IDX((i),(j))])
/* Geometry classes: constants on the fast path. */
#if DEV_LEAN
#define CELL(i,j)  (FASTP ? CELL_FLUID : (int)(GEO((i),(j)) & 3u))
#define U_FACE(i,j) (FASTP ? F_SOLVED : (int)((GEO((i),(j)) >> 2) & 7u))
#define V_FACE(i,j) (FASTP ? F_SOLVED : (int)((GEO((i),(j)) >> 5) & 7u))
#define WALL_OF(i,j) ((int)(GEO((i),(j)) >> 21))
#else
#define CELL(i,j)  (FASTP ? CELL_FLUID : cell[IDX((i),(j))])
#define U_FACE(i,j) (FASTP ? F_SOLVED : u_face[IDX((i),(j))])
#define V_FACE(i,j) (FASTP ? F_SOLVED : v_face[IDX((i),(j))])
#define WALL_OF(i,j) (wall_of[IDX((i),(j))])
#endif
/* Wall record of solid cell (i,j): geometry::Geometry::wall. */
#define WALL_U(i,j)  (wall_u[WALL_OF((i),(j))])
#define WALL_V(i,j)  (wall_v[WALL_OF((i),(j))])
#define WALL_T(i,j)  (wall_t[WALL_OF((i),(j))])
#define WALL_BC(i,j) (wall_bc[WALL_OF((i),(j))])
#define WALL_SLIPS(i,j)   ((WALL_BC((i),(j)) & WALL_SLIP_BIT) != 0)
#define WALL_THERMAL(i,j) ((WALL_BC((i),(j)) >> 1) & 3)
#define SOLID(i,j)   (CELL((i),(j)) == CELL_SOLID)
#define HX(i)      (hx[(i)])
#define HY(j)      (hy[(j)])

/* i − 1 held at 0: Rust's i.saturating_sub(1) (the west/south neighbour of a ghost column/row
 * 0 is the cell itself in src/methods/simple_ts/reference/density.rs). int argument. */
#define SAT_M1(i)  (((i) > 0) ? ((i) - 1) : 0)
