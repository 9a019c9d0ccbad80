//! Every command's help teaches by example, and its examples use only
//! options the command accepts; renamed options and columns keep their old
//! names as hidden aliases.

mod common;

use common::{kanaszta, read, s, tmp};

/// The commands `kanaszta --help` lists (without `help`).
fn commands() -> Vec<String> {
    let (code, out, _) = kanaszta(&["--help"]);
    assert_eq!(code, 0);
    let list = out
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands: section");
    list.lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Words of a command line as a shell would split it (double quotes only).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

#[test]
fn every_command_has_an_example_in_its_help() {
    let cmds = commands();
    assert!(cmds.len() >= 16, "{cmds:?}");
    for c in &cmds {
        let (code, out, err) = kanaszta(&[c, "--help"]);
        assert_eq!(code, 0, "{c}: {err}");
        assert!(out.contains("Example"), "{c} --help has no example:\n{out}");
        let examples: Vec<&str> = out
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("kanaszta "))
            .collect();
        assert!(
            examples
                .iter()
                .any(|l| l.starts_with(&format!("kanaszta {c}"))),
            "{c}: no example of itself in\n{out}"
        );
        // Each example is followed by its one-line explanation.
        for l in out.lines().filter(|l| l.trim().starts_with("kanaszta ")) {
            let next = out.lines().skip_while(|x| *x != l).nth(1).unwrap_or("");
            assert!(
                next.starts_with("      ") && !next.trim().is_empty(),
                "{c}: the example `{l}` has no explanation under it"
            );
        }
        // Every option of an example is accepted: clap refuses an unknown
        // one before it reaches --help.
        for e in examples {
            for part in e.split(" | ") {
                let mut w = words(part);
                assert_eq!(w.remove(0), "kanaszta");
                w.push("--help".into());
                let args: Vec<&str> = w.iter().map(String::as_str).collect();
                let (code, _, err) = kanaszta(&args);
                assert_eq!(code, 0, "{c}: the example `{part}` is refused: {err}");
            }
        }
    }
}

/// The commands that read positions point to sim/POSITIONS.md.
#[test]
fn position_commands_link_the_format() {
    for c in ["legal", "check", "score", "apply"] {
        let (_, out, _) = kanaszta(&[c, "--help"]);
        assert!(out.contains("sim/POSITIONS.md"), "{c}:\n{out}");
    }
    let readme = read(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"));
    assert!(readme.contains("sim/POSITIONS.md"));
}

/// `--out` names a directory (play, tournament, sweep, merge); a file is
/// `--file` (aggregate, plot, ratings), which still accept `--out`, unlisted.
#[test]
fn file_options_are_file_and_out_stays_an_alias() {
    let d = tmp("help-file");
    let run = d.join("run");
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "random",
        "--b",
        "greedy",
        "--hands",
        "20",
        "--out",
        s(&run),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let hands = run.join("hands.csv");
    let summary = run.join("summary.csv");
    for (name, args) in [
        ("agg", vec!["aggregate", s(&hands), "--cols", "won"]),
        (
            "plot",
            vec!["plot", s(&summary), "--x", "agent", "--y", "hand_win_rate"],
        ),
        ("ratings", vec!["ratings", s(&run)]),
    ] {
        let (_, help, _) = kanaszta(&[args[0], "--help"]);
        assert!(help.contains("--file <FILE>"), "{name}:\n{help}");
        assert!(
            !help.contains("--out <"),
            "{name}: --out is listed:\n{help}"
        );
        let mut texts = Vec::new();
        for flag in ["--file", "--out"] {
            let f = d.join(format!("{name}{flag}"));
            let mut a = args.clone();
            a.extend([flag, s(&f)]);
            let (code, _, err) = kanaszta(&a);
            assert_eq!(code, 0, "{name} {flag}: {err}");
            texts.push(read(&f));
        }
        assert_eq!(texts[0], texts[1], "{name}: --out is --file");
    }
}

/// aggregate writes `mean_lo`/`mean_hi` like every other interval; plot
/// finds them under their old names `ci95_lo`/`ci95_hi` and the other way
/// round, in files of either age.
#[test]
fn aggregate_intervals_are_lo_hi_and_plot_reads_both_names() {
    let d = tmp("help-cols");
    let csv = d.join("x.csv");
    std::fs::write(&csv, "g,v\na,1\na,3\nb,2\nb,6\n").unwrap();
    let agg = d.join("agg.csv");
    let (code, _, err) = kanaszta(&["aggregate", s(&csv), "--by", "g", "--file", s(&agg)]);
    assert_eq!(code, 0, "{err}");
    let new = read(&agg);
    assert!(new.starts_with("g,column,n,mean,mean_lo,mean_hi,"), "{new}");
    let old = d.join("old.csv");
    std::fs::write(&old, new.replace("mean_lo,mean_hi", "ci95_lo,ci95_hi")).unwrap();
    let mut svgs = Vec::new();
    for (file, lo, hi) in [
        (&agg, "mean_lo", "mean_hi"),
        (&agg, "ci95_lo", "ci95_hi"),
        (&old, "mean_lo", "mean_hi"),
        (&old, "ci95_lo", "ci95_hi"),
    ] {
        let svg = d.join("c.svg");
        let (code, _, err) = kanaszta(&[
            "plot",
            s(file),
            "--x",
            "g",
            "--y",
            "mean",
            "--lo",
            lo,
            "--hi",
            hi,
            "--file",
            s(&svg),
        ]);
        assert_eq!(code, 0, "{lo}: {err}");
        svgs.push(read(&svg));
    }
    assert!(
        svgs.windows(2).all(|w| w[0] == w[1]),
        "one chart whatever the names"
    );
}

/// `replay --unit matches` (as run.json's mode and `ratings --unit` name
/// it) is what `replay --match` was; the old flag stays, unlisted.
#[test]
fn replay_unit_and_its_old_spelling() {
    let base = [
        "replay", "--a", "random", "--b", "random", "--seed", "3", "--game", "1", "--hand", "0",
    ];
    let with = |extra: &[&str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend(extra);
        kanaszta(&a)
    };
    let (code, new, err) = with(&["--unit", "matches"]);
    assert_eq!(code, 0, "{err}");
    let (code, old, err) = with(&["--match"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(new, old);
    let (_, hands, _) = with(&["--unit", "hands"]);
    let (_, plain, _) = with(&[]);
    assert_eq!(hands, plain);
    let (code, _, err) = with(&["--unit", "match"]);
    assert_eq!(code, 1);
    assert!(err.contains("expected hands or matches"), "{err}");
    let (code, _, _) = with(&["--unit", "hands", "--match"]);
    assert_eq!(code, 1, "--match and --unit together are refused");
    let (_, help, _) = kanaszta(&["replay", "--help"]);
    assert!(
        help.contains("--unit <hands|matches>") && !help.contains("--match "),
        "{help}"
    );
}

/// The switch table of docs/STUDY-A-RULE.md has a row for every switch
/// `kanaszta rules` prints, its default value listed first.
#[test]
fn docs_switch_table_lists_every_switch_with_its_default() {
    let (code, out, err) = kanaszta(&["rules"]);
    assert_eq!(code, 0, "{err}");
    let doc =
        read(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/STUDY-A-RULE.md"));
    let table = doc
        .split("## Rule switches")
        .nth(1)
        .expect("a Rule switches section");
    let settings: Vec<(&str, &str)> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.split_once('='))
        .collect();
    assert!(settings.len() > 15, "{out}");
    for (key, default) in settings {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| `{key}` |")))
            .unwrap_or_else(|| panic!("docs/STUDY-A-RULE.md's switch table lacks `{key}`"));
        let values = row.split(" | ").nth(1).unwrap_or("");
        let first = values.split('`').nth(1).unwrap_or("");
        // tax_schedule's default is written as the schedule it is.
        assert_eq!(first, default, "{row}");
    }
}

/// `bench` times hands only, and docs/BENCH.md says so rather than
/// implying a `--matches` it does not have.
#[test]
fn bench_has_no_matches_and_the_docs_say_so() {
    let (code, _, err) = kanaszta(&["bench", "--matches", "10"]);
    assert_ne!(code, 0);
    assert!(err.contains("--matches"), "{err}");
    let (_, help, _) = kanaszta(&["bench", "--help"]);
    assert!(!help.contains("--matches"), "{help}");
    let doc = read(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/BENCH.md"));
    assert!(
        doc.contains("it has no\n`--matches`"),
        "docs/BENCH.md on bench"
    );
}
