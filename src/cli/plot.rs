//! `simplets plot`: PNGs of an output next to it.

use std::path::PathBuf;

use super::Failure;

/// Arguments of `simplets plot`.
#[derive(Debug, clap::Args)]
pub struct PlotArgs {
    /// The output (<name>.nc), or the parts of a split series (<name>.0001.nc …).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Snapshot index over the (joined) files; negative counts from the end (default: the
    /// last). The field PNGs are then named <stem>.<field>.step<STEP>.png.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub snapshot: Option<i64>,
    /// Folder of the PNGs (default: next to the first file).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Only these pictures, comma-separated (field names, mach, residuals, forces, probes).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub only: Option<Vec<String>>,
    /// Replace existing PNGs.
    #[arg(long)]
    pub force: bool,
}

/// `simplets plot`.
pub fn plot(args: PlotArgs) -> Result<(), Failure> {
    let opts = simplets::plot::PlotOptions {
        snapshot: args.snapshot,
        out_dir: args.out,
        only: args.only,
        force: args.force,
    };
    match simplets::plot::plot(&args.files, &opts) {
        Ok(written) => {
            written.iter().for_each(|p| println!("{}", p.display()));
            Ok(())
        }
        Err(e) if e.is_input() => Err(Failure::Input(e.into())),
        Err(e) => Err(Failure::Run(e.into())),
    }
}
