/* Boundary copies of iterate k, shared by both loop-2 forms: copy ghost cells
 * (bc::Ghosts::apply_cells for the copy rules; fixed ghosts never change on the device) and
 * copy/periodic faces (apply_faces). One work-item per list entry; each list comes in two
 * dependency levels (src/methods/simple_ts/opencl/phase/copies.rs, `levels`): level 0 reads only cells or faces no entry
 * writes, level 1 reads level-0 results. A face list holds (dst, src) pairs, a ghost-cell list
 * (dst, p src, T src) triples, CFG_N<LIST><LEVEL> of them; a ghost that keeps its p or T
 * fixed names itself as that value's source. The phase form gates them with its loop-2
 * control (gate.cl); the fused form has none. */
#ifndef LOOP2_GATE
#define LOOP2_GATE_ARG
#define LOOP2_GATE
#endif

/* Copy ghost cells of iterate k (bc::Ghosts::apply_cells for the copy rules; fixed ghosts
 * never change on the device), then copy/periodic faces (apply_faces). */
inline void cell_triples(__global const int* l, int n, __global real* p, __global real* t,
                       __global real* rho, __global real* gam)
{
    const int m = (int)get_global_id(0);
    if (m >= n)
        return;
    const int dst = l[3 * m], ps = l[3 * m + 1], ts = l[3 * m + 2];
    const real q = p[ps], tt = t[ts];
    p[dst] = q;
    t[dst] = tt;
    rho[dst] = rho_eos(q, tt);
    gam[dst] = gam_eos(tt);
}

inline void face_pairs(__global const int* l, int n, __global real* f)
{
    const int m = (int)get_global_id(0);
    if (m < n)
        f[l[2 * m]] = f[l[2 * m + 1]];
}

__kernel void ghosts0(__global const int* ghost_copy0, __global real* p, __global real* t,
                      __global real* rho, __global real* gam LOOP2_GATE_ARG)
{
    LOOP2_GATE
    cell_triples(ghost_copy0, CFG_NGHOST_COPY0, p, t, rho, gam);
}

__kernel void ghosts1(__global const int* ghost_copy1, __global real* p, __global real* t,
                      __global real* rho, __global real* gam LOOP2_GATE_ARG)
{
    LOOP2_GATE
    cell_triples(ghost_copy1, CFG_NGHOST_COPY1, p, t, rho, gam);
}

__kernel void faces_u0(__global const int* u_copy0, __global real* u LOOP2_GATE_ARG)
{
    LOOP2_GATE
    face_pairs(u_copy0, CFG_NU_COPY0, u);
}

__kernel void faces_u1(__global const int* u_copy1, __global real* u LOOP2_GATE_ARG)
{
    LOOP2_GATE
    face_pairs(u_copy1, CFG_NU_COPY1, u);
}

__kernel void faces_v0(__global const int* v_copy0, __global real* v LOOP2_GATE_ARG)
{
    LOOP2_GATE
    face_pairs(v_copy0, CFG_NV_COPY0, v);
}

__kernel void faces_v1(__global const int* v_copy1, __global real* v LOOP2_GATE_ARG)
{
    LOOP2_GATE
    face_pairs(v_copy1, CFG_NV_COPY1, v);
}

