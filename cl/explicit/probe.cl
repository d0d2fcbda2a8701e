/* Probe kernels of the explicit fragments (tests/explicit_fragments.rs): no physics.
 * Contract: (__global const real* a, __global real* b), one work-item per output; item k
 * reads its arguments from a[K·k …] (K = the fragment's arity) and writes b[k]. Every
 * fragment of cl/shll/, cl/convection/ and cl/explicit/update.cl has one, named
 * probe_<fragment>; tests/explicit_fragments.rs lists them against their Rust twins. */

#define A(n)  (a[get_global_id(0) * (n) + 0])
#define ARG(n,m) (a[get_global_id(0) * (n) + (m)])
#define OUT   (b[get_global_id(0)])

__kernel void probe_euler_p(__global const real* a, __global real* b) { OUT = euler_p(ARG(5,0), ARG(5,1), ARG(5,2), ARG(5,3), ARG(5,4)); }
__kernel void probe_euler_a(__global const real* a, __global real* b) { OUT = euler_a(ARG(2,0), ARG(2,1)); }
__kernel void probe_euler_f_mn(__global const real* a, __global real* b) { OUT = euler_f_mn(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_euler_f_mt(__global const real* a, __global real* b) { OUT = euler_f_mt(ARG(2,0), ARG(2,1)); }
__kernel void probe_euler_f_e(__global const real* a, __global real* b) { OUT = euler_f_e(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_sw_wet(__global const real* a, __global real* b) { OUT = sw_wet(ARG(1,0)) ? 1.0 : 0.0; }
__kernel void probe_sw_vel(__global const real* a, __global real* b) { OUT = sw_vel(ARG(2,0), ARG(2,1)); }
__kernel void probe_sw_vel_of(__global const real* a, __global real* b) { OUT = sw_vel_of(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_sw_a(__global const real* a, __global real* b) { OUT = sw_a(ARG(1,0)); }
__kernel void probe_sw_f_phi(__global const real* a, __global real* b) { OUT = sw_f_phi(ARG(2,0), ARG(2,1)); }
__kernel void probe_sw_f_mn(__global const real* a, __global real* b) { OUT = sw_f_mn(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_sw_f_mt(__global const real* a, __global real* b) { OUT = sw_f_mt(ARG(2,0), ARG(2,1)); }
__kernel void probe_shll_clamp1(__global const real* a, __global real* b) { OUT = shll_clamp1(ARG(1,0)); }
__kernel void probe_shll_chi(__global const real* a, __global real* b) { OUT = shll_chi(ARG(2,0), ARG(2,1)); }
__kernel void probe_shll_d(__global const real* a, __global real* b) { OUT = shll_d(ARG(1,0)); }
__kernel void probe_shll_plus(__global const real* a, __global real* b) { OUT = shll_plus(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_shll_minus(__global const real* a, __global real* b) { OUT = shll_minus(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_hll_sl(__global const real* a, __global real* b) { OUT = hll_sl(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_hll_sr(__global const real* a, __global real* b) { OUT = hll_sr(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_hll_flux(__global const real* a, __global real* b) { OUT = hll_flux(ARG(6,0), ARG(6,1), ARG(6,2), ARG(6,3), ARG(6,4), ARG(6,5)); }
__kernel void probe_rusanov_s(__global const real* a, __global real* b) { OUT = rusanov_s(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_rusanov_flux(__global const real* a, __global real* b) { OUT = rusanov_flux(ARG(5,0), ARG(5,1), ARG(5,2), ARG(5,3), ARG(5,4)); }
__kernel void probe_minmod(__global const real* a, __global real* b) { OUT = minmod(ARG(2,0), ARG(2,1)); }
__kernel void probe_van_leer(__global const real* a, __global real* b) { OUT = van_leer(ARG(2,0), ARG(2,1)); }
__kernel void probe_muscl_slope(__global const real* a, __global real* b) { OUT = muscl_slope(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_muscl_plus(__global const real* a, __global real* b) { OUT = muscl_plus(ARG(2,0), ARG(2,1)); }
__kernel void probe_muscl_minus(__global const real* a, __global real* b) { OUT = muscl_minus(ARG(2,0), ARG(2,1)); }
__kernel void probe_cd_diff_flux(__global const real* a, __global real* b) { OUT = cd_diff_flux(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_cd_rate(__global const real* a, __global real* b) { OUT = cd_rate(ARG(2,0), ARG(2,1)); }
__kernel void probe_ftbs_diff(__global const real* a, __global real* b) { OUT = ftbs_diff(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_ftbs_update(__global const real* a, __global real* b) { OUT = ftbs_update(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_fv_update_1d(__global const real* a, __global real* b) { OUT = fv_update_1d(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_fv_update_2d(__global const real* a, __global real* b) { OUT = fv_update_2d(ARG(7,0), ARG(7,1), ARG(7,2), ARG(7,3), ARG(7,4), ARG(7,5), ARG(7,6)); }
__kernel void probe_rk2_average(__global const real* a, __global real* b) { OUT = rk2_average(ARG(2,0), ARG(2,1)); }
__kernel void probe_cfl_rate_2d(__global const real* a, __global real* b) { OUT = cfl_rate_2d(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_next_dt(__global const real* a, __global real* b) { OUT = next_dt(ARG(2,0), ARG(2,1)); }
__kernel void probe_advance_time(__global const real* a, __global real* b) { OUT = advance_time(ARG(2,0), ARG(2,1)); }
__kernel void probe_nan_max(__global const real* a, __global real* b) { OUT = nan_max(ARG(2,0), ARG(2,1)); }
