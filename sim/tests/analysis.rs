//! `kanaszta aggregate` and `kanaszta plot` on the CSVs of a real run, and
//! the quick variant of the results pipeline (`results/make.sh --quick`).

mod common;

use common::{ok, refused, s, tmp};

#[test]
fn aggregate_groups_hand_rows_by_starter() {
    let d = tmp("agg");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "40",
        "--out",
        s(&d),
        "-q",
    ]);
    let hands = d.join("hands.csv");
    let out = ok(&[
        "aggregate",
        s(&hands),
        "--by",
        "starter",
        "--cols",
        "won,raw",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "starter,column,n,mean,mean_lo,mean_hi,sd,share_nonzero,min,max"
    );
    // 40 hands, two rows each: 40 starter rows and 40 others.
    assert!(lines.iter().any(|l| l.starts_with("true,won,40,")), "{out}");
    assert!(
        lines.iter().any(|l| l.starts_with("false,raw,40,")),
        "{out}"
    );
    let f = d.join("agg.csv");
    ok(&[
        "aggregate",
        s(&hands),
        "--where",
        "agent=greedy",
        "--cols",
        "won",
        "--out",
        s(&f),
    ]);
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(
        text.lines().nth(1).unwrap().starts_with("won,40,"),
        "{text}"
    );
    refused(
        &["aggregate", s(&hands), "--by", "nope"],
        &["no column `nope`", "columns: series"],
    );
    refused(
        &["aggregate", s(&hands), "--where", "agent"],
        &["no comparison", "COL<=VALUE"],
    );
    refused(&["aggregate", s(&d.join("missing.csv"))], &["cannot read"]);
    std::fs::write(d.join("bad.csv"), "a,b\n1,2,3\n").unwrap();
    refused(&["aggregate", s(&d.join("bad.csv"))], &["malformed CSV"]);
}

#[test]
fn plot_writes_svg_charts_from_run_csvs() {
    let d = tmp("plot");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "20",
        "--out",
        s(&d),
        "-q",
    ]);
    let svg = d.join("bar.svg");
    ok(&[
        "plot",
        s(&d.join("summary.csv")),
        "--x",
        "agent",
        "--y",
        "hand_win_rate",
        "--lo",
        "hand_win_lo",
        "--hi",
        "hand_win_hi",
        "--title",
        "win rates",
        "--out",
        s(&svg),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("win rates"));
    assert_eq!(text.matches("<rect x=").count(), 2, "one bar per agent");
    let hist = d.join("hist.svg");
    ok(&[
        "plot",
        s(&d.join("hands.csv")),
        "--kind",
        "hist",
        "--x",
        "raw",
        "--group",
        "agent",
        "--out",
        s(&hist),
    ]);
    let text = std::fs::read_to_string(&hist).unwrap();
    assert!(
        text.contains("greedy (n=20)") && text.contains("random (n=20)"),
        "{text}"
    );
    refused(
        &[
            "plot",
            s(&d.join("summary.csv")),
            "--kind",
            "pie",
            "--x",
            "agent",
            "--out",
            s(&svg),
        ],
        &["unknown chart kind `pie`", "bar, line, hist"],
    );
    refused(
        &[
            "plot",
            s(&d.join("summary.csv")),
            "--x",
            "agent",
            "--y",
            "agent",
            "--out",
            s(&svg),
        ],
        &["not a number"],
    );
}

/// A sweep of matches answers the rule-balance questions on screen and in
/// sweep.csv: comebacks as a rate with its interval, lead changes, the
/// tax paid; the counts agree with matches.csv's rows.
#[test]
fn match_sweep_reports_comebacks_lead_changes_and_tax() {
    let d = tmp("balance");
    let out = ok(&[
        "sweep",
        "--a",
        "rules",
        "--b",
        "greedy",
        "--matches",
        "8",
        "--vary",
        "tax=on,off",
        "--threads",
        "1",
        "--out",
        s(&d),
    ]);
    for needle in [
        "lead ch. [95%]",
        "comebacks [95%]",
        "tax A/m [95%]",
        "tax B/m [95%]",
        "trailed by 2,000",
        "sim/CSV.md",
    ] {
        assert!(out.contains(needle), "{needle}:\n{out}");
    }
    let (h, rows) = common::table(&d.join("sweep.csv"));
    let (mh, mrows) = common::table(&d.join("matches.csv"));
    let f = |r: &[String], c: &str| r[common::col(&h, c)].parse::<f64>().unwrap();
    for (series, r) in rows.iter().enumerate() {
        let tax_on = r[common::col(&h, "tax")] == "on";
        let trailed = f(r, "a_trailed") + f(r, "b_trailed");
        let won = f(r, "a_comebacks") + f(r, "b_comebacks");
        let mine: Vec<&Vec<String>> = mrows
            .iter()
            .filter(|m| m[common::col(&mh, "series")] == series.to_string())
            .collect();
        let behind = mine
            .iter()
            .filter(|m| m[common::col(&mh, "max_deficit")].parse::<i32>().unwrap() >= 2000)
            .count();
        assert_eq!(trailed as usize, behind, "series {series}");
        if trailed > 0.0 {
            let rate = f(r, "all_comeback_rate");
            assert!(
                (rate - won / trailed).abs() < 1e-3,
                "{rate} v {won}/{trailed}"
            );
            assert!(f(r, "all_comeback_lo") <= rate && rate <= f(r, "all_comeback_hi"));
        }
        let lead: f64 = mine
            .iter()
            .filter(|m| m[common::col(&mh, "seat")] == "0")
            .map(|m| m[common::col(&mh, "lead_changes")].parse::<f64>().unwrap())
            .sum::<f64>()
            / 8.0;
        assert!(
            (f(r, "mean_lead_changes") - lead).abs() < 0.01,
            "series {series}"
        );
        assert_eq!(f(r, "a_mean_tax_paid") > 0.0, tax_on, "series {series}");
        // The screen's row gives the same means with their intervals.
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("tax={}", r[common::col(&h, "tax")])))
            .unwrap_or_else(|| panic!("no row of series {series}:\n{out}"));
        let three = |m: &str, lo: &str, hi: &str, d: usize| {
            format!("{:.d$} [{:.d$}, {:.d$}]", f(r, m), f(r, lo), f(r, hi))
        };
        let margin = format!(
            "{:+.0} [{:+.0}, {:+.0}]",
            f(r, "mean_diff"),
            f(r, "mean_diff_lo"),
            f(r, "mean_diff_hi")
        );
        for cell in [
            three("mean_lead_changes", "lead_changes_lo", "lead_changes_hi", 2),
            three(
                "a_mean_tax_paid",
                "a_mean_tax_paid_lo",
                "a_mean_tax_paid_hi",
                0,
            ),
            three(
                "b_mean_tax_paid",
                "b_mean_tax_paid_lo",
                "b_mean_tax_paid_hi",
                0,
            ),
            margin,
        ] {
            assert!(line.contains(&cell), "{cell} not in\n{line}");
        }
        assert!(!line.ends_with(' '), "no trailing blanks: {line:?}");
    }
}

/// The words of a shell line: blanks split, single quotes group (the
/// examples use nothing else).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    assert!(!quoted, "an unclosed quote in {line}");
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

/// docs/BALANCE.md's recipe runs as written (on 4 matches a setting, not
/// 500), in one directory, in its order: the sweeps show the comebacks,
/// lead changes and tax with intervals, the aggregates read their rows
/// with `--where` comparisons. Its conditions are quoted, as a shell
/// needs them.
#[test]
fn the_balance_recipe_of_the_docs_runs() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/BALANCE.md"))
        .expect("read docs/BALANCE.md");
    assert!(
        doc.contains("trailed by 2,000"),
        "the doc defines a comeback"
    );
    let d = tmp("balance-doc");
    let mut lines = Vec::new();
    for block in doc.split("```sh\n").skip(1) {
        let body = block.split("```").next().unwrap();
        lines.extend(body.lines().filter(|l| !l.trim().is_empty()));
    }
    assert_eq!(lines.len(), 4, "two sweeps and two aggregates: {lines:?}");
    for line in lines {
        let mut w = shell_words(line);
        assert_eq!(w.remove(0), "kanaszta", "{line}");
        for x in w.iter_mut() {
            if x.contains('<') || x.contains('>') {
                assert!(line.contains(&format!("'{x}'")), "unquoted `{x}` in {line}");
            }
            if x.starts_with("runs/") {
                *x = d.join(&**x).display().to_string();
            }
            if x == "500" {
                *x = "4".into();
            }
        }
        let args: Vec<&str> = w.iter().map(String::as_str).collect();
        let out = ok(&args);
        if args[0] == "sweep" {
            for needle in [
                "comebacks [95%]",
                "lead ch. [95%]",
                "tax A/m [95%]",
                "A − B [95%]",
            ] {
                assert!(out.contains(needle), "{needle} not in:\n{out}");
            }
            // rules v rules on paired deals would count each mirrored
            // match twice, and says so; unpaired it need not.
            assert!(!out.contains("count every match twice"), "{out}");
            if args.contains(&"--unpaired") {
                let dir = d.join("paired").display().to_string();
                let mut paired: Vec<&str> = args.clone();
                paired.retain(|x| *x != "--unpaired");
                let last = paired.len() - 1;
                paired[last] = &dir;
                let out = ok(&paired);
                assert!(out.contains("count every match twice"), "{out}");
                let dir = d.join("play").display().to_string();
                let play = [
                    "play",
                    "--a",
                    "rules",
                    "--b",
                    "rules",
                    "--matches",
                    "4",
                    "--out",
                    &dir,
                ];
                let out = ok(&play);
                assert!(out.contains("counts every match twice"), "{out}");
            }
        } else {
            assert!(out.starts_with("rule_tax,column,n,mean,"), "{line}:\n{out}");
            assert!(
                out.contains("\non,won,") || out.contains("\noff,won,"),
                "{out}"
            );
        }
    }
}
