/* Boundary copies of iterate k in the phase form: copy ghost cells (bc::Ghosts::apply_cells
 * for the copy rules; fixed ghosts never change on the device) and copy/periodic faces
 * (apply_faces). One work-item per list entry. The host resolves each list into one level
 * (src/methods/simple_ts/opencl/phase/copies.rs, `resolve`): an entry that would read another
 * entry's result (a corner ghost, a chained copy face) reads that entry's source instead, so
 * every entry of a launch runs at once. A face list holds (dst, src) pairs, a ghost-cell list
 * (dst, p src, T src) triples, CFG_N<LIST> of them; a ghost that keeps its p or T fixed names
 * itself as that value's source. Gated by the loop-2 control (gate.cl) when it is defined. */
#ifndef LOOP2_GATE
#define LOOP2_GATE_ARG
#define LOOP2_GATE
#endif

/* Copy ghost cells of iterate k (bc::Ghosts::apply_cells for the copy rules; fixed ghosts
 * never change on the device), then copy/periodic faces (apply_faces). Entry m of a work-item
 * range; a copy onto the source itself is skipped (it changes nothing, and another entry may
 * be reading that value). */
inline void cell_triple(__global const int* l, int m, __global real* p, __global real* t,
                        __global real* rho, __global real* gam)
{
    const int dst = l[3 * m], ps = l[3 * m + 1], ts = l[3 * m + 2];
    const real q = p[ps], tt = t[ts];
    if (ps != dst)
        p[dst] = q;
    if (ts != dst)
        t[dst] = tt;
    rho[dst] = rho_eos(q, tt);
    gam[dst] = gam_eos(tt);
}

/* Entry m of the u then the v face list (CFG_NU_COPY + CFG_NV_COPY work-items). */
inline void face_pair(__global const int* lu, __global const int* lv, int m, __global real* u,
                      __global real* v)
{
    if (m < CFG_NU_COPY) {
        u[lu[2 * m]] = u[lu[2 * m + 1]];
    } else {
        m -= CFG_NU_COPY;
        v[lv[2 * m]] = v[lv[2 * m + 1]];
    }
}

__kernel void ghosts(__global const int* ghost_copy, __global real* p, __global real* t,
                     __global real* rho, __global real* gam LOOP2_GATE_ARG)
{
    LOOP2_GATE
    const int m = (int)get_global_id(0);
    if (m < CFG_NGHOST_COPY)
        cell_triple(ghost_copy, m, p, t, rho, gam);
}

__kernel void faces(__global const int* u_copy, __global const int* v_copy, __global real* u,
                    __global real* v LOOP2_GATE_ARG)
{
    LOOP2_GATE
    const int m = (int)get_global_id(0);
    if (m < CFG_NU_COPY + CFG_NV_COPY)
        face_pair(u_copy, v_copy, m, u, v);
}

/* The ghost cells and the faces in one launch (they write different arrays and read nothing
 * the other writes): the end of a loop-2 iteration when no compat switch orders them apart. */
__kernel void end_copies(__global const int* ghost_copy, __global const int* u_copy,
                         __global const int* v_copy, __global real* p, __global real* t,
                         __global real* rho, __global real* gam, __global real* u,
                         __global real* v LOOP2_GATE_ARG)
{
    LOOP2_GATE
    const int m = (int)get_global_id(0);
    if (m < CFG_NGHOST_COPY)
        cell_triple(ghost_copy, m, p, t, rho, gam);
    else if (m < CFG_NGHOST_COPY + CFG_NU_COPY + CFG_NV_COPY)
        face_pair(u_copy, v_copy, m - CFG_NGHOST_COPY, u, v);
}
