/* Probe kernels of the CE/SE fragments (tests/cese_fragments.rs): no physics. Contract:
 * (__global const real* a, __global real* b), one work-item per output; item k reads its
 * arguments from a[K·k …] (K = the fragment's arity) and writes b[k]. Every fragment of
 * cl/cese/fragments.cl has one, named probe_<fragment>. */

#define ARG(n,m) (a[get_global_id(0) * (n) + (m)])
#define OUT      (b[get_global_id(0)])

__kernel void probe_cese_pow(__global const real* a, __global real* b) { OUT = cese_pow(ARG(1,0)); }
__kernel void probe_cese_w0(__global const real* a, __global real* b) { OUT = cese_w0(ARG(2,0), ARG(2,1)); }
__kernel void probe_cese_grad(__global const real* a, __global real* b) { OUT = cese_grad(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_cese_s(__global const real* a, __global real* b) { OUT = cese_s(ARG(6,0), ARG(6,1), ARG(6,2), ARG(6,3), ARG(6,4), ARG(6,5)); }
__kernel void probe_cese_up(__global const real* a, __global real* b) { OUT = cese_up(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_cese_mid(__global const real* a, __global real* b) { OUT = cese_mid(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_c1_p(__global const real* a, __global real* b) { OUT = c1_p(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_c1_f2(__global const real* a, __global real* b) { OUT = c1_f2(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_c1_f3(__global const real* a, __global real* b) { OUT = c1_f3(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_c1_a2(__global const real* a, __global real* b) { OUT = c1_a2(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_c1_a3(__global const real* a, __global real* b) { OUT = c1_a3(ARG(5,0), ARG(5,1), ARG(5,2), ARG(5,3), ARG(5,4)); }
__kernel void probe_c2_p(__global const real* a, __global real* b) { OUT = c2_p(ARG(5,0), ARG(5,1), ARG(5,2), ARG(5,3), ARG(5,4)); }
__kernel void probe_c2_q(__global const real* a, __global real* b) { OUT = c2_q(ARG(2,0), ARG(2,1)); }
__kernel void probe_c2_pq(__global const real* a, __global real* b) { OUT = c2_pq(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_c2_h(__global const real* a, __global real* b) { OUT = c2_h(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_c2_fn(__global const real* a, __global real* b) { OUT = c2_fn(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_c2_dv(__global const real* a, __global real* b) { OUT = c2_dv(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_c2_dp(__global const real* a, __global real* b) { OUT = c2_dp(ARG(7,0), ARG(7,1), ARG(7,2), ARG(7,3), ARG(7,4), ARG(7,5), ARG(7,6)); }
__kernel void probe_c2_jn(__global const real* a, __global real* b) { OUT = c2_jn(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_c2_jt(__global const real* a, __global real* b) { OUT = c2_jt(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_c2_je(__global const real* a, __global real* b) { OUT = c2_je(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_c2_fc(__global const real* a, __global real* b) { OUT = c2_fc(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_c2_lever(__global const real* a, __global real* b) { OUT = c2_lever(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_c2_cross(__global const real* a, __global real* b) { OUT = c2_cross(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_c2_sum(__global const real* a, __global real* b) { OUT = c2_sum(ARG(4,0), ARG(4,1), ARG(4,2), ARG(4,3)); }
__kernel void probe_c2_dx(__global const real* a, __global real* b) { OUT = c2_dx(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_c2_dy(__global const real* a, __global real* b) { OUT = c2_dy(ARG(3,0), ARG(3,1), ARG(3,2)); }
__kernel void probe_cese_a(__global const real* a, __global real* b) { OUT = cese_a(ARG(2,0), ARG(2,1)); }
__kernel void probe_cese_rate(__global const real* a, __global real* b) { OUT = cese_rate(ARG(2,0), ARG(2,1)); }
