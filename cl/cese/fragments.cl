/* The CE/SE formulas (docs/method/cese.md), one scalar expression each. Twins:
 * src/methods/cese/fragments.rs (same names, same order, same operation order), checked bit
 * for bit by tests/cese_fragments.rs. Needs CFG_GAMMA and CFG_ALPHA (an integer 0 … 8).
 * 1D: u = (ρ, ρv, ρE), w2 = u2·ri, w3 = u3·ri with ri = 1/u1 (one division per point).
 * 2D: the y-direction formulas are the x-direction ones with the two momenta swapped (the
 * Rust file says why that keeps a problem symmetric about y = x to the last bit). */

/* (12) |x|^α as a product of α factors (pow is not correctly rounded). */
inline real cese_pow(const real x)
{
    const real a = fabs(x);
    real p = 1.0;
    for (int k = 0; k < CFG_ALPHA; k++)
        p *= a;
    return p;
}

/* (12) the α-weighted average W0(a, b); 0 when both weights are 0. */
inline real cese_w0(const real a, const real b)
{
    const real wa = cese_pow(a);
    const real wb = cese_pow(b);
    const real den = wa + wb;
    return den == 0.0 ? 0.0 : (wb * a + wa * b) / den;
}

/* (11) the derivative of a new point from its parents' Taylor values: W0(u − u'_L, u'_R − u)·h. */
#define cese_grad(upl,u,upr,h)        (cese_w0((u) - (upl), (upr) - (u)) * (h))
/* (9) s = (Δx/4) u_x + (Δt/Δx)(f + (Δt/4) f_t) (1D). */
#define cese_s(qdx,ux,r,f,dt4,ft)     ((qdx) * (ux) + (r) * ((f) + (dt4) * (ft)))
/* (10) the Taylor value u' = u + (Δt/2) u_t. */
#define cese_up(u,hdt,ut)             ((u) + (hdt) * (ut))
/* (9) the new value ½[(u_L + u_R) + (s_L − s_R)] (1D). */
#define cese_mid(ul,ur,sl,sr)         (0.5 * (((ul) + (ur)) + ((sl) - (sr))))
/* (2) pressure (1D). */
#define c1_p(u2,u3,w2)                ((CFG_GAMMA - 1.0) * ((u3) - 0.5 * (u2) * (w2)))
/* (3) momentum flux (1D). */
#define c1_f2(u2,u3,w2)               ((CFG_GAMMA - 1.0) * (u3) + 0.5 * (3.0 - CFG_GAMMA) * (u2) * (w2))
/* (3) energy flux (1D). */
#define c1_f3(u2,u3,w2)               (CFG_GAMMA * (u3) * (w2) - 0.5 * (CFG_GAMMA - 1.0) * (u2) * (w2) * (w2))
/* (4) row 2 of A times x (1D). */
#define c1_a2(w2,x1,x2,x3)            (-0.5 * (3.0 - CFG_GAMMA) * (w2) * (w2) * (x1) + (3.0 - CFG_GAMMA) * (w2) * (x2) + (CFG_GAMMA - 1.0) * (x3))
/* (4) row 3 of A times x (1D). */
#define c1_a3(w2,w3,x1,x2,x3)         (((CFG_GAMMA - 1.0) * (w2) * (w2) * (w2) - CFG_GAMMA * (w2) * (w3)) * (x1) \
                                       + (CFG_GAMMA * (w3) - 1.5 * (CFG_GAMMA - 1.0) * (w2) * (w2)) * (x2) \
                                       + CFG_GAMMA * (w2) * (x3))
/* (13) pressure (2D). */
#define c2_p(mx,my,e,wx,wy)           ((CFG_GAMMA - 1.0) * ((e) - 0.5 * ((mx) * (wx) + (my) * (wy))))
/* (13) the kinetic energy per unit mass ½(w_x² + w_y²) (2D). */
#define c2_q(wx,wy)                   (0.5 * ((wx) * (wx) + (wy) * (wy)))
/* (13) pressure from it, (γ − 1)(E − ρ q) (2D, a parent's). */
#define c2_pq(r,e,q)                  ((CFG_GAMMA - 1.0) * ((e) - (r) * (q)))
/* (14) stagnation enthalpy H = (E + p)·ri (2D). */
#define c2_h(e,p,ri)                  (((e) + (p)) * (ri))
/* (14) normal-momentum flux m_n w_n + p (2D). */
#define c2_fn(mn,wn,p)                ((mn) * (wn) + (p))
/* (15) ρ times the velocity perturbation of x: x_n − w_n x_1 (2D). */
#define c2_dv(xn,wn,x1)               ((xn) - (wn) * (x1))
/* (15) the pressure perturbation of x, (γ − 1)((x_4 − (w_x x_x + w_y x_y)) + q x_1) (2D). */
#define c2_dp(wx,wy,q,x1,xx,xy,x4)    ((CFG_GAMMA - 1.0) * (((x4) - ((wx) * (xx) + (wy) * (xy))) + (q) * (x1)))
/* (15) the normal-momentum row of A_n x, w_n (x_n + d_n) + δp (2D). */
#define c2_jn(wn,xn,dn,dp)            ((wn) * ((xn) + (dn)) + (dp))
/* (15) the tangential-momentum row of A_n x, x_t w_n + w_t d_n (2D). */
#define c2_jt(xt,wn,wt,dn)            ((xt) * (wn) + (wt) * (dn))
/* (15) the energy row of A_n x, (x_4 + δp) w_n + H d_n with e4 = x_4 + δp (2D). */
#define c2_je(e4,wn,h,dn)             ((e4) * (wn) + (h) * (dn))
/* (17) the time-centred flux of a parent, f + (Δt/4) f_t. */
#define c2_fc(f,dt4,ft)               ((f) + (dt4) * (ft))
/* (17) a parent's lever along one axis, (Δ/4) u_d + (Δt/Δ) f_c (P along x, Q along y). */
#define c2_lever(qd,ud,r,fc)          ((qd) * (ud) + (r) * (fc))
/* (17) a parent's cross term R = (Δt/Δx)(Δy/4) A_x u_y + (Δt/Δy)(Δx/4) A_y u_x. */
#define c2_cross(kxy,fxy,kyx,fyx)     ((kxy) * (fxy) + (kyx) * (fyx))
/* (18) the new value from the four shares, diagonal pairs first. */
#define c2_sum(ld,rd,ru,lu)           (0.25 * (((ld) + (ru)) + ((rd) + (lu))))
/* (19) u_x from the diagonal increments. */
#define c2_dx(da,db,rdx)              (((da) - (db)) * (rdx))
/* (19) u_y from the diagonal increments. */
#define c2_dy(da,db,rdy)              (((da) + (db)) * (rdy))
/* (20) sound speed √(γ·p·ri), from the point's reciprocal ri = 1/ρ. */
#define cese_a(ri,p)                  (sqrt(CFG_GAMMA * (p) * (ri)))
/* (20) the CFL rate (|v| + a)·(1/h) (1/h folded at build time). */
#define cese_rate(s,h)                ((s) * (1.0 / (h)))
