//! Checks of the limits a user gives (seconds, nodes, table memory), shared by
//! the command line and the batch manifest so that both accept and refuse the
//! same values with the same words.
//!
//! Why here and not at the point of use: `Duration::from_secs_f64` panics on
//! NaN, infinity, negative or huge values, and an allocation larger than the
//! machine has aborts the process; both must be refused up front with a
//! one-line reason.

use std::time::Duration;

/// The longest time limit accepted, in seconds (about 31 years): far beyond
/// any real run, far below what a [`Duration`] can hold.
pub const MAX_SECONDS: f64 = 1e9;

/// A time limit in seconds as a [`Duration`]: finite, > 0, at most
/// [`MAX_SECONDS`]. Zero is refused rather than read as "no limit" (leave the
/// limit out for none).
pub fn seconds(s: f64) -> Result<Duration, String> {
    if s.is_nan() {
        return Err("NaN is not a number of seconds".into());
    }
    if s <= 0.0 {
        return Err(format!("{} is not a positive number of seconds (leave the limit out for none)", s));
    }
    if s > MAX_SECONDS {
        return Err(format!("{} seconds is more than the {:e} allowed (leave the limit out for none)", s, MAX_SECONDS));
    }
    Ok(Duration::from_secs_f64(s))
}

/// A node limit: at least 1. Zero is refused rather than read as "no limit".
pub fn node_limit(n: u64) -> Result<u64, String> {
    if n == 0 {
        return Err("a node limit of 0 would stop before the first node (leave the limit out for none)".into());
    }
    Ok(n)
}

/// The memory the system can give this process now, in MiB (Linux
/// `MemAvailable`); `None` where it cannot be read.
pub fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Refuse transposition tables that cannot fit: `count` tables of `mb` MiB
/// each (plus the df-pn guide, a 32nd of each) against the available memory,
/// so that an impossible size is a one-line error instead of an aborted
/// allocation. `flag` names the option in the message.
pub fn check_table_memory(flag: &str, mb: usize, count: usize) -> Result<(), String> {
    check_table_memory_beside(flag, mb, count, 0, "")
}

/// [`check_table_memory`] with another table of `beside_mb` MiB in memory
/// beside them (`check --checkpoint`: the checkpoint's stays loaded while
/// each other claim gets its own), named `beside` in the message; "use at
/// most" is then what `mb` may be with it.
pub fn check_table_memory_beside(
    flag: &str,
    mb: usize,
    count: usize,
    beside_mb: usize,
    beside: &str,
) -> Result<(), String> {
    let count = count.max(1) as u128;
    let total = (mb as u128 * count + beside_mb as u128) * 33 / 32;
    // Beyond any machine: refuse even where the available memory is unknown.
    const ABSURD_MIB: u128 = 1 << 30; // 1 PiB
    let available = available_mib();
    let too_much = match available {
        Some(a) => total > a as u128,
        None => total > ABSURD_MIB,
    };
    if !too_much {
        return Ok(());
    }
    let each = if count > 1 { format!(" x {} tables", count) } else { String::new() };
    let with = if beside_mb > 0 { format!(" with {beside} of {beside_mb} MiB beside it") } else { String::new() };
    match available {
        Some(a) => {
            let most = ((a as u128 * 32 / 33).saturating_sub(beside_mb as u128) / count) as u64;
            Err(format!(
                "{} {}{}{} needs about {} MiB but only {} MiB of memory is available here; use at most {}",
                flag, mb, each, with, total, a, most
            ))
        }
        None => Err(format!("{} {}{}{} is more memory than any machine has", flag, mb, each, with)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_refuses_what_duration_panics_on() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e30, -0.5, 0.0, -1.0] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds(1.5), Ok(Duration::from_millis(1500)));
        assert!(seconds(MAX_SECONDS).is_ok());
    }

    #[test]
    fn node_limit_zero_refused() {
        assert!(node_limit(0).is_err());
        assert_eq!(node_limit(1), Ok(1));
    }

    #[test]
    fn table_memory() {
        assert!(check_table_memory("--table-mb", 1, 1).is_ok());
        let e = check_table_memory("--table-mb", usize::MAX, 1).unwrap_err();
        assert!(e.contains("--table-mb"), "{e}");
        assert!(check_table_memory("--table-mb", 100_000_000_000_000, 4).is_err());
    }
}
