/* Residual maxima with the stored index where they occur, on the device: the twin of
 * pressure::MaxAt::see and gpu::loop2::merge (NaN wins, then the larger value, ties keep the
 * smaller index). Shared by the phase form's reduce_* kernels and the fused kernel; the host
 * merges the per-group results with loop2::merge. */

/* Fold the value d at stored index k into one work-item's running maximum. Items visit
 * increasing k, so a tie keeps the earlier (smaller) index. */
inline void see(real* best, int* at, const real d, const int k)
{
    if (d > *best || (isnan(d) && !isnan(*best))) {
        *best = d;
        *at = k;
    }
}

/* Tree reduction of the (value, index) pairs that the n work-items of a group (n a power of
 * two) have written to lv[l], li[l]; the winner ends in lv[0], li[0]. Every work-item of the
 * group calls it: it holds the barriers. */
inline void group_max_at(__local real* lv, __local int* li, const int l, const int n)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s >>= 1) {
        if (l < s) {
            const real a = lv[l], b = lv[l + s];
            const int ia = li[l], ib = li[l + s];
            const bool take_b = (isnan(a) || isnan(b)) ? (isnan(b) && (!isnan(a) || ib < ia))
                                                       : (b > a || (b == a && ib < ia));
            if (take_b) {
                lv[l] = b;
                li[l] = ib;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
