//! What a run writes of its rows (`--rows`, `--compress`) and what reads
//! them: the summary is the same whatever is written, shards without rows
//! merge to the single run's summary, and every reader reads a compressed
//! run as it reads a plain one.

mod common;

use common::*;
use std::path::{Path, PathBuf};

/// The runs of both families and both units these tests play.
const RUNS: [(&str, &[&str]); 4] = [
    ("dh", &["--a", "greedy", "--b", "random", "--hands", "60"]),
    ("dm", &["--a", "greedy", "--b", "rules", "--matches", "6"]),
    (
        "ch",
        &[
            "--a",
            "greedy",
            "--b",
            "random",
            "--rules",
            "classic-002",
            "--hands",
            "40",
        ],
    ),
    (
        "cm",
        &[
            "--a",
            "greedy+rules",
            "--b",
            "rules",
            "--rules",
            "classic-002",
            "--set",
            "players=4",
            "--matches",
            "4",
        ],
    ),
];

/// Plays `args` into `dir` with `extra` options; the report on stdout.
fn play(dir: &Path, args: &[&str], extra: &[&str]) -> String {
    let mut all = vec!["play", "--quiet", "--threads", "2", "--out", s(dir)];
    all.extend_from_slice(args);
    all.extend_from_slice(extra);
    ok(&all)
}

/// The report without its timing line.
fn untimed(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.contains("/s)"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn rows_none_and_matches_keep_the_summary_of_rows_all_in_either_family() {
    let d = tmp("rows-choice");
    for (name, args) in RUNS {
        let all: PathBuf = d.join(format!("{name}-all"));
        let none = d.join(format!("{name}-none"));
        let matches = d.join(format!("{name}-matches"));
        let shown_all = play(&all, args, &[]);
        let shown_none = play(&none, args, &["--rows", "none"]);
        play(&matches, args, &["--rows", "matches"]);
        assert!(all.join("hands.csv").exists() && !all.join("accum.json").exists());
        assert!(!none.join("hands.csv").exists() && !none.join("matches.csv").exists());
        assert!(none.join("accum.json").exists(), "{name}: accum.json");
        assert!(!matches.join("hands.csv").exists());
        for dir in [&none, &matches] {
            assert_eq!(
                bytes(&all.join("summary.csv")),
                bytes(&dir.join("summary.csv")),
                "{name}: {} has the summary of rows all",
                dir.display()
            );
            assert_eq!(
                bytes(&all.join("errors.csv")),
                bytes(&dir.join("errors.csv"))
            );
        }
        assert_eq!(
            untimed(&shown_all).replace(s(&all), "DIR"),
            untimed(&shown_none).replace(s(&none), "DIR"),
            "{name}: the same table on screen"
        );
        if name.ends_with('m') {
            assert_eq!(
                bytes(&all.join("matches.csv")),
                bytes(&matches.join("matches.csv")),
                "{name}: --rows matches writes matches.csv as rows all does"
            );
        }
    }
}

#[test]
fn shards_without_rows_merge_to_the_single_runs_summary_in_either_family() {
    let d = tmp("rows-merge");
    for (name, args) in RUNS {
        let whole = d.join(format!("{name}-whole"));
        play(&whole, args, &[]);
        for rows in ["none", "matches"] {
            let shards: Vec<PathBuf> = (0..3)
                .map(|i| {
                    let sd = d.join(format!("{name}-{rows}-{i}"));
                    play(&sd, args, &["--rows", rows, "--shard", &format!("{i}/3")]);
                    sd
                })
                .collect();
            let merged = d.join(format!("{name}-{rows}-merged"));
            // Out of order on purpose: the sums do not depend on it.
            ok(&[
                "merge",
                s(&shards[2]),
                s(&shards[0]),
                s(&shards[1]),
                "--out",
                s(&merged),
            ]);
            assert_eq!(
                bytes(&whole.join("summary.csv")),
                bytes(&merged.join("summary.csv")),
                "{name}, --rows {rows}: merged summary is the single run's"
            );
            assert!(!merged.join("hands.csv").exists());
            if rows == "matches" && name.ends_with('m') {
                assert_eq!(
                    bytes(&whole.join("matches.csv")),
                    bytes(&merged.join("matches.csv")),
                    "{name}: the merged matches.csv is the single run's"
                );
            }
            // The merged run merges again, with the run's other shards'
            // accumulators, as a shard would.
            assert!(merged.join("accum.json").exists());
        }
    }
}

#[test]
fn merge_refuses_shards_of_mixed_rows_and_a_foreign_accumulator() {
    let d = tmp("rows-mix");
    let args = ["--a", "greedy", "--b", "random", "--hands", "40"];
    let (a, b, c) = (d.join("a"), d.join("b"), d.join("c"));
    play(&a, &args, &["--shard", "0/2"]);
    play(&b, &args, &["--shard", "1/2", "--rows", "none"]);
    play(&c, &args, &["--shard", "0/2", "--rows", "matches"]);
    refused(
        &["merge", s(&a), s(&b), "--out", s(&d.join("m1"))],
        &["--rows all", "--rows none", "one --rows"],
    );
    refused(
        &["merge", s(&c), s(&b), "--out", s(&d.join("m2"))],
        &["--rows matches", "--rows none"],
    );
    // An accum.json that is not one kanaszta wrote is named, not trusted.
    let e = d.join("e");
    play(&e, &args, &["--shard", "0/2", "--rows", "none"]);
    std::fs::write(e.join("accum.json"), "{\"rows\": \"none\"}").unwrap();
    refused(
        &["merge", s(&e), s(&b), "--out", s(&d.join("m3"))],
        &["accum.json", "rerun that shard"],
    );
}

/// The bytes inside a gzip file.
fn gunzip(p: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(p).unwrap())
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    out
}

/// Runs `args`, with `dir` in the output replaced by `DIR`.
fn shown(args: &[&str], dir: &Path) -> String {
    ok(args).replace(s(dir), "DIR")
}

#[test]
fn every_reader_reads_a_compressed_run_as_the_plain_one() {
    let d = tmp("rows-gz");
    for (name, args) in [RUNS[1], RUNS[3]] {
        let (plain, packed) = (
            d.join(format!("{name}-plain")),
            d.join(format!("{name}-gz")),
        );
        let shards = |base: &Path, extra: &[&str]| -> Vec<PathBuf> {
            (0..2)
                .map(|i| {
                    let sd = base.with_extension(format!("s{i}"));
                    let mut all = extra.to_vec();
                    let shard = format!("{i}/2");
                    all.extend(["--shard", &shard]);
                    play(&sd, args, &all);
                    sd
                })
                .collect()
        };
        play(&plain, args, &[]);
        play(&packed, args, &["--compress", "gz"]);
        for f in ["hands.csv", "matches.csv"] {
            assert!(!packed.join(f).exists(), "{name}: no plain {f}");
            assert_eq!(
                bytes(&plain.join(f)),
                gunzip(&packed.join(format!("{f}.gz"))),
                "{name}: {f}.gz holds {f}"
            );
        }
        for f in ["errors.csv", "summary.csv"] {
            assert_eq!(bytes(&plain.join(f)), bytes(&packed.join(f)), "{name}: {f}");
        }

        // merge: compressed shards merge to the plain shards' merge; with
        // --compress gz the merged rows are compressed.
        let (ps, gs) = (shards(&plain, &[]), shards(&packed, &["--compress", "gz"]));
        let (pm, gm, gz) = (
            d.join(format!("{name}-pm")),
            d.join(format!("{name}-gm")),
            d.join(format!("{name}-gz-merged")),
        );
        let a = shown(&["merge", s(&ps[0]), s(&ps[1]), "--out", s(&pm)], &pm);
        let b = shown(&["merge", s(&gs[1]), s(&gs[0]), "--out", s(&gm)], &gm);
        assert_eq!(a, b, "{name}: merge reports the same");
        for f in ["hands.csv", "matches.csv", "errors.csv", "summary.csv"] {
            assert_eq!(bytes(&pm.join(f)), bytes(&gm.join(f)), "{name}: merged {f}");
        }
        assert_eq!(
            bytes(&pm.join("hands.csv")),
            bytes(&plain.join("hands.csv"))
        );
        ok(&[
            "merge",
            s(&gs[0]),
            s(&gs[1]),
            "--out",
            s(&gz),
            "--compress",
            "gz",
        ]);
        assert_eq!(
            gunzip(&gz.join("hands.csv.gz")),
            bytes(&plain.join("hands.csv"))
        );

        // aggregate, plot, ratings on the file; replay --run on the run.
        let (ph, gh) = (plain.join("hands.csv"), packed.join("hands.csv.gz"));
        let agg = |h: &Path| ok(&["aggregate", s(h), "--by", "agent,seat", "--cols", "raw,won"]);
        assert_eq!(agg(&ph), agg(&gh), "{name}: aggregate");
        let (psvg, gsvg) = (
            d.join(format!("{name}-p.svg")),
            d.join(format!("{name}-g.svg")),
        );
        ok(&[
            "plot",
            s(&ph),
            "--x",
            "raw",
            "--kind",
            "hist",
            "--out",
            s(&psvg),
        ]);
        ok(&[
            "plot",
            s(&gh),
            "--x",
            "raw",
            "--kind",
            "hist",
            "--out",
            s(&gsvg),
        ]);
        assert_eq!(
            read(&psvg).replace(s(&ph), "F"),
            read(&gsvg).replace(s(&gh), "F"),
            "{name}: plot"
        );
        assert_eq!(
            ok(&["ratings", s(&ph)]).replace(s(&ph), "F"),
            ok(&["ratings", s(&gh)]).replace(s(&gh), "F"),
            "{name}: ratings of the hands"
        );
        assert_eq!(
            ok(&["replay", "--run", s(&plain), "--game", "1"]),
            ok(&["replay", "--run", s(&packed), "--game", "1"]),
            "{name}: replay --run"
        );
    }
}

#[test]
fn merge_keeps_the_whole_games_of_a_cut_gzip_stream() {
    let d = tmp("rows-gz-cut");
    let args = ["--a", "greedy", "--b", "random", "--hands", "200"];
    let (s0, s1) = (d.join("s0"), d.join("s1"));
    play(&s0, &args, &["--shard", "0/2", "--compress", "gz"]);
    play(&s1, &args, &["--shard", "1/2", "--compress", "gz"]);
    // A run killed mid-write: the stream ends inside a block.
    let gz = s0.join("hands.csv.gz");
    let b = bytes(&gz);
    std::fs::write(&gz, &b[..b.len() / 2]).unwrap();
    let out = d.join("m");
    let (code, stdout, err) = kanaszta(&["merge", s(&s0), s(&s1), "--out", s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("cut gzip stream"), "{err}");
    assert!(err.contains("\"complete\": false"), "{err}");
    assert!(stdout.contains("merged 2 directories"), "{stdout}");
    let rows = read(&out.join("hands.csv"));
    let games = rows.lines().count() - 1;
    assert!(games > 100 && games < 200 * 2, "{games} rows kept");
    // aggregate, which reads a file whole, names the cut stream.
    refused(
        &["aggregate", s(&gz), "--by", "agent", "--cols", "raw"],
        &["hands.csv.gz", "gzip stream is cut short"],
    );
}

/// The `rows` and `compress` fields of `DIR/run.json`, `null` when absent.
fn recorded(dir: &Path) -> (serde_json::Value, serde_json::Value) {
    let m: serde_json::Value =
        serde_json::from_slice(&bytes(&dir.join("run.json"))).expect("run.json is JSON");
    (m["rows"].clone(), m["compress"].clone())
}

#[test]
fn run_json_records_the_rows_and_compression_asked_for_and_merge_keeps_them() {
    let d = tmp("rows-recorded");
    for (name, args) in [RUNS[0], RUNS[2]] {
        let plain = d.join(format!("{name}-plain"));
        play(&plain, args, &[]);
        assert_eq!(
            recorded(&plain),
            (serde_json::Value::Null, serde_json::Value::Null),
            "{name}: a default run records neither (its run.json as before)"
        );
        let gz = d.join(format!("{name}-gz"));
        play(&gz, args, &["--compress", "gz"]);
        assert_eq!(recorded(&gz), (serde_json::Value::Null, "gz".into()));
        let shards: Vec<PathBuf> = (0..2)
            .map(|i| {
                let sd = d.join(format!("{name}-none-{i}"));
                play(&sd, args, &["--rows", "none", "--shard", &format!("{i}/2")]);
                assert_eq!(recorded(&sd), ("none".into(), serde_json::Value::Null));
                sd
            })
            .collect();
        let merged = d.join(format!("{name}-none-merged"));
        ok(&["merge", s(&shards[0]), s(&shards[1]), "--out", s(&merged)]);
        assert_eq!(recorded(&merged), ("none".into(), serde_json::Value::Null));
        let merged_gz = d.join(format!("{name}-gz-merged"));
        ok(&["merge", s(&gz), "--compress", "gz", "--out", s(&merged_gz)]);
        assert_eq!(recorded(&merged_gz), (serde_json::Value::Null, "gz".into()));
        let merged_plain = d.join(format!("{name}-plain-merged"));
        ok(&["merge", s(&gz), "--out", s(&merged_plain)]);
        assert_eq!(
            recorded(&merged_plain),
            (serde_json::Value::Null, serde_json::Value::Null),
            "{name}: merge writes plain rows unless asked, and says so"
        );
    }
}

/// What `merge` of `dirs` into `out` gives with `--threads T`: its exit
/// code, stdout and stderr (`out` written `OUT`), and every file it wrote,
/// by name.
type Merged = (i32, String, String, Vec<(String, Vec<u8>)>);

fn merged(dirs: &[PathBuf], out: &Path, threads: &str, extra: &[&str]) -> Merged {
    let mut args = vec!["merge"];
    args.extend(dirs.iter().map(|d| s(d)));
    args.extend(["--out", s(out), "--threads", threads]);
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = kanaszta(&args);
    let mut files = Vec::new();
    if let Ok(entries) = std::fs::read_dir(out) {
        for e in entries {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_file() && name != ".lock" {
                files.push((name, bytes(&p)));
            }
        }
    }
    files.sort();
    (
        code,
        stdout.replace(s(out), "OUT"),
        stderr.replace(s(out), "OUT"),
        files,
    )
}

/// Merges `dirs` both ways, reading every shard on the merging thread
/// (`--threads 1`) and each file ahead on a thread of its own (the
/// default), into `base-1` and `base-0`: the two give the same exit code,
/// messages and bytes. Returns what they gave.
fn merged_alike(dirs: &[PathBuf], base: &Path, extra: &[&str]) -> Merged {
    let one = merged(dirs, &base.with_extension("1"), "1", extra);
    let ahead = merged(dirs, &base.with_extension("0"), "0", extra);
    assert!(!one.2.contains("panicked"), "{}", one.2);
    assert_eq!(one.0, ahead.0, "exit codes; stderr {} / {}", one.2, ahead.2);
    assert_eq!(one.1, ahead.1, "stdout");
    assert_eq!(one.2, ahead.2, "stderr");
    let names = |m: &Merged| m.3.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&one), names(&ahead), "files written");
    for ((n, a), (_, b)) in one.3.iter().zip(&ahead.3) {
        assert!(a == b, "{}: {n} differs", base.display());
    }
    one
}

#[test]
fn merge_reads_shards_ahead_on_threads_as_on_one() {
    let d = tmp("rows-merge-ahead");
    // Runs of more hand rows a shard than a reading thread hands over at
    // once (256).
    let runs: [(&str, Vec<&str>); 4] = [
        (
            "dh",
            vec!["--a", "greedy", "--b", "random", "--hands", "900"],
        ),
        ("dm", RUNS[1].1.to_vec()),
        (
            "ch",
            vec![
                "--a",
                "greedy",
                "--b",
                "random",
                "--rules",
                "classic-002",
                "--hands",
                "600",
            ],
        ),
        ("cm", RUNS[3].1.to_vec()),
    ];
    let mut plain_shards = Vec::new();
    for (name, args) in &runs {
        for compress in ["none", "gz"] {
            let shards: Vec<PathBuf> = (0..3)
                .map(|i| {
                    let dir = d.join(format!("{name}-{compress}-s{i}"));
                    let shard = format!("{i}/3");
                    play(&dir, args, &["--shard", &shard, "--compress", compress]);
                    dir
                })
                .collect();
            let base = d.join(format!("{name}-{compress}-m"));
            let m = merged_alike(&shards, &base, &[]);
            assert_eq!(m.0, 0, "{}", m.2);
            assert!(m.1.contains("merged 3 directories"), "{}", m.1);
            // Compressed output alike, from either kind of shard.
            let gz = merged_alike(
                &shards,
                &d.join(format!("{name}-{compress}-gz")),
                &["--compress", "gz"],
            );
            assert_eq!(gz.0, 0, "{}", gz.2);
            if *name == "dh" && compress == "none" {
                plain_shards = shards;
            }
        }
    }
    // Damaged shards: the same refusal, or the same notes and rows, read
    // on one thread or ahead, wherever the damage is.
    let hands = |dir: &Path| dir.join("hands.csv");
    let text = read(&hands(&plain_shards[1]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 600, "{} rows", lines.len());
    let bad_cell = |line: usize| {
        let mut l = lines.clone();
        let owned = l[line].replacen(',', ",x", 1);
        l[line] = &owned;
        format!("{}\n", l.join("\n"))
    };
    let swapped = {
        let mut l = lines.clone();
        l.swap(300, 500);
        format!("{}\n", l.join("\n"))
    };
    let doubled = {
        let mut l = lines.clone();
        l.insert(400, lines[400]);
        format!("{}\n", l.join("\n"))
    };
    let cases: [(&str, String); 6] = [
        ("first-row", bad_cell(1)),
        ("late-row", bad_cell(550)),
        ("order", swapped),
        ("doubled", doubled),
        ("cut", text[..text.len() - 40].to_string()),
        ("header-only", format!("{}\n", lines[0])),
    ];
    for (case, damaged) in cases {
        let shards: Vec<PathBuf> = plain_shards
            .iter()
            .enumerate()
            .map(|(i, src)| {
                let dir = d.join(format!("{case}-s{i}"));
                std::fs::create_dir_all(&dir).unwrap();
                for f in std::fs::read_dir(src).unwrap() {
                    let p = f.unwrap().path();
                    if p.is_file() {
                        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
                    }
                }
                if i == 1 {
                    std::fs::write(hands(&dir), &damaged).unwrap();
                }
                dir
            })
            .collect();
        let m = merged_alike(&shards, &d.join(format!("{case}-m")), &[]);
        let expect_refused = matches!(case, "first-row" | "late-row" | "order");
        assert_eq!(m.0, if expect_refused { 1 } else { 0 }, "{case}: {}", m.2);
    }
}
