//! Inputs that once hung, gave silently wrong results or misleading
//! messages. Each is refused with what was wrong and what is accepted (exit
//! status 1), or handled, in bounded time and memory.

mod common;
mod timed;
use common::*;
use timed::run_timed;

fn refused_timed(args: &[&str], needles: &[&str]) {
    let (code, _, err) = run_timed(args, None, 20);
    assert_eq!(code, 1, "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: `{n}` not in: {err}");
    }
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "{err}"
    );
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

// ----- 6: plot on inf / 1e308, and huge --bins --------------------------------

#[test]
fn i6_plot_refuses_non_finite_and_huge_values_in_bounded_time() {
    let d = tmp("i6");
    let svg = d.join("c.svg");
    for v in ["inf", "-inf", "NaN", "1e308", "-1e308"] {
        let f = write(&d, "x.csv", &format!("x,y\n1,2\n{v},3\n"));
        refused_timed(
            &["plot", &f, "--kind", "hist", "--x", "x", "--out", s(&svg)],
            &["row 3", "`x`", "finite number"],
        );
        let f = write(&d, "y.csv", &format!("x,y\na,2\nb,{v}\n"));
        refused_timed(
            &["plot", &f, "--x", "x", "--y", "y", "--out", s(&svg)],
            &["row 3", "`y`", "finite number"],
        );
    }
    // Spans at the accepted limits draw in bounded time.
    let f = write(&d, "big.csv", "x,y\n1,1e100\n2,-1e100\n3,1e100\n");
    ok(&[
        "plot",
        &f,
        "--kind",
        "line",
        "--x",
        "x",
        "--y",
        "y",
        "--out",
        s(&svg),
    ]);
    ok(&["plot", &f, "--kind", "hist", "--x", "y", "--out", s(&svg)]);
    let f = write(&d, "flat.csv", "x,y\n1,1e100\n2,1e100\n");
    ok(&[
        "plot",
        &f,
        "--kind",
        "line",
        "--x",
        "x",
        "--y",
        "y",
        "--out",
        s(&svg),
    ]);
    ok(&["plot", &f, "--kind", "hist", "--x", "y", "--out", s(&svg)]);
    assert!(!read(&svg).contains("NaN"));
}

#[test]
fn i6_i10_bins_are_range_checked() {
    let d = tmp("i6bins");
    let f = write(&d, "x.csv", "x\n1\n2\n");
    let svg = d.join("c.svg");
    for b in ["1000000000", "0", "-3", "1001"] {
        refused_timed(
            &[
                "plot",
                &f,
                "--kind",
                "hist",
                "--x",
                "x",
                "--bins",
                b,
                "--out",
                s(&svg),
            ],
            &["--bins", "from 1 to 1000"],
        );
    }
    ok(&[
        "plot",
        &f,
        "--kind",
        "hist",
        "--x",
        "x",
        "--bins",
        "1000",
        "--out",
        s(&svg),
    ]);
}

// ----- 8: reads are bounded ------------------------------------------------------

#[test]
fn i8_positions_and_rules_files_are_read_with_a_limit() {
    refused_timed(
        &["legal", "/dev/zero"],
        &["more than 4 MiB", "at most 4 MiB"],
    );
    refused_timed(&["score", "/dev/zero"], &["more than 4 MiB"]);
    refused_timed(&["rules", "--rules", "/dev/zero"], &["more than 4 MiB"]);
    let endless = vec![b'y'; 5 << 20];
    let (code, _, err) = run_timed(&["legal", "-"], Some(&endless), 20);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("standard input: more than 4 MiB"), "{err}");
}

/// Game logs, run.json and the summaries `ratings` reads are read with a
/// limit too: a replayed log of /dev/zero, and a run directory whose
/// run.json is 5 MiB, are refused without reading on.
#[test]
fn i8_logs_and_run_files_are_read_with_a_limit() {
    refused_timed(&["replay", "--log", "/dev/zero"], &["more than 4 MiB"]);
    let dir = tmp("i8-run");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("run.json"), vec![b' '; 5 << 20]).unwrap();
    refused_timed(
        &["replay", "--run", dir.to_str().unwrap(), "--game", "0"],
        &["run.json", "more than 4 MiB"],
    );
    let out = tmp("i8-merged");
    refused_timed(
        &[
            "merge",
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &["run.json", "more than 4 MiB"],
    );
    // A run whose hands.csv holds a record of 2 MiB: merge stops at the
    // record, naming it, instead of reading it whole.
    let run = tmp("i8-long");
    let _ = std::fs::remove_dir_all(&run);
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "4",
        "--seed",
        "1",
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let hands = run.join("hands.csv");
    let mut text = std::fs::read(&hands).unwrap();
    text.extend(vec![b'9'; 2 << 20]);
    text.push(b'\n');
    std::fs::write(&hands, text).unwrap();
    let out = tmp("i8-long-merged");
    refused_timed(
        &[
            "merge",
            run.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &["hands.csv", "longer than 1 MiB"],
    );
}

#[test]
fn i8_csv_readers_stop_on_an_endless_record() {
    let svg = tmp("i8").join("c.svg");
    refused_timed(&["aggregate", "/dev/zero"], &["longer than 1 MiB"]);
    refused_timed(
        &[
            "plot",
            "/dev/zero",
            "--x",
            "a",
            "--y",
            "b",
            "--out",
            s(&svg),
        ],
        &["longer than 1 MiB"],
    );
}

// ----- 9: aggregate ----------------------------------------------------------------

#[test]
fn i9_aggregate_refuses_empty_input_and_open_quotes() {
    let d = tmp("i9a");
    refused_timed(
        &["aggregate", &write(&d, "e.csv", "")],
        &["empty", "header line"],
    );
    refused_timed(
        &["aggregate", &write(&d, "q.csv", "a,b\n1,2\n3,\"4\n5,6\n")],
        &["quote opened on line 3", "never closed"],
    );
    let svg = d.join("c.svg");
    refused_timed(
        &[
            "plot",
            &write(&d, "q2.csv", "a,b\nx,\"2\n"),
            "--x",
            "a",
            "--y",
            "b",
            "--out",
            s(&svg),
        ],
        &["quote opened on line 2"],
    );
}

#[test]
fn i9_where_matches_booleans_as_1_and_0() {
    let d = tmp("i9b");
    let f = write(&d, "h.csv", "won,raw\ntrue,10\nfalse,20\ntrue,30\n");
    for w in ["won=1", "won=true"] {
        let out = ok(&["aggregate", &f, "--where", w, "--cols", "raw"]);
        assert!(out.contains("raw,2,20.0000,"), "{w}: {out}");
    }
    let out = ok(&["aggregate", &f, "--where", "won=0", "--cols", "raw"]);
    assert!(out.contains("raw,1,20.0000,"), "{out}");
}

#[test]
fn i9_a_column_with_a_non_number_is_named() {
    let d = tmp("i9c");
    let f = write(&d, "h.csv", "a,x\n1,5\n2,zz\n3,7\n");
    refused(
        &["aggregate", &f, "--cols", "x"],
        &["row 3", "column `x`", "`zz`"],
    );
    // Without --cols it is left out, with a warning saying so.
    let (code, out, err) = kanaszta(&["aggregate", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\na,3,") && !out.contains("\nx,"), "{out}");
    assert!(
        err.contains("column `x` left out") && err.contains("`zz` on line 3"),
        "{err}"
    );
}

#[test]
fn i9_huge_numbers_print_in_a_sane_format() {
    let d = tmp("i9d");
    let f = write(&d, "h.csv", "x\n1e100\n-1e100\n");
    let out = ok(&["aggregate", &f]);
    assert!(out.lines().all(|l| l.len() < 120), "{out}");
    assert!(out.contains(",-1e100,1e100"), "{out}");
    refused(
        &["aggregate", &write(&d, "g.csv", "x\n1e308\n")],
        &["finite number"],
    );
}

// ----- 10: plot ---------------------------------------------------------------------

#[test]
fn i10_duplicate_x_values_are_refused() {
    let d = tmp("i10");
    let f = write(&d, "h.csv", "agent,raw\nrules,10\ngreedy,20\nrules,30\n");
    let svg = d.join("c.svg");
    for kind in ["bar", "line"] {
        refused(
            &[
                "plot",
                &f,
                "--kind",
                kind,
                "--x",
                "agent",
                "--y",
                "raw",
                "--out",
                s(&svg),
            ],
            &["row 4", "`rules`", "first on row 2", "kanaszta aggregate"],
        );
    }
    // One point per x and group is fine.
    let f = write(&d, "g.csv", "agent,tax,raw\nrules,on,10\nrules,off,30\n");
    ok(&[
        "plot",
        &f,
        "--x",
        "agent",
        "--y",
        "raw",
        "--group",
        "tax",
        "--out",
        s(&svg),
    ]);
}

#[test]
fn i10_out_dash_writes_to_standard_output() {
    let d = tmp("i10out");
    let f = write(&d, "h.csv", "agent,raw\nrules,10\ngreedy,20\n");
    let cwd = std::env::current_dir().unwrap();
    let out = ok(&["plot", &f, "--x", "agent", "--y", "raw", "--out", "-"]);
    assert!(
        out.starts_with("<svg") && out.ends_with("</svg>\n"),
        "{out}"
    );
    assert!(!cwd.join("-").exists(), "a file named `-` was written");
}

// ----- 12, 13: rules and counts ---------------------------------------------------

#[test]
fn i12_degenerate_rules_are_refused_or_warned_never_nan() {
    refused(
        &["rules", "--set", "opening=99999999"],
        &["opening", "0 to 1000", "I-11"],
    );
    let o = tmp("i12");
    let (code, out, err) = kanaszta(&[
        "play",
        "--matches",
        "2",
        "--set",
        "target=-5",
        "--out",
        s(&o),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("NaN") && !err.contains("NaN"), "{out}");
    assert!(
        err.contains("warning: target -5") && err.contains("I-20"),
        "{err}"
    );
}

#[test]
fn i13_messages_say_what_was_wrong_and_what_is_accepted() {
    let d = tmp("i13");
    refused(
        &["rules", "--set", "opening=-50"],
        &["`-50`", "opening", "0 to 1000"],
    );
    let r = write(&d, "tax.json", r#"{"tax": true}"#);
    refused(&["rules", "--rules", &r], &["`tax`", "`on` or `off`"]);
    let r = write(&d, "arr.json", "[]");
    refused(
        &["rules", "--rules", &r],
        &["one object of switches", "an array"],
    );
    let pos = r#"{"phase": "draw", "current": 0, "players": [{"hand": "8D 8S 2C 5H"}, {"hand": "4C 5D 9S"}], "pile": "9C 8H 3S"}"#;
    let p = write(&d, "bom.json", &format!("\u{feff}{pos}"));
    ok(&["legal", &p]);
    let p = write(&d, "arr.json", &format!("[{pos}]"));
    refused(&["legal", &p], &["one JSON object", "an array"]);
    let p = write(
        &d,
        "one.json",
        r#"{"phase": "draw", "players": [{"hand": "8D 8S"}]}"#,
    );
    let (code, _, err) = kanaszta(&["legal", &p]);
    assert_eq!(code, 1);
    assert!(
        err.contains("2 to 6 players") && !err.contains("\"players\": 1"),
        "{err}"
    );
    refused(
        &["play", "--hands", "-5"],
        &["`-5`".trim_matches('`'), "at least 1"],
    );
    refused(&["play", "--matches", "-1"], &["at least 1"]);
}
