//! `simplets` binary: parse the command line, initialise logging, run, and on failure print
//! `error: <one line>` to stderr and exit with 2 (bad input), 1 (run failure) or 3
//! (interrupted by SIGTERM/SIGINT, checkpoint written).

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let parsed = match cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprintln!("error: missing command: run or check (see simplets --help)");
                return ExitCode::from(2);
            }
            // clap's message is several lines (tip, usage); keep the first, with the indented
            // list that follows it when it ends in ':' (the missing arguments).
            let text = e.to_string();
            let mut lines = text.lines();
            let first = lines.next().unwrap_or("bad command line");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            let listed: Vec<&str> = if first.ends_with(':') {
                lines
                    .take_while(|l| l.starts_with(' '))
                    .map(str::trim)
                    .collect()
            } else {
                vec![]
            };
            let first = if listed.is_empty() {
                first.to_string()
            } else {
                format!("{first} {}", listed.join(", "))
            };
            eprintln!("error: {first} (see simplets --help)");
            return ExitCode::from(2);
        }
    };
    let code = match cli::execute(parsed) {
        Ok(()) => 0,
        Err(f) => {
            log::debug!("{f:?}");
            eprintln!("error: {}", f.one_line());
            f.code()
        }
    };
    if simplets::output::library_damaged() || code == 3 {
        // After a failed NetCDF call HDF5 may still hold a file that netCDF has let go, and its
        // exit handler then crashes (SIGSEGV) closing it. After an interrupt during the set-up
        // the OpenCL runtime may still be compiling on a thread of its own, and PoCL's exit
        // handlers then abort (SIGABRT, status 134 instead of 3). Every file of ours is closed
        // or kept by now: end without the C exit handlers, with our own status.
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        // SAFETY: _exit ends the process at once; nothing of ours is left unwritten.
        unsafe { libc::_exit(i32::from(code)) }
    }
    ExitCode::from(code)
}
