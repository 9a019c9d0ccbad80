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

// ----- rule switches: empty, twice, the same setting twice ------------------

#[test]
fn an_empty_tax_schedule_and_a_switch_given_twice_are_refused() {
    let d = tmp("rules-empty-twice");
    let out = d.join("run");
    for set in ["tax_schedule=", "tax_schedule=,", "tax_schedule= , "] {
        refused(
            &["play", "--hands", "2", "-q", "--set", set, "--out", s(&out)],
            &[
                "for `tax_schedule`: an empty tax schedule taxes nothing",
                "5000:2,7000:4,9000:10",
                "for no tax, set tax=off",
            ],
        );
    }
    assert!(!out.join("run.json").exists(), "nothing run");
    let f = write(
        &d,
        "twice.json",
        r#"{"target": 5000, "opening": 90, "target": 3000}"#,
    );
    refused(
        &[
            "play",
            "--hands",
            "2",
            "-q",
            "--rules",
            &f,
            "--out",
            s(&out),
        ],
        &[
            "twice.json",
            "`target` is given twice; give each switch once",
        ],
    );
    refused(&["rules", "--rules", &f], &["`target` is given twice"]);
    // Once each, the file is read as before.
    let f = write(&d, "once.json", r#"{"target": 3000, "opening": 90}"#);
    let text = ok(&["rules", "--rules", &f]);
    assert!(text.contains("target=3000"), "{text}");
}

#[test]
fn sweep_refuses_values_that_give_the_same_rules() {
    let d = tmp("sweep-same");
    let out = s(&d);
    refused(
        &[
            "sweep",
            "--vary",
            "tax=on,on",
            "--hands",
            "2",
            "-q",
            "--out",
            out,
        ],
        &[
            "bad --vary `tax=on,on`: tax=on gives the same rules as tax=on",
            "list each setting once, e.g. --vary tax=on",
        ],
    );
    refused(
        &[
            "sweep",
            "--vary",
            "opening=50,050,90",
            "--hands",
            "2",
            "-q",
            "--out",
            out,
        ],
        &[
            "opening=050 gives the same rules as opening=50",
            "e.g. --vary opening=50,90",
        ],
    );
    refused(
        &[
            "sweep",
            "--rules",
            "classic-002",
            "--vary",
            "players=2,3,2",
            "--hands",
            "2",
            "-q",
            "--out",
            out,
        ],
        &[
            "players=2 gives the same rules as players=2",
            "e.g. --vary players=2,3",
        ],
    );
}

// ----- an empty shard --------------------------------------------------------

#[test]
fn a_shard_of_no_deals_says_it_plays_nothing() {
    let d = tmp("empty-shard");
    let (code, out, err) = kanaszta(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "4",
        "--shard",
        "3/4",
        "-q",
        "--out",
        s(&d),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "warning: shard 3/4 holds none of this run's deals: 4 hands, paired, are 2 deals (0 to 1)"
        ) && err.contains("nothing is played"),
        "{err}"
    );
    assert!(out.contains("0 games, 0 hands"), "{out}");
    // A shard that holds deals says nothing of the kind.
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "4",
        "--shard",
        "1/4",
        "-q",
        "--out",
        s(&d.join("one")),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("holds none"), "{err}");
}

// ----- messages that named the wrong thing -----------------------------------

#[test]
fn rules_messages_name_both_families_and_the_file_error() {
    let d = tmp("rules-messages");
    let out = d.join("run");
    let play = |rules: &str, needles: &[&str]| {
        refused(
            &[
                "play",
                "--hands",
                "2",
                "-q",
                "--rules",
                rules,
                "--out",
                s(&out),
            ],
            needles,
        )
    };
    play(
        "nope",
        &[
            "unknown rules preset `nope`",
            "decorated-2003-02, decorated-2003-01 (decorated canasta)",
            "classic-002, classic-003, classic-004 (classic canasta",
            "or a path to a rules JSON file",
        ],
    );
    let f = write(
        &d,
        "classic.json",
        r#"{"preset": "classic-004", "players": 4}"#,
    );
    play(
        &f,
        &[
            "classic canasta rules",
            "a rules JSON file holds the switches of decorated canasta",
            "--rules classic-004 --set players=4",
        ],
    );
    let f = write(&d, "family.json", r#"{"family": "classic"}"#);
    play(&f, &["classic canasta rules"]);
    assert!(!out.join("run.json").exists());
    // A symlink loop is a file that cannot be read, not a preset.
    let (a, b) = (d.join("loop1"), d.join("loop2"));
    let _ = std::fs::remove_file(&a);
    let _ = std::fs::remove_file(&b);
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    play(
        s(&a),
        &["cannot read rules file", "loop1", "symbolic links"],
    );
    // Classic switches state their bounds.
    refused(
        &[
            "play",
            "--rules",
            "classic-002",
            "--set",
            "target=99999999",
            "--hands",
            "2",
            "-q",
            "--out",
            s(&out),
        ],
        &[
            "bad value `99999999` for `target`",
            "from -1000000 to 1000000",
        ],
    );
}

#[test]
fn positions_take_family_decorated_and_name_a_classic_one() {
    let d = tmp("position-family");
    let pos = r#""phase": "draw", "current": 0, "players": [{"hand": "8D 8S 2C 5H"}, {"hand": "4C 5D 9S"}], "pile": "9C 8H 3S""#;
    let f = write(
        &d,
        "dec.json",
        &format!(r#"{{"family": "decorated", {pos}}}"#),
    );
    let plain = write(&d, "plain.json", &format!("{{{pos}}}"));
    assert_eq!(ok(&["legal", &f]), ok(&["legal", &plain]));
    // `human` plays a classic position too: named classic by `family` or
    // by `rules`, it is checked as one (this one's mover is player 1, so
    // player 0 cannot be the one to act, C-18).
    for (name, head) in [
        ("classic.json", r#""family": "classic""#),
        ("crules.json", r#""rules": "classic-003""#),
    ] {
        let f = write(&d, name, &format!("{{{head}, {pos}}}"));
        refused(
            &["human", "--position", &f],
            &[
                name,
                "current: player 0, but in phase Draw the player to act is 1",
                "C-18",
            ],
        );
    }
    let f = write(
        &d,
        "drules.json",
        &format!(r#"{{"rules": "decorated-2003-01", {pos}}}"#),
    );
    ok(&["legal", &f]);
}

#[test]
fn negative_numbers_and_shard_bounds_are_named() {
    let d = tmp("negative");
    let out = s(&d);
    for (opt, shown) in [("--threads", "--threads <T>"), ("--seed", "--seed <SEED>")] {
        refused(
            &["play", "--hands", "2", "-q", opt, "-1", "--out", out],
            &[shown, "a negative number: expected a whole number from 0"],
        );
    }
    refused(
        &["replay", "--game", "-1"],
        &[
            "--game <G>",
            "a negative number: expected a whole number from 0",
        ],
    );
    refused(
        &["bench", "--seed", "-1"],
        &["--seed <SEED>", "a negative number"],
    );
    refused(
        &[
            "play",
            "--hands",
            "2",
            "-q",
            "--shard",
            "5/4294967296",
            "--out",
            out,
        ],
        &[
            "N is 4294967296, above the most shards, 4294967295",
            "N from 1 to 4294967295",
        ],
    );
    refused(
        &["play", "--hands", "2", "-q", "--shard", "5/4", "--out", out],
        &["shard 5 of 4", "here I from 0 to 3"],
    );
}

#[test]
fn long_arguments_are_not_echoed_whole() {
    let d = tmp("long-echo");
    let long = "x".repeat(100_000);
    let pos = write(
        &d,
        "p.json",
        r#"{"phase": "draw", "current": 0, "players": [{"hand": "8D 8S 2C 5H"}, {"hand": "4C 5D 9S"}], "pile": "9C 8H 3S"}"#,
    );
    let spec = format!("greedy:{long}");
    let lay = format!("lay {long}");
    for args in [
        vec!["play", "--a", &long, "--hands", "2", "-q", "--out", s(&d)],
        vec!["play", "--a", &spec, "--hands", "2", "-q", "--out", s(&d)],
        vec!["apply", &pos, &long],
        vec!["check", &pos, &lay],
    ] {
        let (code, _, err) = kanaszta(&args);
        assert_eq!(code, 1, "{err:.300}");
        assert!(err.len() < 2_000, "{} bytes: {err:.300}", err.len());
        assert!(err.contains("(100000 characters)"), "{err}");
    }
}
