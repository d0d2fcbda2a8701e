/* Finite-volume updates and the time-step rule shared by the explicit methods
 * (docs/method/shll.md §7). Twins: src/methods/explicit/update.rs. Needs CFG_CFL, CFG_T_END. */

/* (18) forward-Euler update of one component in 1D, dtdx = Δt/Δx. */
#define fv_update_1d(q,fw,fe,dtdx)               ((q) - (dtdx) * ((fe) - (fw)))
/* (18) forward-Euler update of one component in 2D. */
#define fv_update_2d(q,fw,fe,fs,fn,dtdx,dtdy)    ((q) - (dtdx) * ((fe) - (fw)) - (dtdy) * ((fn) - (fs)))
/* (19) second SSP-RK2 stage: ½U⁰ + ½(U¹ + ΔtL(U¹)). */
#define rk2_average(q0,q2)                       (0.5 * (q0) + 0.5 * (q2))
/* (20) CFL rate of a cell: s_x·(1/Δx) + s_y·(1/Δy) (s: |u| + a); with the constant spacings
 * the reciprocals are folded when the program is built. */
#define cfl_rate_2d(sx,sy,dx,dy)                 ((sx) * (1.0 / (dx)) + (sy) * (1.0 / (dy)))
/* (21) next time step from the largest rate, clipped to land on the end time. */
#define next_dt(smax,t)                          (fmin(CFG_CFL / (smax), CFG_T_END - (t)))
/* (21) the time after a step of dt: exactly the end time for the clipped last step. */
#define advance_time(t,dt)                       ((dt) >= CFG_T_END - (t) ? CFG_T_END : (t) + (dt))
/* (22) NaN-propagating maximum (a NaN rate or update marks a failed step). */
#define nan_max(a,b)                             (isnan(a) ? (a) : (isnan(b) || (b) > (a) ? (b) : (a)))
