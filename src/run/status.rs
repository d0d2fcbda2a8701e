//! Human-readable numbers: the fixed-column status line of a run, its progress display, byte
//! counts and UTC timestamps.

use std::time::{Duration, Instant};

use crate::solver::Residuals;
use crate::text::hms;

/// Column header of [`status_line`] for the residuals `names` (the method's series names).
pub fn status_header(names: &[&str]) -> String {
    let mut h = format!("{:>9} {:>12} {:>6}", "step", "t", "iters");
    for n in names {
        h.push_str(&format!(" {n:>9}"));
    }
    h + &format!(" {:>11} {:>9}", "Mcell-it/s", "ETA")
}

/// One status line: step, time, iterations of the step, the first `n` residuals, throughput
/// (Mcell·it/s = work cells × iterations / wall seconds / 1e6) and remaining time.
pub fn status_line(
    step: u64,
    t: f64,
    iters: u32,
    (r, n): (&Residuals, usize),
    mcell_its: f64,
    eta_s: f64,
) -> String {
    let mut l = format!("{step:>9} {t:>12.5e} {iters:>6}");
    for x in &r.0[..n.min(r.0.len())] {
        l.push_str(&format!(" {x:>9.2e}"));
    }
    l + &format!(" {mcell_its:>11.3} {:>9}", hms(eta_s))
}

/// How a run shows its progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Progress {
    /// A bar when stderr is a terminal, status lines otherwise.
    #[default]
    Auto,
    /// An `indicatif` bar on stderr.
    Bar,
    /// Periodic fixed-column `log::info!` lines.
    Lines,
    /// Nothing.
    Off,
}

/// Progress display of a run (bar or periodic status lines).
pub struct Reporter {
    mode: Progress,
    bar: Option<indicatif::ProgressBar>,
    n_steps: u64,
    n_fluid: f64,
    residuals: usize,
    start: Instant,
    last_line: Option<Instant>,
    every: Duration,
    every_steps: u64,
}

impl Reporter {
    /// Start the display for `n_steps` steps over `n_fluid` work (fluid) cells, with the
    /// residuals `names`. Status lines come every `every` of wall time or every `every_steps`
    /// steps (0: time only), and at the end.
    pub fn new(
        mode: Progress,
        n_steps: u64,
        n_fluid: u64,
        names: &[&str],
        every: Duration,
        every_steps: u64,
    ) -> Self {
        use std::io::IsTerminal;
        let mode = match mode {
            Progress::Auto if std::io::stderr().is_terminal() => Progress::Bar,
            Progress::Auto => Progress::Lines,
            m => m,
        };
        let bar = (mode == Progress::Bar).then(|| {
            let style = indicatif::ProgressStyle::with_template(
                "{bar:30.cyan/blue} {pos}/{len} {msg} ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            indicatif::ProgressBar::new(n_steps).with_style(style)
        });
        if mode == Progress::Lines {
            log::info!("{}", status_header(names));
        }
        Reporter {
            mode,
            bar,
            n_steps,
            n_fluid: n_fluid as f64,
            residuals: names.len(),
            start: Instant::now(),
            last_line: None,
            every,
            every_steps,
        }
    }

    /// Report the end of step `s` (1-based within this run).
    pub fn update(&mut self, s: u64, t: f64, iters: u32, res: &Residuals, total_iters: u64) {
        let elapsed = self.start.elapsed().as_secs_f64();
        let rate = self.n_fluid * total_iters as f64 / elapsed.max(1e-9) / 1e6;
        let eta = elapsed / s as f64 * self.n_steps.saturating_sub(s) as f64;
        match self.mode {
            Progress::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_position(s);
                    bar.set_message(format!(
                        "t={t:.4e} it={iters} res={:.2e} {rate:.3} Mcell-it/s",
                        res.max()
                    ));
                }
            }
            Progress::Lines => {
                let now = Instant::now();
                let due_time = match self.last_line {
                    None => true,
                    Some(l) => now - l >= self.every,
                };
                let due_step = self.every_steps > 0 && s % self.every_steps == 0;
                if due_time || due_step || s == self.n_steps {
                    self.last_line = Some(now);
                    let r = (res, self.residuals);
                    log::info!("{}", status_line(s, t, iters, r, rate, eta));
                }
            }
            Progress::Auto | Progress::Off => {}
        }
    }

    /// Remove the bar (status lines need no cleanup).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_columns_line_up() {
        let r = Residuals([1e-3, 2e-9, 3.5e-10, 0.0]);
        let h = status_header(&["res_u", "res_v", "res_p", "res_T"]);
        let l = status_line(12, 0.125, 7, (&r, 4), 12.5, 3725.0);
        assert_eq!(h.len(), l.len(), "\n{h}\n{l}");
        assert!(l.ends_with("1:02:05"), "{l}");
        assert!(l.contains("1.00e-3"), "{l}");
    }
}
