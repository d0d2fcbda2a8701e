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
 *   wall_bc (int per wall, WALL_SLIP/WALL_NOSLIP/WALL_ADIABATIC).
 * u(i,j) lives on the west face of cell (i,j), v(i,j) on its south face (src/fields.rs). */

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

/* Wall conditions, the discriminants of config::WallBc (checked by tests/fragments.rs). */
#define WALL_SLIP      0
#define WALL_NOSLIP    1
#define WALL_ADIABATIC 2

#define RHO(i,j)   (rho[IDX((i),(j))])
#define U(i,j)     (u[IDX((i),(j))])
#define V(i,j)     (v[IDX((i),(j))])
#define P(i,j)     (p[IDX((i),(j))])
#define T(i,j)     (t[IDX((i),(j))])
#define GAM(i,j)   (gam[IDX((i),(j))])
#define RHO_N(i,j) (rho_n[IDX((i),(j))])
#define U_N(i,j)   (u_n[IDX((i),(j))])
#define V_N(i,j)   (v_n[IDX((i),(j))])
#define P_N(i,j)   (p_n[IDX((i),(j))])
#define T_N(i,j)   (t_n[IDX((i),(j))])
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
#define CELL(i,j)  (cell[IDX((i),(j))])
#define U_FACE(i,j) (u_face[IDX((i),(j))])
#define V_FACE(i,j) (v_face[IDX((i),(j))])
/* Wall record of solid cell (i,j): geometry::Geometry::wall. */
#define WALL_U(i,j)  (wall_u[wall_of[IDX((i),(j))]])
#define WALL_V(i,j)  (wall_v[wall_of[IDX((i),(j))]])
#define WALL_T(i,j)  (wall_t[wall_of[IDX((i),(j))]])
#define WALL_BC(i,j) (wall_bc[wall_of[IDX((i),(j))]])
#define SOLID(i,j)   (CELL((i),(j)) == CELL_SOLID)
#define HX(i)      (hx[(i)])
#define HY(j)      (hy[(j)])

/* i − 1 held at 0: Rust's i.saturating_sub(1) (the west/south neighbour of a ghost column/row
 * 0 is the cell itself in src/reference/density.rs). int argument. */
#define SAT_M1(i)  (((i) > 0) ? ((i) - 1) : 0)
