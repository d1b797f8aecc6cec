//! Everything that touches bytes on disk goes through here: the binary codec
//! (bincode 2, native `Encode`/`Decode`, fixed-width little-endian integers so
//! record sizes are known in advance) and atomic file replacement.
//!
//! Keeping both behind this small module means the codec could be swapped
//! without touching the table or batch code, and that no caller can forget
//! the write-to-temporary-then-rename dance: a run killed at any moment leaves
//! either the old file or the new one, never a half-written file.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub use bincode::{Decode, Encode};

/// Why bytes could not be encoded or decoded.
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("encoding failed: {0}")]
    Encode(String),
    #[error("{0}")]
    Decode(String),
}

/// The one codec configuration: fixed-width little-endian integers (so a
/// record's size never depends on its values) and a cap on what a decode may
/// allocate, so a damaged length field cannot ask for gigabytes.
fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_little_endian().with_fixed_int_encoding().with_limit::<{ 1 << 28 }>()
}

/// Encode a value to bytes.
pub fn to_bytes<T: Encode>(value: &T) -> Result<Vec<u8>, CodecError> {
    bincode::encode_to_vec(value, config()).map_err(|e| CodecError::Encode(e.to_string()))
}

/// The encoding of `value` in `buf` (cleared first; its allocation kept
/// for the next call).
pub fn encode_reusing<T: Encode>(value: &T, buf: &mut Vec<u8>) -> Result<(), CodecError> {
    buf.clear();
    bincode::encode_into_std_write(value, buf, config()).map(|_| ()).map_err(|e| CodecError::Encode(e.to_string()))
}

/// A fast 64-bit hash of `bytes`, eight at a time (not [`fnv1a64`]: not
/// for files, only for telling values apart within one process).
pub fn quick_hash64(bytes: &[u8]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let x = u64::from_le_bytes(w.try_into().expect("eight bytes"));
        h = (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(23);
    }
    for &b in words.remainder() {
        h = (h ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(23);
    }
    h ^ (h >> 29)
}

/// Append the encoding of `value` to `out`.
pub fn encode_into<T: Encode>(value: &T, out: &mut Vec<u8>) -> Result<(), CodecError> {
    let bytes = to_bytes(value)?;
    out.extend_from_slice(&bytes);
    Ok(())
}

/// Decode one value from the front of `bytes`; returns it and the bytes used.
pub fn from_bytes<T: Decode<()>>(bytes: &[u8]) -> Result<(T, usize), CodecError> {
    bincode::decode_from_slice(bytes, config()).map_err(|e| CodecError::Decode(describe_decode(&e)))
}

fn describe_decode(e: &bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as D;
    match e {
        D::UnexpectedEnd { .. } => "unexpected end of data".to_string(),
        D::LimitExceeded => "a length field is implausibly large".to_string(),
        other => other.to_string(),
    }
}

/// FNV-1a, 64 bits: a small, dependency-free checksum for detecting damage
/// (not an integrity guarantee against tampering).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_from(0xcbf2_9ce4_8422_2325, bytes)
}

/// [`fnv1a64`] of a longer input, continued over `bytes` from the hash
/// `h` of what came before: `fnv1a64(ab) == fnv1a64_from(fnv1a64(a), b)`,
/// so a file too large for memory is hashed as it streams.
pub fn fnv1a64_from(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The temporary name a file is written under before it is renamed into
/// place: `<file>.<pid>.<n>.tmp` in the same directory (so the rename is
/// atomic). The process id and a per-process counter make it unique, so two
/// runs (or two threads) writing the same file never share a temporary file:
/// each rename is atomic and the last one wins, where a shared `<file>.tmp`
/// let one writer rename the other's half-written file or find it gone.
pub fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".{}.{}.tmp", std::process::id(), n));
    path.with_file_name(name)
}

/// Write `bytes` to `path` atomically: write a unique temporary file (see
/// [`temp_path`]) in the same directory, flush it to disk, rename it over
/// `path`, then flush the directory entry (best effort). Parent directories
/// are created. On any error the temporary file is removed, and writing
/// over a directory is refused before anything is written.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// [`write_atomic`] for a file too large to build in memory first: `write`
/// streams the contents into the temporary file (buffered), which is then
/// flushed, synced and renamed over `path` as there. If `write` fails, the
/// temporary file is removed and `path` is left as it was.
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    if path.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, format!("{} is a directory", path.display())));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = io::BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        write(&mut f)?;
        let f = f.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result?;
    sync_dir(path);
    Ok(())
}

/// [`write_atomic_with`] for the big files that long runs write again and
/// again (checkpoints, tables and their partial builds): first the
/// temporary files that a writer of the same `path` killed mid-write left
/// behind are removed ([`remove_stale_temps`]). A run killed during a save
/// (`kill -9`, a machine that stops, Slurm's `scancel` past its grace
/// period) leaves one as large as the checkpoint, gigabytes on the 5x5
/// boards, and each such kill would add another.
pub fn write_large_atomic_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    remove_stale_temps(path);
    write_atomic_with(path, write)
}

/// How long a temporary file must have gone unwritten before
/// [`remove_stale_temps`] takes it for a dead writer's: a live writer
/// writes its file without pause (a save's stream, a megabyte a write).
pub const STALE_TEMP: std::time::Duration = std::time::Duration::from_secs(600);

/// Remove the temporary files of `path` ([`temp_path`]'s
/// `<file>.<pid>.<n>.tmp`) that no live writer can be writing: unchanged
/// for [`STALE_TEMP`] and of a process not running here
/// ([`crate::process::running_here`]: where that cannot be told, as
/// outside Linux, none is removed; this process's own never are). Best
/// effort: what cannot be read or removed is left. Removing a file that a
/// writer on another machine, stopped for longer than that, still holds
/// costs that writer its save (its rename fails, with an error, and the
/// next save writes anew), never the file it replaces.
pub fn remove_stale_temps(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let Ok(list) = fs::read_dir(dir) else { return };
    for e in list.flatten() {
        let file = e.file_name();
        let Some(pid) = file.to_str().and_then(|f| temp_pid(f, name)) else { continue };
        if crate::process::running_here(pid) {
            continue;
        }
        let Ok(meta) = e.metadata() else { continue };
        let idle = meta.modified().ok().and_then(|m| m.elapsed().ok());
        if meta.is_file() && idle.is_some_and(|t| t >= STALE_TEMP) {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// The writer's process id where `file` is a temporary name of `name`
/// (`<name>.<pid>.<n>.tmp`).
fn temp_pid(file: &str, name: &str) -> Option<u32> {
    let rest = file.strip_prefix(name)?.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (pid, n) = rest.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(n) && digits(pid)).then(|| pid.parse().ok()).flatten()
}

/// Whether files can be created in the directory that will hold `path`
/// (created if missing): a probe file is written and removed. Long runs call
/// this before they start, so that a read-only destination is reported at
/// once instead of after the work.
pub fn check_writable(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, format!("{} is a directory", path.display())));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let probe = temp_path(path);
    File::create(&probe)?;
    fs::remove_file(&probe)
}

/// Flush the directory holding `path`, so the rename itself survives a crash.
fn sync_dir(path: &Path) {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Write a text file atomically.
pub fn write_text_atomic(path: &Path, text: &str) -> io::Result<()> {
    write_atomic(path, text.as_bytes())
}

/// Write a value as pretty JSON (with a final newline) atomically.
pub fn write_json_atomic<T: serde::Serialize>(path: &Path, value: &T) -> io::Result<()> {
    let mut text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
    text.push('\n');
    write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Encode, Decode, Debug, PartialEq)]
    struct Rec {
        a: u64,
        b: i8,
        c: bool,
    }

    /// A killed writer's temporary file is removed by the next large write
    /// of the same file; a live writer's, a recent one, this process's own
    /// and other files are left.
    #[test]
    fn a_killed_writers_temporary_file_is_removed_by_the_next_save() {
        let d = std::env::temp_dir().join(format!("gosolve-stale-{}", std::process::id()));
        fs::create_dir_all(&d).unwrap();
        let target = d.join("job.ck");
        let old = std::time::SystemTime::now() - STALE_TEMP - std::time::Duration::from_secs(60);
        let put = |name: &str, modified: Option<std::time::SystemTime>| {
            let p = d.join(name);
            fs::write(&p, b"half a save").unwrap();
            if let Some(t) = modified {
                File::options().write(true).open(&p).unwrap().set_modified(t).unwrap();
            }
            p
        };
        // A process id above Linux's largest (2^22) is never running.
        let dead = put("job.ck.4194305.3.tmp", Some(old));
        let recent = put("job.ck.4194306.0.tmp", None);
        let own = put(&format!("job.ck.{}.9.tmp", std::process::id()), Some(old));
        let other = put("other.ck.4194305.3.tmp", Some(old));
        let not_temp = put("job.ck.4194305.x.tmp", Some(old));
        write_large_atomic_with(&target, |w| w.write_all(b"the new checkpoint")).unwrap();
        assert!(!dead.exists(), "a dead writer's old temporary file is removed");
        for kept in [&recent, &own, &other, &not_temp] {
            assert!(kept.exists(), "{} is kept", kept.display());
        }
        assert_eq!(fs::read(&target).unwrap(), b"the new checkpoint");
        assert_eq!(temp_pid("job.ck.12.0.tmp", "job.ck"), Some(12));
        assert_eq!(temp_pid("job.ck.tmp", "job.ck"), None);
        assert_eq!(temp_pid("job.ck.1.2.3.tmp", "job.ck"), None);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn fixed_width_round_trip() {
        let r = Rec { a: 1, b: -3, c: true };
        let bytes = to_bytes(&r).unwrap();
        assert_eq!(bytes.len(), 10, "fixed-width: 8 + 1 + 1");
        assert_eq!(to_bytes(&Rec { a: u64::MAX, b: 0, c: false }).unwrap().len(), 10);
        let (back, used) = from_bytes::<Rec>(&bytes).unwrap();
        assert_eq!((back, used), (r, 10));
        assert!(from_bytes::<Rec>(&bytes[..5]).is_err());
    }

    #[test]
    fn fnv_known_values() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let dir = std::env::temp_dir().join(format!("gosolve-store-{}", std::process::id()));
        let file = dir.join("sub").join("x.json");
        write_json_atomic(&file, &serde_json::json!({"a": 1})).unwrap();
        write_text_atomic(&file, "second\n").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "second\n");
        let left: Vec<_> = fs::read_dir(file.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("x.json")], "no temporary file left");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Two writers of the same file never share a temporary name (two
    /// batches writing one directory used to abort with "No such file").
    #[test]
    fn temporary_names_are_unique() {
        let p = Path::new("d/x.json");
        let (a, b) = (temp_path(p), temp_path(p));
        assert_ne!(a, b);
        let name = a.file_name().unwrap().to_str().unwrap().to_string();
        assert!(name.starts_with(&format!("x.json.{}.", std::process::id())) && name.ends_with(".tmp"), "{name}");
    }

    #[test]
    fn concurrent_writers_of_one_file() {
        let dir = std::env::temp_dir().join(format!("gosolve-store-race-{}", std::process::id()));
        let file = dir.join("r.json");
        std::thread::scope(|s| {
            for t in 0..4 {
                let file = &file;
                s.spawn(move || {
                    for i in 0..50 {
                        write_text_atomic(file, &format!("{t} {i}\n")).expect("no writer fails");
                    }
                });
            }
        });
        assert!(fs::read_to_string(&file).unwrap().ends_with('\n'));
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
        fs::remove_dir_all(&dir).unwrap();
    }
}
