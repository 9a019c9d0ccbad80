//! Hostile CSV (and run.json) for the command's readers: `aggregate`,
//! `plot`, `ratings` (a run directory with a hostile summary.csv and
//! run.json) and `merge` (run directories with a hostile hands.csv and
//! run.json). Inputs are real files of a small run, mutated: random
//! bytes, truncation (inside a quote too), cells replaced by `inf`, `NaN`,
//! `1e308`, `-0`, quotes, separators, huge fields, duplicate or missing
//! header columns, a BOM. Every run must end within 10 s (else a hang),
//! with status 0 or 1, and never panic (no `panicked`, no `internal
//! error` on stderr). Inputs stay under about 300 KB, so memory is bounded.
//!
//! Bounded for the test suite (`KANASZTA_FUZZ_CASES`, default 40 cases a
//! reader, from a fixed seed); a longer run, from another seed:
//! `KANASZTA_FUZZ_CASES=2000 KANASZTA_FUZZ_SEED=7 cargo test --release -p kanaszta --test fuzz`.
//! A failing input is kept under the system's temporary directory
//! (`kanaszta-fuzz-*`) and its path printed.

mod common;
mod timed;
use common::{ok, s, tmp};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use timed::run_timed;

fn cases() -> u32 {
    std::env::var("KANASZTA_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
}

/// A runner drawing from a fixed seed (`KANASZTA_FUZZ_SEED` for another).
fn runner() -> TestRunner {
    let seed: u64 = std::env::var("KANASZTA_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2026);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 64,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// The files of a small real run: hands.csv, summary.csv, run.json.
struct Corpus {
    hands: String,
    summary: String,
    manifest: String,
    errors: String,
}

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| {
        let d = tmp("fuzz-corpus");
        let o = d.join("run");
        ok(&[
            "play",
            "--a",
            "rules",
            "--b",
            "greedy",
            "--hands",
            "24",
            "--seed",
            "5",
            "-q",
            "--out",
            s(&o),
        ]);
        let r = |f: &str| std::fs::read_to_string(o.join(f)).unwrap();
        Corpus {
            hands: r("hands.csv"),
            summary: r("summary.csv"),
            manifest: r("run.json"),
            errors: r("errors.csv"),
        }
    })
}

const TOKENS: &[&str] = &[
    "inf",
    "-inf",
    "NaN",
    "nan",
    "infinity",
    "1e308",
    "-1e308",
    "1e309",
    "-0",
    "1e-320",
    "\"",
    "\"\"",
    "\"a,b\"",
    ",",
    "\n",
    "\r\n",
    "\r",
    "\u{feff}",
    "true",
    "false",
    "",
    "\0",
    "é",
    "18446744073709551616",
    "-",
    "0x10",
    " 5 ",
    "{",
    "[]",
    "null",
    "9e99",
];

/// `base` mutated one to three times.
fn hostile(base: &str, rng: &mut Pcg64Mcg) -> Vec<u8> {
    let mut t: Vec<u8> = base.as_bytes().to_vec();
    for _ in 0..rng.random_range(1..4) {
        t = mutate(t, rng);
    }
    t
}

fn token(rng: &mut Pcg64Mcg) -> &'static str {
    TOKENS[rng.random_range(0..TOKENS.len())]
}

fn mutate(t: Vec<u8>, rng: &mut Pcg64Mcg) -> Vec<u8> {
    let text = String::from_utf8_lossy(&t).into_owned();
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    match rng.random_range(0..10) {
        // Random bytes, biased to the CSV's own.
        0 => {
            let n = rng.random_range(0..600);
            (0..n)
                .map(|_| match rng.random_range(0..4) {
                    0 => b",\"\n\r"[rng.random_range(0..4)],
                    1 => b'0' + rng.random_range(0..10u8),
                    _ => rng.random(),
                })
                .collect()
        }
        // Truncated anywhere (inside a quote, a cell, the header).
        1 => {
            let n = if t.is_empty() {
                0
            } else {
                rng.random_range(0..t.len())
            };
            t[..n].to_vec()
        }
        // Cells replaced by hostile values.
        2 | 3 => {
            for _ in 0..rng.random_range(1..8) {
                let i = rng.random_range(0..lines.len());
                let mut cells: Vec<String> = lines[i].split(',').map(str::to_string).collect();
                let j = rng.random_range(0..cells.len());
                cells[j] = token(rng).to_string();
                lines[i] = cells.join(",");
            }
            lines.join("\n").into_bytes()
        }
        // Tokens inserted at random bytes.
        4 => {
            let mut t = t;
            for _ in 0..rng.random_range(1..5) {
                let at = if t.is_empty() {
                    0
                } else {
                    rng.random_range(0..t.len())
                };
                let tok = token(rng).as_bytes().to_vec();
                t.splice(at..at, tok);
            }
            t
        }
        // A header column named twice.
        5 => {
            let mut h: Vec<String> = lines[0].split(',').map(str::to_string).collect();
            let (a, b) = (rng.random_range(0..h.len()), rng.random_range(0..h.len()));
            h[a] = h[b].clone();
            lines[0] = h.join(",");
            lines.join("\n").into_bytes()
        }
        // A column missing from the header, or from one row.
        6 => {
            let i = if rng.random_bool(0.5) {
                0
            } else {
                rng.random_range(0..lines.len())
            };
            let mut cells: Vec<&str> = lines[i].split(',').collect();
            cells.remove(rng.random_range(0..cells.len()));
            lines[i] = cells.join(",");
            lines.join("\n").into_bytes()
        }
        // A huge field: digits, text, or an open quote.
        7 => {
            let huge = match rng.random_range(0..3) {
                0 => "9".repeat(rng.random_range(300..100_000)),
                1 => "x".repeat(rng.random_range(1000..200_000)),
                _ => format!("\"{}", "y,\n".repeat(rng.random_range(10..20_000))),
            };
            let i = rng.random_range(0..lines.len());
            let mut cells: Vec<String> = lines[i].split(',').map(str::to_string).collect();
            let j = rng.random_range(0..cells.len());
            cells[j] = huge;
            lines[i] = cells.join(",");
            lines.join("\n").into_bytes()
        }
        // A byte order mark, or nothing at all.
        8 => {
            if rng.random_bool(0.7) {
                let mut b = "\u{feff}".as_bytes().to_vec();
                b.extend(t);
                b
            } else {
                Vec::new()
            }
        }
        // Only the header, or rows without the header.
        _ => {
            if rng.random_bool(0.5) {
                lines.truncate(1);
            } else {
                lines.remove(0);
            }
            lines.join("\n").into_bytes()
        }
    }
}

/// Runs `args`, checking the outcome; on failure keeps the inputs in `keep`.
fn check(args: &[&str], keep: &Path) -> Result<(), TestCaseError> {
    let (code, _, err) = run_timed_or_hang(args);
    let bad = if code == -2 {
        Some("a hang (killed after 10 s)".to_string())
    } else if code != 0 && code != 1 {
        Some(format!("exit status {code}"))
    } else if err.contains("panicked") || err.contains("internal error") {
        Some("a panic".to_string())
    } else {
        None
    };
    match bad {
        None => Ok(()),
        Some(what) => {
            let kept = std::env::temp_dir().join(format!(
                "kanaszta-fuzz-{}-{}",
                std::process::id(),
                keep.file_name().unwrap().to_string_lossy()
            ));
            let _ = copy_dir(keep, &kept);
            Err(TestCaseError::fail(format!(
                "{what}: kanaszta {}\ninputs kept in {}\nstderr: {}",
                args.join(" "),
                kept.display(),
                err.chars().take(2000).collect::<String>()
            )))
        }
    }
}

/// [`run_timed`] with 10 s, a hang reported as status -2.
fn run_timed_or_hang(args: &[&str]) -> (i32, String, String) {
    match std::panic::catch_unwind(|| run_timed(args, None, 10)) {
        Ok(r) => r,
        Err(_) => (-2, String::new(), String::new()),
    }
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        if e.file_type()?.is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()))?;
        } else {
            std::fs::copy(e.path(), to.join(e.file_name()))?;
        }
    }
    Ok(())
}

/// A fresh directory per case.
fn case_dir(reader: &str, seed: u64) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "kanaszta-fuzzcase-{}-{reader}-{seed:016x}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `case` on `cases()` seeds; removes each case's directory when it
/// passes.
fn fuzz(reader: &str, case: impl Fn(&Path, &mut Pcg64Mcg) -> Result<(), TestCaseError>) {
    let c = corpus();
    let _ = c;
    runner()
        .run(&any::<u64>(), |seed| {
            let d = case_dir(reader, seed);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let r = case(&d, &mut rng);
            let _ = std::fs::remove_dir_all(&d);
            r
        })
        .unwrap();
}

/// One of the run's CSVs, mutated.
fn hostile_csv(rng: &mut Pcg64Mcg) -> Vec<u8> {
    let c = corpus();
    let base = if rng.random_bool(0.6) {
        &c.hands
    } else {
        &c.summary
    };
    hostile(base, rng)
}

#[test]
fn aggregate_never_panics_or_hangs() {
    fuzz("aggregate", |d, rng| {
        let f = d.join("in.csv");
        std::fs::write(&f, hostile_csv(rng)).unwrap();
        let sets: [&[&str]; 5] = [
            &[],
            &["--by", "agent"],
            &["--cols", "raw,won"],
            &["--where", "won=1", "--by", "starter"],
            &["--by", "agent,starter", "--cols", "mean_raw"],
        ];
        let mut args = vec!["aggregate", s(&f)];
        args.extend_from_slice(sets[rng.random_range(0..sets.len())]);
        check(&args, d)
    });
}

#[test]
fn plot_never_panics_or_hangs() {
    fuzz("plot", |d, rng| {
        let f = d.join("in.csv");
        std::fs::write(&f, hostile_csv(rng)).unwrap();
        let svg = d.join("out.svg");
        let sets: [&[&str]; 5] = [
            &["--kind", "hist", "--x", "raw"],
            &[
                "--kind", "hist", "--x", "turns", "--group", "agent", "--bins", "7",
            ],
            &[
                "--kind",
                "bar",
                "--x",
                "agent",
                "--y",
                "mean_raw",
                "--lo",
                "mean_raw_lo",
                "--hi",
                "mean_raw_hi",
            ],
            &[
                "--kind", "line", "--x", "game", "--y", "raw", "--group", "seat",
            ],
            &[
                "--kind",
                "bar",
                "--x",
                "agent",
                "--y",
                "hand_win_rate",
                "--where",
                "side=a",
            ],
        ];
        let mut args = vec!["plot", s(&f), "--out", s(&svg)];
        args.extend_from_slice(sets[rng.random_range(0..sets.len())]);
        check(&args, d)
    });
}

/// run.json: as written, or mutated one time in three.
fn manifest(rng: &mut Pcg64Mcg) -> Vec<u8> {
    let m = &corpus().manifest;
    if rng.random_range(0..3) == 0 {
        hostile(m, rng)
    } else {
        m.as_bytes().to_vec()
    }
}

#[test]
fn ratings_never_panics_or_hangs() {
    fuzz("ratings", |d, rng| {
        let run = d.join("run");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(run.join("summary.csv"), hostile(&corpus().summary, rng)).unwrap();
        std::fs::write(run.join("run.json"), manifest(rng)).unwrap();
        let unit = if rng.random_bool(0.5) {
            "hands"
        } else {
            "matches"
        };
        check(&["ratings", s(&run), "--unit", unit], d)
    });
}

#[test]
fn merge_never_panics_or_hangs() {
    fuzz("merge", |d, rng| {
        let c = corpus();
        let run = d.join("run");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(run.join("hands.csv"), hostile(&c.hands, rng)).unwrap();
        std::fs::write(run.join("run.json"), manifest(rng)).unwrap();
        std::fs::write(run.join("summary.csv"), &c.summary).unwrap();
        std::fs::write(run.join("errors.csv"), &c.errors).unwrap();
        let out = d.join("merged");
        check(&["merge", s(&run), "--out", s(&out)], d)
    });
}
