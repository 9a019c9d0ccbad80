//! Embeds the source's git commit in the `kanaszta` binary, for run.json:
//! `KANASZTA_COMMIT` (the commit's hash, or `unknown` outside a git
//! checkout or without git) and `KANASZTA_DIRTY` (`true` when tracked files
//! differ from the commit, `false`, or `unknown`). Only `git` itself is used.

use std::path::PathBuf;
use std::process::Command;

/// `git ARGS` in the package's directory: its trimmed output, if it ran.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "HEAD"]).filter(|c| !c.is_empty());
    let dirty =
        match &commit {
            Some(_) => git(&["status", "--porcelain", "--untracked-files=no"])
                .map_or("unknown", |s| if s.is_empty() { "false" } else { "true" }),
            None => "unknown",
        };
    println!(
        "cargo:rustc-env=KANASZTA_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    println!("cargo:rustc-env=KANASZTA_DIRTY={dirty}");
    // Run again when the commit moves (HEAD, the branch's ref) or the
    // sources change (dirty), not on every build. Only files that exist
    // are watched: cargo reruns a build script on every build while a
    // watched path is missing (a fresh clone may have no loose branch ref,
    // a repository that never packed has no packed-refs).
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let dir = PathBuf::from(dir);
        let mut watch = vec![dir.join("HEAD")];
        if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
            let common = PathBuf::from(common);
            // The branch's loose ref when it has one; packed-refs only
            // when the ref lives there, so that packing or deleting other
            // branches does not relink the binary.
            let loose = git(&["symbolic-ref", "-q", "HEAD"]).map(|head| common.join(head));
            match loose {
                Some(path) if path.exists() => watch.push(path),
                _ => watch.push(common.join("packed-refs")),
            }
        }
        for path in watch.iter().filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    for src in ["src", "../engine/src", "../agents/src", "../Cargo.lock"] {
        println!("cargo:rerun-if-changed={src}");
    }
}
