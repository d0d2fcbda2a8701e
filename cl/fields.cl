/* Accessors of the stored fields and geometry (level 1, STYLE §2).  spec §2.1, src/grid.rs.
 * Each expects a kernel parameter of the lower-case name in scope:
 *   rho, u, v (__global const real*, one value per stored cell, index IDX(i,j)),
 *   cell (__global const int*, cell class per stored cell), hx (CFG_NXT widths),
 *   hy (CFG_NYT widths).
 * u(i,j) lives on the west face of cell (i,j), v(i,j) on its south face (src/fields.rs). */

/* Cell classes, the values of geometry::FLUID / SOLID / OPEN (checked by tests/fragments.rs). */
#define CELL_FLUID 0
#define CELL_SOLID 1
#define CELL_OPEN  2

#define RHO(i,j)   (rho[IDX((i),(j))])
#define U(i,j)     (u[IDX((i),(j))])
#define V(i,j)     (v[IDX((i),(j))])
#define CELL(i,j)  (cell[IDX((i),(j))])
#define HX(i)      (hx[(i)])
#define HY(j)      (hy[(j)])

/* i − 1 held at 0: Rust's i.saturating_sub(1) (the west/south neighbour of a ghost column/row
 * 0 is the cell itself in src/reference/density.rs). int argument. */
#define SAT_M1(i)  (((i) > 0) ? ((i) - 1) : 0)
