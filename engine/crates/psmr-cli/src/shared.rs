//! What every subcommand shares: exit codes, loading a scenario file with
//! located diagnostics, a thread host sized for a run, the `--delivery` parser,
//! and writing the output.

use std::process::ExitCode;

use psmr_core::exec::Delivery;
use psmr_core::threads::ThreadHost;
use psmr_core::virt::StallHook;
use psmr_scenario::parse::parse_unvalidated;
use psmr_scenario::{parse_scenario, Diagnostic, Scenario};

/// Exit code of a run whose oracle found a violation, or a failed check.
pub(crate) const EXIT_FAILED: u8 = 1;
/// Exit code of bad input.
pub(crate) const EXIT_BAD_INPUT: u8 = 2;
/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// Read and parse `file`; diagnostics for an unreadable or invalid file.
pub(crate) fn load(file: &std::path::Path) -> Result<Scenario, Vec<Diagnostic>> {
    let (text, name) = read(file)?;
    parse_scenario(&text, &name)
}

/// Read and parse `file` without validating it: for a run, a sweep or an
/// exploration, which validates it once with its overrides applied, in
/// its plan (`psmr_scenario::runner::plan_run`, `bench::plan_bench`,
/// `explore::plan_explore`).
pub(crate) fn read_scenario(file: &std::path::Path) -> Result<Scenario, Vec<Diagnostic>> {
    let (text, name) = read(file)?;
    parse_unvalidated(&text, &name)
}

/// The text of `file` and its name for diagnostics, or the diagnostic of
/// an unreadable file.
pub(crate) fn read(file: &std::path::Path) -> Result<(String, String), Vec<Diagnostic>> {
    let name = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| {
        vec![Diagnostic::new(
            &name,
            (1, 1),
            "",
            format!("cannot read the file: {e}"),
        )]
    })?;
    Ok((text, name))
}

pub(crate) fn print_diagnostics(diags: &[Diagnostic]) {
    for d in diags {
        eprintln!("{d}");
    }
}

/// Pool threads kept beside the workers for schedulers' auxiliary roles
/// (tracker, partitioner, graph builder).
const AUX_THREADS: usize = 4;

/// A thread host able to run `threads` workers, the delivering thread and
/// up to [`AUX_THREADS`] auxiliary threads. On virtual cores, a run stuck
/// in a wait outside the facade ends the process with the stall
/// watchdog's message (the stuck thread cannot be stopped otherwise).
pub(crate) fn host_for(threads: usize) -> Result<ThreadHost, ExitCode> {
    let workers = threads.clamp(1, psmr_core::threads::MAX_WORKERS) + AUX_THREADS;
    let host = ThreadHost::with_capacity(workers).map_err(|e| {
        eprintln!("psmr: {e}");
        ExitCode::from(EXIT_BAD_INPUT)
    })?;
    let exit = StallHook(std::sync::Arc::new(|msg: &str| {
        eprintln!("psmr: {msg}");
        std::process::exit(EXIT_FAILED.into());
    }));
    Ok(host.on_stall(None, Some(exit)))
}

/// `--delivery`: `saturate`, `closed`, `closed:N` or `rate:R`.
pub(crate) fn parse_delivery(s: &str) -> Result<Delivery, String> {
    let (model, arg) = s.split_once(':').map_or((s, None), |(m, a)| (m, Some(a)));
    let bad = || format!("expected saturate, closed, closed:CLIENTS or rate:PER_SECOND, got `{s}`");
    match (model, arg) {
        ("saturate", None) => Ok(Delivery::Saturate),
        ("closed", None) => Ok(Delivery::Closed { clients: None }),
        ("closed", Some(n)) => n
            .parse::<u32>()
            .ok()
            .filter(|n| *n > 0)
            .map(|n| Delivery::Closed { clients: Some(n) })
            .ok_or_else(bad),
        ("rate", Some(r)) => r
            .parse::<f64>()
            .ok()
            .filter(|r| r.is_finite() && *r > 0.0)
            .map(|per_s| Delivery::Rate { per_s })
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// Write a command's output to standard output. A reader that went away
/// (`psmr map --json | head`) ends the command quietly with success, as
/// for any filter; another write error is reported and is exit 2.
pub(crate) fn emit(text: &str) -> Result<(), ExitCode> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("psmr: cannot write the output: {e}");
            Err(ExitCode::from(EXIT_BAD_INPUT))
        }
    }
}
