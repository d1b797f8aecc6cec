//! Tells the crate the commit it is built from (`GOSOLVE_COMMIT`, read by
//! `process::COMMIT`), so that every result record names the code that
//! computed it. Outside a git checkout (a tarball) it is `unknown`.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn main() {
    // The sources: a change makes the tree dirty (and rebuilds the crate anyway).
    for path in ["build.rs", "src", "data", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={path}");
    }
    // A new commit or checkout moves HEAD or the branch it names.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
    }
    if let (Some(common), Some(branch)) =
        (git(&["rev-parse", "--git-common-dir"]), git(&["symbolic-ref", "-q", "HEAD"]))
    {
        for path in [format!("{common}/{branch}"), format!("{common}/packed-refs")] {
            if Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
    let commit = match git(&["rev-parse", "--short=7", "HEAD"]) {
        Some(hash) => {
            let changes = git(&["status", "--porcelain", "--", "build.rs", "src", "data", "Cargo.toml", "Cargo.lock"]);
            if changes.is_some() {
                format!("{hash}-dirty")
            } else {
                hash
            }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=GOSOLVE_COMMIT={commit}");
}
