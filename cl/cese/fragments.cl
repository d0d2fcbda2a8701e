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
/* (14) normal-momentum flux (2D). */
#define c2_fn(mn,mt,e,wn,wt)          ((CFG_GAMMA - 1.0) * (e) + 0.5 * (3.0 - CFG_GAMMA) * (mn) * (wn) - 0.5 * (CFG_GAMMA - 1.0) * (mt) * (wt))
/* (14) energy flux (2D). */
#define c2_fe(mn,e,wn,wt)             (CFG_GAMMA * (e) * (wn) - 0.5 * (CFG_GAMMA - 1.0) * (mn) * ((wn) * (wn) + (wt) * (wt)))
/* (15) the normal-momentum row of A_n times x (2D). */
#define c2_an(wn,wt,x1,xn,xt,x4)      (((-0.5 * (3.0 - CFG_GAMMA) * (wn) * (wn) + 0.5 * (CFG_GAMMA - 1.0) * (wt) * (wt)) * (x1) + (CFG_GAMMA - 1.0) * (x4)) \
                                       + ((3.0 - CFG_GAMMA) * (wn) * (xn) - (CFG_GAMMA - 1.0) * (wt) * (xt)))
/* (15) the tangential-momentum row of A_n times x (2D). */
#define c2_ac(wa,wb,x1,xa,xb)         (-((wa) * (wb)) * (x1) + ((wb) * (xa) + (wa) * (xb)))
/* (15) the energy row of A_n times x (2D). */
#define c2_ae(wn,wt,w4,x1,xn,xt,x4)   (((-CFG_GAMMA * (wn) * (w4) + (CFG_GAMMA - 1.0) * (wn) * ((wn) * (wn) + (wt) * (wt))) * (x1) + CFG_GAMMA * (wn) * (x4)) \
                                       + ((CFG_GAMMA * (w4) - 0.5 * (CFG_GAMMA - 1.0) * (3.0 * (wn) * (wn) + (wt) * (wt))) * (xn) - (CFG_GAMMA - 1.0) * (wn) * (wt) * (xt)))
/* (17) the bottom-face average of a parent's quadrant, a = (Δx/4) u_x, b = (Δy/4) u_y. */
#define c2_bottom(u,sx,a,sy,b)        ((u) - ((sx) * (a) + (sy) * (b)))
/* (17) the time-centred flux of a parent, f + (Δt/4) f_t. */
#define c2_fc(f,dt4,ft)               ((f) + (dt4) * (ft))
/* (17) the flux through a quadrant's outer face, f_c − s f_d. */
#define c2_face(fc,s,fd)              ((fc) - (s) * (fd))
/* (18) a parent's share. */
#define c2_term(uq,sx,rx,fq,sy,ry,gq) ((uq) - ((sx) * ((rx) * (fq)) + (sy) * ((ry) * (gq))))
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
