//! Ctrl-C during `psmr run`: the engine's cancel path, not a silent death.
//! The run in progress stops delivering, its delivered prefix is judged by
//! the oracle, the report of what ran is printed, and the exit code is 130.

mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use support::{psmr_command, temp_file, VALID};

/// [`VALID`] made slow: two schedulers paced at 2,000 deliveries a second
/// over 200,000 requests: each would take 100 s, so a Ctrl-C after a few
/// seconds lands in the first run.
fn slow() -> String {
    VALID
        .replace("\"requests\": 2000,", "\"requests\": 200000,")
        .replace(
            r#""schedulers": [ { "id": "sequential" } ]"#,
            r#""delivery": { "model": "rate", "per_s": 2000 },
  "schedulers": [ { "id": "early" }, { "id": "sequential" } ]"#,
        )
}

/// `psmr run` on the slow scenario, interrupted `after` it started; its
/// exit code, stdout and stderr.
fn interrupted_run(after: Duration) -> (Option<i32>, String, String) {
    let path = temp_file("psmr-cli-interrupt", "slow.json", &slow());
    let child = psmr_command()
        .args(["run", path.to_str().unwrap(), "--no-trace"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start psmr");
    std::thread::sleep(after);
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let out = child.wait_with_output().expect("psmr ends");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), stdout, stderr)
}

/// A Ctrl-C that lands in the first run. On a loaded machine the press
/// may come before that run starts delivering (the debug build is still
/// planning and mapping): that is a clean cancel too (exit 130, "0 of 2
/// runs ran", checked), and the press is tried again later in a new
/// process, up to 20 s in.
#[test]
fn ctrl_c_judges_the_delivered_prefix_and_prints_the_report() {
    let mut tries = [3, 8, 20].into_iter().map(Duration::from_secs).peekable();
    let (code, stdout, stderr) = loop {
        let after = tries.next().expect("a delay left");
        let (code, stdout, stderr) = interrupted_run(after);
        let too_early = stderr.contains("psmr: cancelled: 0 of 2 runs ran");
        if !(too_early && tries.peek().is_some()) {
            break (code, stdout, stderr);
        }
        assert_eq!(code, Some(130), "a Ctrl-C before the first run: {stderr}");
    };
    assert_eq!(code, Some(130), "stdout: {stdout}\nstderr: {stderr}");
    assert!(
        stderr.contains("psmr: Ctrl-C: stopping delivery"),
        "{stderr}"
    );
    assert!(
        stderr.contains("psmr: cancelled: 1 of 2 runs ran"),
        "{stderr}"
    );
    let early = stdout
        .lines()
        .find(|l| l.starts_with("early"))
        .unwrap_or_else(|| panic!("no row for the cancelled run: {stdout}"));
    assert!(early.ends_with("cancelled, ok"), "{early}");
    assert!(
        !stdout.lines().any(|l| l.starts_with("sequential")),
        "{stdout}"
    );
}
