//! Facts about this process and machine that results record: peak memory,
//! the CPU, the date. Not about Go; shared by the batch records, the table
//! build report and `gosolve solve --json`.

/// The commit the binary was built from: `git rev-parse --short HEAD` at
/// build time (build.rs), `-dirty` when the sources differed from it, and
/// `unknown` outside a git checkout. Read at build time, not at run time:
/// the checkout a binary runs in may since have moved on.
pub const COMMIT: &str = env!("GOSOLVE_COMMIT");

/// `gosolve --version`: the package version and [`COMMIT`], so that a
/// binary copied away for a long run can be told apart from the checkout it
/// came from. (`concat!` takes literals only, hence the second `env!`.)
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("GOSOLVE_COMMIT"), ")");

/// Whether process `pid` runs on this host (Linux: `/proc/<pid>`). Where
/// this system does not show its processes in `/proc`, every process is
/// taken as running, so that no caller treats a live one's lock or files
/// as left behind.
pub fn running_here(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists() || !std::path::Path::new("/proc/self").exists()
}

/// The 1-minute load average (Linux `/proc/loadavg`): how busy the machine
/// was, which a record's time depends on.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

/// CPU model name and logical core count, from /proc/cpuinfo where available.
pub fn machine_description() -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = text
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string());
    let listed = text.lines().filter(|l| l.starts_with("processor")).count();
    let cores = if listed > 0 { listed } else { cores };
    format!(
        "{}, {} core{}",
        model.unwrap_or_else(|| std::env::consts::ARCH.to_string()),
        cores,
        if cores == 1 { "" } else { "s" }
    )
}

/// This machine's host name (the kernel's node name), or "localhost" where
/// it cannot be read: distributed answers and the manager's lock say where
/// they were written.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "localhost".to_string())
}

/// Peak resident memory of this process in MiB (Linux `VmHWM`).
pub fn peak_memory_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    utc_text(secs)
}

fn utc_text(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, m, d, rem / 3600, (rem % 3600) / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(utc_text(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_text(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_text(1_700_000_000), "2023-11-14T22:13:20Z");
    }
}
