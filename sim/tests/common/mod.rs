//! Helpers shared by the tests that run the `kanaszta` binary.
#![allow(dead_code)] // each test file uses a subset

use std::path::{Path, PathBuf};
use std::process::Command;

pub const BIN: &str = env!("CARGO_BIN_EXE_kanaszta");

pub fn kanaszta_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run kanaszta");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn kanaszta(args: &[&str]) -> (i32, String, String) {
    kanaszta_env(args, &[])
}

/// A fresh directory for one test.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kanaszta-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Header and rows of a CSV file, every row checked to have the header's width.
pub fn table(p: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(p).unwrap();
    let h: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows: Vec<Vec<String>> = r
        .records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect();
    for row in &rows {
        assert_eq!(row.len(), h.len(), "{}", p.display());
    }
    (h, rows)
}

pub fn col(h: &[String], name: &str) -> usize {
    h.iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name} in {h:?}"))
}

pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = kanaszta(args);
    assert_eq!(code, 0, "{args:?}\nstdout:\n{out}\nstderr:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    out
}

/// Exit 1, a message containing every `needles`, never a panic.
pub fn refused(args: &[&str], needles: &[&str]) {
    let (code, _, err) = kanaszta(args);
    assert_eq!(code, 1, "{args:?} should be refused; stderr: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: `{n}` not in: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}
