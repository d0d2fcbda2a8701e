//! Criterion benches of the CPU backends on small grids (issue 4): one loop-2 iteration of the
//! serial reference and of the rayon `parallel` backend, implicit upwind and implicit TVD, on
//! `configs/default.json` (200 × 100) and a 100 × 50 crop of it. Throughput is in fluid
//! cells, so criterion's "elements/s" are fluid cell-iterations per second.
//!
//! `cargo bench` runs them; CI only compiles them (`cargo bench --no-run`).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use simplets::methods::simple_ts::backend::Backend as Solver;
use simplets::methods::simple_ts::case::{Case, Interpolation};
use simplets::methods::simple_ts::reference::Reference;

fn case(nx: usize, ny: usize, interpolation: Interpolation) -> Case {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/default.json");
    let mut c = Case::from_file(&path).expect("configs/default.json");
    c.scheme.interpolation = interpolation;
    if (nx, ny) != (c.grid.nx, c.grid.ny) {
        c = simplets::methods::simple_ts::tile::tile_case(&c, nx, ny).expect("crop");
    }
    c
}

fn loop2(cr: &mut Criterion) {
    let mut group = cr.benchmark_group("loop2_iteration");
    group.sample_size(20);
    for (nx, ny) in [(100, 50), (200, 100)] {
        for interp in [Interpolation::Upwind, Interpolation::Tvd] {
            let c = case(nx, ny, interp);
            for parallel in [false, true] {
                let mut r = if parallel {
                    Reference::new_parallel(&c)
                } else {
                    Reference::new(&c)
                };
                r.begin_step();
                group.throughput(Throughput::Elements(r.geometry().n_fluid as u64));
                let name = format!(
                    "{}/{}",
                    if parallel { "parallel" } else { "reference" },
                    c.scheme
                );
                group.bench_with_input(
                    BenchmarkId::new(name, format!("{nx}x{ny}")),
                    &(),
                    |b, _| b.iter(|| r.iterate()),
                );
            }
        }
    }
    group.finish();
}

criterion_group!(benches, loop2);
criterion_main!(benches);
