use std::time::Instant;
fn cpu_s() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    let f: Vec<&str> = stat.rsplit(')').next().unwrap().split_whitespace().collect();
    let ticks: f64 = f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap();
    ticks / 100.0
}
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let variant: u32 = a[1].parse().unwrap();
    let n: u32 = a[2].parse().unwrap();
    let entries: u32 = a[3].parse().unwrap();
    wsingle_mb::list_init(entries);
    let t0 = Instant::now();
    let c0 = cpu_s();
    let r = wsingle_mb::list_run(variant, n, entries, 7);
    let c1 = cpu_s();
    println!(
        "native v{variant} n={n} cpu_us_per_req={:.3} wall_us_per_req={:.3} check={r}",
        (c1 - c0) * 1e6 / n as f64,
        t0.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}
