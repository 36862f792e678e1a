//! The cost table of virtual runs: `--cost-table reference|calibrate|FILE`
//! and `psmr calibrate`, which measures one on this machine.

use std::process::ExitCode;

use psmr_core::calibrate::{calibrate, Calibration, Measured};
use psmr_core::virt::{CostSource, CostTable, Costs};

use crate::shared::{host_for, EXIT_BAD_INPUT};

/// `--cost-table`: `reference` (the committed table, the default: the
/// same numbers on every machine), `calibrate` (measured now, about 2 s)
/// or the path of a JSON table (`psmr calibrate --json` writes one).
pub fn parse_cost_table(spec: &str) -> Result<Costs, String> {
    match spec {
        "reference" => Ok(Costs::reference()),
        "calibrate" => measure(Calibration::default()).map(|(c, _)| c),
        path => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the cost table {path}: {e}"))?;
            Costs::from_json(&text, path).map_err(|e| format!("{path}: {e}"))
        }
    }
}

/// Calibrate on this machine: the table with its provenance, and the
/// fractional measurements.
fn measure(cal: Calibration) -> Result<(Costs, Measured), String> {
    let host = host_for(1).map_err(|_| "cannot start two threads".to_string())?;
    let m = calibrate(&host, cal)?;
    let source = CostSource::Calibrated {
        where_: this_machine(),
        when: utc_now(),
    };
    Ok((
        Costs {
            table: m.table(),
            source,
        },
        m,
    ))
}

/// `psmr calibrate`: measure the table and print it beside the reference
/// (or as JSON, to pass to `--cost-table FILE`).
pub fn cmd_calibrate(json: bool, per_kind_ms: u64) -> ExitCode {
    let (costs, m) = match measure(Calibration { per_kind_ms }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("psmr: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    if json {
        match serde_json::to_string_pretty(&costs) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("psmr: cannot encode the table: {e}");
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        }
    } else {
        print!("{}", calibration_table(&costs, &m));
    }
    ExitCode::SUCCESS
}

/// The calibrated table beside the reference, one kind per line.
fn calibration_table(costs: &Costs, m: &Measured) -> String {
    let r = CostTable::reference();
    let t = &costs.table;
    let mut rows: Vec<(&str, f64, u64, u64)> = vec![
        (
            "lock_uncontended",
            m.lock_uncontended,
            t.lock_uncontended,
            r.lock_uncontended,
        ),
        (
            "lock_contended",
            m.lock_contended,
            t.lock_contended,
            r.lock_contended,
        ),
        ("atomic_rmw", m.atomic_rmw, t.atomic_rmw, r.atomic_rmw),
        (
            "line_transfer",
            m.line_transfer,
            t.line_transfer,
            r.line_transfer,
        ),
        (
            "queue_handoff",
            m.queue_handoff,
            t.queue_handoff,
            r.queue_handoff,
        ),
        ("wake_up", m.wake_up, t.wake_up, r.wake_up),
        ("wake_notify", m.wake_notify, t.wake_notify, r.wake_notify),
        ("clock_read", m.clock_read, t.clock_read, r.clock_read),
        ("spin", m.spin, t.spin, r.spin),
        ("yield_now", m.yield_now, t.yield_now, r.yield_now),
        ("work_unit", m.work_unit, t.work_unit, r.work_unit),
        (
            "execute_base",
            m.execute_base,
            t.execute_base,
            r.execute_base,
        ),
    ];
    let missed = rows.iter().any(|r| !r.1.is_finite());
    // Never measured: fitted on CBASE's scheduler cost (`CostTable::reference`).
    rows.push(("scan_step", f64::NAN, t.scan_step, r.scan_step));
    // Never measured here: needs a run's delivery loop (virtual.md).
    rows.push(("deliver", f64::NAN, t.deliver, r.deliver));
    // Never measured here: each needs its scheduler's runs (virtual.md).
    rows.push(("route", f64::NAN, t.route, r.route));
    rows.push(("event_pop", f64::NAN, t.event_pop, r.event_pop));
    rows.push((
        "event_register",
        f64::NAN,
        t.event_register,
        r.event_register,
    ));
    rows.push(("graph_take", f64::NAN, t.graph_take, r.graph_take));
    rows.push(("graph_remove", f64::NAN, t.graph_remove, r.graph_remove));
    // A switch of the model's rule, not a cost (a spinner keeps its core).
    rows.push((
        "spin_keeps_core",
        f64::NAN,
        t.spin_keeps_core,
        r.spin_keeps_core,
    ));
    // Never measured here: a wake's switch on a busy core (virtual.md).
    rows.push(("wake_preempt", f64::NAN, t.wake_preempt, r.wake_preempt));
    // The list walk's measurement again, in picoseconds (what the charge
    // uses when set).
    rows.push((
        "work_unit_ps",
        m.work_unit * 1000.0,
        t.work_unit_ps,
        r.work_unit_ps,
    ));
    // std's constant, not measured (a count of spins, not ns).
    rows.push(("mutex_spins", f64::NAN, t.mutex_spins, r.mutex_spins));
    // Measured on Linux only (two threads pinned to one CPU).
    rows.push((
        "context_switch",
        m.context_switch,
        t.context_switch,
        r.context_switch,
    ));
    rows.push(("time_slice", m.time_slice, t.time_slice, r.time_slice));
    let cells: Vec<Vec<String>> = rows
        .into_iter()
        .map(|(name, measured, ns, reference)| {
            vec![
                name.to_string(),
                if measured.is_finite() {
                    format!("{measured:.1}")
                } else {
                    "-".into()
                },
                ns.to_string(),
                reference.to_string(),
            ]
        })
        .collect();
    let title = match &costs.source {
        CostSource::Calibrated { where_, when } => {
            format!("cost table calibrated on {where_}, {when}")
        }
        _ => "cost table".to_string(),
    };
    let mut out = format!(
        "{title} (ns; the fastest batch of each kind counts; on a loaded machine the \
         two-thread kinds may still read high)\n{}",
        crate::table::render(&["kind", "measured", "table", "reference"], &cells)
    );
    if missed {
        out.push_str(
            "- not measured (the two threads never ran side by side): the reference value is kept\n",
        );
    }
    out
}

/// `host (arch, N cores, native)`.
fn this_machine() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this machine".into());
    format!(
        "{host} ({}, {} cores, native)",
        std::env::consts::ARCH,
        psmr_scenario::runner::available_cores()
    )
}

/// Now as `YYYY-MM-DDTHH:MM:SSZ`.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    iso_utc(secs)
}

/// Seconds since 1970 as an ISO 8601 UTC timestamp (the proleptic
/// Gregorian calendar: days to year/month/day by 400-year eras).
fn iso_utc(secs: u64) -> String {
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_iso_utc() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day of a century year divisible by 400).
        assert_eq!(iso_utc(951_782_400 + 3_723), "2000-02-29T01:02:03Z");
        assert_eq!(iso_utc(1_798_675_200), "2026-12-31T00:00:00Z");
    }

    #[test]
    fn the_reference_is_the_default_and_a_bad_file_is_named() {
        assert_eq!(parse_cost_table("reference").unwrap(), Costs::reference());
        let e = parse_cost_table("/nonexistent/t.json").unwrap_err();
        assert!(e.contains("/nonexistent/t.json"), "{e}");
    }
}
