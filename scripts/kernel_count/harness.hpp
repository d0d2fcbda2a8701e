// Counting build of the OpenCL kernels on the host (scripts/count_kernels.py,
// docs/PERFORMANCE.md "How bytes and flops are counted").
//
// The assembled kernel source (kernel.cl of a `simplets bench --trace` directory) is compiled
// as C++ after this header, with
//   - `real` a class holding one double whose arithmetic operators count the FP64 operations
//     they perform (add, sub, mul, div, sqrt; comparisons, fabs, fmax, fmin, isnan, isfinite as
//     "other", not flops), and whose copy and assignment record global-memory reads and
//     writes;
//   - `gint` the int of __global int buffers, recording its reads and writes;
//   - the OpenCL work-item functions and barrier() emulated: kernels launched without a
//     work-group size run their work-items one after another, kernels with one run each group
//     on one thread per work-item, with a std::barrier (the __local arrays become statics, so
//     a group's threads share them).
// A global access is an access to an element of a registered buffer. Per launch the harness
// reports, per buffer, the distinct elements read before being written (compulsory reads),
// the distinct elements written, and every access (no cache at all).
#pragma once

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kc {

struct Counter {
    uint64_t add = 0, sub = 0, mul = 0, div = 0, sqrt = 0, other = 0;
};

struct Buffer {
    std::string name;
    size_t elem = 8;
    size_t len = 0;
    char* begin = nullptr;
    char* end = nullptr;
    std::vector<std::atomic<uint64_t>> rbits, wbits;
    std::atomic<uint64_t> loads{0}, stores{0};
};

inline std::vector<Buffer*>& buffers() {
    static std::vector<Buffer*> v;  // sorted by begin
    return v;
}
inline char*& lo() {
    static char* p = nullptr;
    return p;
}
inline char*& hi() {
    static char* p = nullptr;
    return p;
}
inline thread_local Counter tl;
inline Counter& total() {
    static Counter c;
    return c;
}
inline std::mutex& total_lock() {
    static std::mutex m;
    return m;
}

inline void flush_thread() {
    std::lock_guard<std::mutex> g(total_lock());
    Counter& t = total();
    t.add += tl.add;
    t.sub += tl.sub;
    t.mul += tl.mul;
    t.div += tl.div;
    t.sqrt += tl.sqrt;
    t.other += tl.other;
    tl = Counter{};
}

inline Buffer* find(const void* p, size_t& idx) {
    const char* c = static_cast<const char*>(p);
    if (c < lo() || c >= hi())
        return nullptr;
    auto& v = buffers();
    auto it = std::upper_bound(v.begin(), v.end(), c,
                               [](const char* x, const Buffer* b) { return x < b->begin; });
    if (it == v.begin())
        return nullptr;
    Buffer* b = *(it - 1);
    if (c >= b->end)
        return nullptr;
    idx = static_cast<size_t>(c - b->begin) / b->elem;
    return b;
}

inline void rd(const void* p) {
    size_t k;
    if (Buffer* b = find(p, k)) {
        b->loads.fetch_add(1, std::memory_order_relaxed);
        const uint64_t bit = uint64_t(1) << (k & 63);
        if (!(b->wbits[k >> 6].load(std::memory_order_relaxed) & bit))
            b->rbits[k >> 6].fetch_or(bit, std::memory_order_relaxed);
    }
}

inline void wr(const void* p) {
    size_t k;
    if (Buffer* b = find(p, k)) {
        b->stores.fetch_add(1, std::memory_order_relaxed);
        b->wbits[k >> 6].fetch_or(uint64_t(1) << (k & 63), std::memory_order_relaxed);
    }
}

// Register a buffer of `len` elements of `elem` bytes; memory stays owned by the caller.
inline Buffer* add_buffer(const std::string& name, size_t elem, size_t len, void* data) {
    auto* b = new Buffer();
    b->name = name;
    b->elem = elem;
    b->len = len;
    b->begin = static_cast<char*>(data);
    b->end = b->begin + elem * len;
    b->rbits = std::vector<std::atomic<uint64_t>>((len + 63) / 64);
    b->wbits = std::vector<std::atomic<uint64_t>>((len + 63) / 64);
    auto& v = buffers();
    v.push_back(b);
    std::sort(v.begin(), v.end(), [](const Buffer* a, const Buffer* c) { return a->begin < c->begin; });
    lo() = v.front()->begin;
    hi() = nullptr;
    for (Buffer* x : v)
        hi() = std::max(hi(), x->end);
    return b;
}

inline void reset_marks() {
    for (Buffer* b : buffers()) {
        for (auto& w : b->rbits)
            w.store(0);
        for (auto& w : b->wbits)
            w.store(0);
        b->loads = 0;
        b->stores = 0;
    }
    total() = Counter{};
    tl = Counter{};
}

inline uint64_t popcount(const std::vector<std::atomic<uint64_t>>& v) {
    uint64_t n = 0;
    for (auto& w : v)
        n += static_cast<uint64_t>(__builtin_popcountll(w.load()));
    return n;
}

// Work-item state of the calling thread.
struct WorkItem {
    size_t gid[3] = {0, 0, 0}, lid[3] = {0, 0, 0}, grp[3] = {0, 0, 0};
    size_t gsize[3] = {1, 1, 1}, lsize[3] = {1, 1, 1}, ngroups[3] = {1, 1, 1};
    unsigned dims = 1;
};
inline thread_local WorkItem wi;
inline std::barrier<>*& group_barrier() {
    static std::barrier<>* b = nullptr;
    return b;
}

}  // namespace kc

struct real {
    double v;
    real() = default;
    real(double x) : v(x) {}
    real(const real& o) : v(o.v) { kc::rd(&o); }
    real& operator=(const real& o) {
        kc::rd(&o);
        kc::wr(this);
        v = o.v;
        return *this;
    }
    real& operator+=(const real& o) { return *this = *this + o; }
    real& operator-=(const real& o) { return *this = *this - o; }
    real& operator*=(const real& o) { return *this = *this * o; }
    real& operator/=(const real& o) { return *this = *this / o; }
    friend real operator+(const real& a, const real& b) {
        kc::rd(&a);
        kc::rd(&b);
        ++kc::tl.add;
        return real(a.v + b.v);
    }
    friend real operator-(const real& a, const real& b) {
        kc::rd(&a);
        kc::rd(&b);
        ++kc::tl.sub;
        return real(a.v - b.v);
    }
    friend real operator*(const real& a, const real& b) {
        kc::rd(&a);
        kc::rd(&b);
        ++kc::tl.mul;
        return real(a.v * b.v);
    }
    friend real operator/(const real& a, const real& b) {
        kc::rd(&a);
        kc::rd(&b);
        ++kc::tl.div;
        return real(a.v / b.v);
    }
    friend real operator-(const real& a) {
        kc::rd(&a);
        return real(-a.v);
    }
    friend real operator+(const real& a) {
        kc::rd(&a);
        return real(a.v);
    }
    // (int)x of a control word (gate.cl's group count): a read, no arithmetic.
    explicit operator int() const {
        kc::rd(this);
        return static_cast<int>(v);
    }
#define KC_CMP(op)                                      \
    friend bool operator op(const real& a, const real& b) { \
        kc::rd(&a);                                     \
        kc::rd(&b);                                     \
        ++kc::tl.other;                                 \
        return a.v op b.v;                              \
    }
    KC_CMP(<)
    KC_CMP(>)
    KC_CMP(<=)
    KC_CMP(>=)
    KC_CMP(==)
    KC_CMP(!=)
#undef KC_CMP
};

inline real sqrt(const real& a) {
    kc::rd(&a);
    ++kc::tl.sqrt;
    return real(std::sqrt(a.v));
}
inline real fabs(const real& a) {
    kc::rd(&a);
    ++kc::tl.other;
    return real(std::fabs(a.v));
}
inline real fmax(const real& a, const real& b) {
    kc::rd(&a);
    kc::rd(&b);
    ++kc::tl.other;
    return real(std::fmax(a.v, b.v));
}
inline real fmin(const real& a, const real& b) {
    kc::rd(&a);
    kc::rd(&b);
    ++kc::tl.other;
    return real(std::fmin(a.v, b.v));
}
inline bool isnan(const real& a) {
    kc::rd(&a);
    ++kc::tl.other;
    return std::isnan(a.v);
}
inline bool isfinite(const real& a) {
    kc::rd(&a);
    ++kc::tl.other;
    return std::isfinite(a.v);
}

// The int of __global int buffers.
struct gint {
    int v;
    operator int() const {
        kc::rd(this);
        return v;
    }
    gint& operator=(int x) {
        kc::wr(this);
        v = x;
        return *this;
    }
};

// OpenCL C built-ins used by the kernels.
#define __kernel
#define __global
#define __constant const
#define __private
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
inline size_t get_global_id(unsigned d) { return kc::wi.gid[d]; }
inline size_t get_local_id(unsigned d) { return kc::wi.lid[d]; }
inline size_t get_group_id(unsigned d) { return kc::wi.grp[d]; }
inline size_t get_global_size(unsigned d) { return kc::wi.gsize[d]; }
inline size_t get_local_size(unsigned d) { return kc::wi.lsize[d]; }
inline size_t get_num_groups(unsigned d) { return kc::wi.ngroups[d]; }
inline unsigned get_work_dim() { return kc::wi.dims; }
inline void barrier(int) { kc::group_barrier()->arrive_and_wait(); }
inline int clamp(int x, int a, int b) { return x < a ? a : (x > b ? b : x); }
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }

namespace kc {

// Run `kernel` over an NDRange (1 or 2 dimensions; `local` empty: no work-group size).
template <class F>
void launch(F kernel, std::vector<size_t> global, std::vector<size_t> local) {
    const size_t dims = global.size();
    WorkItem base;
    base.dims = (unsigned)dims;
    for (size_t d = 0; d < dims; d++)
        base.gsize[d] = global[d];
    if (local.empty()) {
        // Work-items one after another on this thread (no barriers in such kernels).
        size_t n = 1;
        for (size_t d = 0; d < dims; d++)
            n *= global[d];
        for (size_t k = 0; k < n; k++) {
            wi = base;
            size_t r = k;
            for (size_t d = 0; d < dims; d++) {
                wi.gid[d] = r % global[d];
                r /= global[d];
                wi.grp[d] = wi.gid[d];
                wi.ngroups[d] = global[d];
            }
            kernel();
        }
        flush_thread();
        return;
    }
    for (size_t d = 0; d < dims; d++) {
        base.lsize[d] = local[d];
        base.ngroups[d] = global[d] / local[d];
    }
    size_t groups = 1, items = 1;
    for (size_t d = 0; d < dims; d++) {
        groups *= base.ngroups[d];
        items *= local[d];
    }
    for (size_t g = 0; g < groups; g++) {
        size_t grp[3] = {0, 0, 0}, r = g;
        for (size_t d = 0; d < dims; d++) {
            grp[d] = r % base.ngroups[d];
            r /= base.ngroups[d];
        }
        std::barrier<> bar(static_cast<std::ptrdiff_t>(items));
        group_barrier() = &bar;
        std::vector<std::thread> threads;
        threads.reserve(items);
        for (size_t l = 0; l < items; l++) {
            threads.emplace_back([&, l] {
                wi = base;
                size_t rr = l;
                for (size_t d = 0; d < dims; d++) {
                    wi.lid[d] = rr % local[d];
                    rr /= local[d];
                    wi.grp[d] = grp[d];
                    wi.gid[d] = grp[d] * local[d] + wi.lid[d];
                }
                kernel();
                flush_thread();
            });
        }
        for (auto& t : threads)
            t.join();
        group_barrier() = nullptr;
    }
}

// One JSON line with the counts of the last launch.
inline void report(const char* instance) {
    Counter& c = total();
    std::printf("{\"instance\": \"%s\", \"add\": %llu, \"sub\": %llu, \"mul\": %llu, "
                "\"div\": %llu, \"sqrt\": %llu, \"other\": %llu, \"buffers\": {",
                instance, (unsigned long long)c.add, (unsigned long long)c.sub,
                (unsigned long long)c.mul, (unsigned long long)c.div,
                (unsigned long long)c.sqrt, (unsigned long long)c.other);
    bool first = true;
    for (Buffer* b : buffers()) {
        const uint64_t r = popcount(b->rbits), w = popcount(b->wbits);
        const uint64_t loads = b->loads.load(), stores = b->stores.load();
        if (r == 0 && w == 0 && loads == 0 && stores == 0)
            continue;
        std::printf("%s\"%s\": {\"elem\": %zu, \"read\": %llu, \"written\": %llu, "
                    "\"loads\": %llu, \"stores\": %llu}",
                    first ? "" : ", ", b->name.c_str(), b->elem, (unsigned long long)r,
                    (unsigned long long)w, (unsigned long long)loads,
                    (unsigned long long)stores);
        first = false;
    }
    std::printf("}}\n");
    std::fflush(stdout);
}

}  // namespace kc
