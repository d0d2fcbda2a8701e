/* (9)–(12) face densities, upwind and TVD (spec §2.2–2.3).  Twins of src/methods/simple_ts/reference/density.rs,
 * same names and order. Uses cl/simple_ts/fields.cl accessors and cl/simple_ts/ops.cl operators.
 *
 *   ρ(i−2) | ρ(i−1) | ρ(i) | ρ(i+1)      ρu(i,j) sits on the face between i−1 and i
 *                   ^ u(i,j)
 *
 * F in tvd_fc/tvd_cf is the NAME of an accessor macro (RHO, ...); a macro name cannot be
 * parenthesised where it is invoked, so F is the one argument written bare. */

#ifndef CFG_TVD
#error "CFG_TVD not defined (1: TVD face densities, 0: upwind; scheme.interpolation)"
#endif

/* TVD_s correction of cell-centred accessor F at the west face of cell (i,j) for face
 * velocity/flux w; zero unless cells i−2..i+1 are all computed fluid cells [CHOICE G8].
 * int i, j; the || chain stops before any out-of-range read. */
#define tvd_fc(F,i,j,w) \
    ((((i) < 2) || ((i) + 1 >= CFG_NXT) \
      || (CELL((i) - 2, (j)) != CELL_FLUID) || (CELL((i) - 1, (j)) != CELL_FLUID) \
      || (CELL((i), (j)) != CELL_FLUID) || (CELL((i) + 1, (j)) != CELL_FLUID)) ? 0.0 \
     : tvd_s(F((i) - 2, (j)), F((i) - 1, (j)), F((i), (j)), F((i) + 1, (j)), \
             HX((i) - 2), HX((i) - 1), HX((i)), HX((i) + 1), (w)))

/* TVD_s correction of F at the south face of cell (i,j), the transpose of tvd_fc. */
#define tvd_cf(F,i,j,w) \
    ((((j) < 2) || ((j) + 1 >= CFG_NYT) \
      || (CELL((i), (j) - 2) != CELL_FLUID) || (CELL((i), (j) - 1) != CELL_FLUID) \
      || (CELL((i), (j)) != CELL_FLUID) || (CELL((i), (j) + 1) != CELL_FLUID)) ? 0.0 \
     : tvd_s(F((i), (j) - 2), F((i), (j) - 1), F((i), (j)), F((i), (j) + 1), \
             HY((j) - 2), HY((j) - 1), HY((j)), HY((j) + 1), (w)))

/* (9)/(11) density at the u-face (i,j): upwind between cells i−1 and i, the fluid cell's ρ
 * next to a solid, 0 between two solids; plus the TVD_s correction when CFG_TVD (spec §2.3).
 * CFG_TVD is a constant, so the compiler drops the unused branch. */
#define rho_fc(i,j) \
    ((CELL(SAT_M1(i), (j)) == CELL_SOLID) \
     ? ((CELL((i), (j)) == CELL_SOLID) ? 0.0 : RHO((i), (j))) \
     : (CELL((i), (j)) == CELL_SOLID) ? RHO(SAT_M1(i), (j)) \
     : (CFG_TVD) \
       ? (upwind(RHO(SAT_M1(i), (j)), RHO((i), (j)), U((i), (j))) \
          + tvd_fc(RHO, (i), (j), U((i), (j)))) \
     : upwind(RHO(SAT_M1(i), (j)), RHO((i), (j)), U((i), (j))))

/* (10)/(12) density at the v-face (i,j), the transpose of rho_fc. */
#define rho_cf(i,j) \
    ((CELL((i), SAT_M1(j)) == CELL_SOLID) \
     ? ((CELL((i), (j)) == CELL_SOLID) ? 0.0 : RHO((i), (j))) \
     : (CELL((i), (j)) == CELL_SOLID) ? RHO((i), SAT_M1(j)) \
     : (CFG_TVD) \
       ? (upwind(RHO((i), SAT_M1(j)), RHO((i), (j)), V((i), (j))) \
          + tvd_cf(RHO, (i), (j), V((i), (j)))) \
     : upwind(RHO((i), SAT_M1(j)), RHO((i), (j)), V((i), (j))))

/* (7) mass flux through the west face of cell (i,j) with the face density ru: hy ρu u. */
#define Fx_fc(ru,i,j) (HY((j)) * (ru) * U((i), (j)))

/* (8) mass flux through the south face of cell (i,j) with the face density rv: hx ρv v. */
#define Fy_cf(rv,i,j) (HX((i)) * (rv) * V((i), (j)))

