/* The formulas of one Brandvik–Pullan step (docs/method/bp.md, seed 001 §4). Twins:
 * src/methods/bp/formulas.rs (same names, same operations in the same order). Needs
 * CFG_GAMMA, CFG_CFL, CFG_SF (smoothing factor, smooth·CFL), CFG_RHO0. */

/* §4.1 velocity component m/ρ. */
#define bp_vel(r,m)                       ((m) / (r))
/* §4.1 pressure, p = (γ − 1)(ρE − ½ρ(u² + v²)). */
#define bp_p(r,e,u,v)                     ((CFG_GAMMA - 1.0) * ((e) - 0.5 * (r) * ((u) * (u) + (v) * (v))))
/* §4.1 stagnation enthalpy H = (ρE + p)/ρ. */
#define bp_h(r,e,p)                       (((e) + (p)) / (r))
/* §4.2 mass flux mul·((ρu_a + ρu_b)dl_x + (ρv_a + ρv_b)dl_y). */
#define bp_mass(mul,rua,rub,rva,rvb,dlx,dly) ((mul) * (((rua) + (rub)) * (dlx) + ((rva) + (rvb)) * (dly)))
/* §4.2 momentum flux ½(ṁ(u_a + u_b) + (p_a + p_b)dl), pp = p_a + p_b. */
#define bp_fmom(m,ua,ub,pp,dl)            (0.5 * ((m) * ((ua) + (ub)) + (pp) * (dl)))
/* §4.2 energy flux ½ṁ(H_a + H_b). */
#define bp_fe(m,ha,hb)                    (0.5 * (m) * ((ha) + (hb)))
/* §4.3 signal speed √(u² + v²) + √(γp/ρ). */
#define bp_speed(r,u,v,p)                 (sqrt((u) * (u) + (v) * (v)) + sqrt(CFG_GAMMA * (p) / (r)))
/* §4.3 local time step over the area, CFL·d_min/s/A. */
#define bp_rate(dmin,s,area)              (CFG_CFL * (dmin) / (s) / (area))
/* §4.3 a cell's change of one component from its i-faces a, b and j-faces d, u. */
#define bp_change(r,a,b,d,u)              ((r) * (((a) - (b)) + ((d) - (u))))
/* §4.4 SCREE: 2Δⁿ − Δⁿ⁻¹. */
#define bp_scree(dn,old)                  (2.0 * (dn) - (old))
/* §4.5 a node plus ¼ of its four table cells' changes. */
#define bp_sum(w,c0,c1,c2,c3)             ((w) + 0.25 * (((c0) + (c1)) + ((c2) + (c3))))
/* §4.6 the smoothing average of four table nodes with their weights. */
#define bp_avg(w0,w1,w2,w3,u0,u1,u2,u3)   ((w0) * (u0) + (w1) * (u1) + (w2) * (u2) + (w3) * (u3))
/* §4.6 the smoothed value (1 − SF)U + SF·Ū. */
#define bp_blend(u,avg)                   ((1.0 - CFG_SF) * (u) + CFG_SF * (avg))
/* §4.8 a node's residual |ρⁿ⁺¹ − ρⁿ|/ρ0. */
#define bp_res(new,before)                (fabs((new) - (before)) / CFG_RHO0)
/* A state the scheme can go on from: ρ > 0 and p > 0 (false for NaN). */
#define bp_admissible(r,p)                ((r) > 0.0 && (p) > 0.0)
