//! What a researcher audits: the legends under the tables, one turn
//! convention in replay and the CSVs, replay's end-of-hand score against
//! the rows, the tax-study columns' identities (D-14, D-15, I-17, I-19),
//! the build in run.json, `demo --a/--b`, `rules`' accepted values, and
//! `plot` on the per-seat rows of matches.csv. Small runs of fast agents.

mod common;

use common::*;
use std::collections::HashMap;
use std::path::Path;

/// The rows of a CSV as maps from column to cell.
fn rows_of(p: &Path) -> Vec<HashMap<String, String>> {
    let (h, rows) = table(p);
    rows.into_iter()
        .map(|r| h.iter().cloned().zip(r).collect())
        .collect()
}

fn int(r: &HashMap<String, String>, c: &str) -> i64 {
    r.get(c)
        .unwrap_or_else(|| panic!("no column {c}"))
        .parse()
        .unwrap_or_else(|_| panic!("column {c}: `{}` is not a number", r[c]))
}

/// A matches run of greedy v random with the tax applied to negative
/// hands too (I-17), so that the tax columns have something to show.
fn matches_run(name: &str) -> std::path::PathBuf {
    let d = tmp(name);
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--matches",
        "12",
        "--seed",
        "5",
        "--set",
        "tax_negative=apply",
        "--out",
        s(&d),
        "-q",
    ]);
    d
}

/// The D-14 items of hands.csv that add up to the raw score.
const ITEMS: [&str; 10] = [
    "red_three_points",
    "twin_points",
    "canasta_points",
    "heart_ace_points",
    "going_out_points",
    "from_hand_points",
    "cleared_table_points",
    "melded",
    "cards_in_hand",
    "black_threes_in_hand",
];

/// The legend under play's table explains its abbreviations and says
/// which points are raw; a whole run does not call itself a shard, a
/// shard does.
#[test]
fn play_prints_a_legend_and_a_shard_label_only_on_shards() {
    let d = tmp("legend");
    let out = ok(&["play", "--hands", "20", "--out", s(&d), "-q"]);
    assert!(out.contains("\nlegend:\n"), "{out}");
    for term in ["opens@", "canasta@", "points/hand", "hand wins", "turns"] {
        assert!(
            out.lines()
                .skip_while(|l| *l != "legend:")
                .any(|l| l.trim_start().starts_with(term)),
            "no legend line for {term}:\n{out}"
        );
    }
    assert!(
        out.contains("raw hand score (D-14, before the tax)"),
        "{out}"
    );
    assert!(out.contains("I-19"), "what a hand win counts:\n{out}");
    assert!(!out.contains("shard"), "a whole run is no shard:\n{out}");
    let d2 = tmp("legend-shard");
    let out = ok(&[
        "play",
        "--hands",
        "20",
        "--shard",
        "1/2",
        "--out",
        s(&d2),
        "-q",
    ]);
    assert!(out.contains(", shard 1/2"), "{out}");
    let d3 = tmp("legend-matches");
    let out = ok(&["play", "--matches", "2", "--out", s(&d3), "-q"]);
    assert!(out.contains("match wins"), "{out}");
    assert!(out.contains("taxed, D-15"), "{out}");
}

/// Tournaments, sweeps, ratings and bench print legends too.
#[test]
fn every_table_has_a_legend() {
    let d = tmp("legend-tournament");
    let out = ok(&[
        "tournament",
        "--agents",
        "random,greedy,rules",
        "--hands",
        "6",
        "--out",
        s(&d),
        "-q",
    ]);
    assert!(
        out.contains("legend:") && out.contains("Elo scale"),
        "{out}"
    );
    assert!(!out.contains("shard"), "{out}");
    let out = ok(&["ratings", s(&d)]);
    assert!(out.contains("legend:"), "{out}");
    let d = tmp("legend-sweep");
    let out = ok(&[
        "sweep",
        "--vary",
        "tax=on,off",
        "--matches",
        "2",
        "--out",
        s(&d),
        "-q",
    ]);
    assert!(out.contains("legend:") && out.contains("hands/m"), "{out}");
    assert!(!out.contains("shard"), "{out}");
    let out = ok(&["bench", "--hands", "4", "--repeat", "1", "--threads", "1"]);
    assert!(out.contains("legend:") && out.contains("speedup"), "{out}");
    let csv = ok(&[
        "bench",
        "--hands",
        "4",
        "--repeat",
        "1",
        "--threads",
        "1",
        "--csv",
    ]);
    assert!(!csv.contains("legend"), "machine-readable CSV only:\n{csv}");
}

/// Turns are numbered from 1 in replay and in hands.csv alike (I-24): the
/// last turn replay lists is the row's `turns` when somebody went out, and
/// a seat's `opened_turn` is the first turn after which replay shows its
/// table with a group on it.
#[test]
fn replay_and_the_csv_number_turns_alike() {
    let d = tmp("turns");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "rules",
        "--hands",
        "6",
        "--seed",
        "3",
        "--out",
        s(&d),
        "-q",
    ]);
    let rows = rows_of(&d.join("hands.csv"));
    let mut checked = 0;
    for game in 0..6 {
        let out = ok(&["replay", "--run", s(&d), "--game", &game.to_string()]);
        let turn_of = |l: &str| -> u32 { l.split_whitespace().nth(1).unwrap().parse().unwrap() };
        let listed: Vec<u32> = out
            .lines()
            .filter(|l| l.starts_with("turn "))
            .map(turn_of)
            .collect();
        assert_eq!(listed.first(), Some(&1), "the first turn is turn 1:\n{out}");
        for seat in 0..2 {
            let r = rows
                .iter()
                .find(|r| r["game"] == game.to_string() && r["seat"] == seat.to_string())
                .unwrap();
            if r["end"] != "exhausted" {
                assert_eq!(
                    listed.last().copied(),
                    Some(int(r, "turns") as u32),
                    "game {game}:\n{out}"
                );
                assert!(
                    out.contains(&format!(" at turn {}\n", r["turns"])),
                    "game {game}:\n{out}"
                );
            }
            // The turn of the line before the first table line of this
            // seat that shows a group; a seat that opened in the turn it
            // went out never shows its table mid-hand.
            let mut last_turn = 0;
            let mut opened = None;
            for l in out.lines() {
                if l.starts_with("turn ") {
                    last_turn = turn_of(l);
                } else if let Some(rest) = l.trim_start().strip_prefix(&format!("table P{seat}: "))
                {
                    if !rest.starts_with('-') && opened.is_none() {
                        opened = Some(last_turn);
                    }
                }
            }
            if r["went_out"] == "true" && opened.is_none() && !r["opened_turn"].is_empty() {
                opened = listed.last().copied();
            }
            let want = (!r["opened_turn"].is_empty()).then(|| int(r, "opened_turn") as u32);
            assert_eq!(opened, want, "game {game} seat {seat} opened_turn:\n{out}");
            checked += 1;
        }
    }
    assert_eq!(checked, 12);
}

/// The audit rows at a hand's end (named as hands.csv's columns) are the
/// row's cells, for both seats and every hand of a match, and the items
/// add up to the raw score; the tax rows are the row's tax columns.
#[test]
fn replays_audit_adds_up_to_the_csvs_score() {
    let d = matches_run("audit");
    let rows = rows_of(&d.join("hands.csv"));
    for game in ["0", "1"] {
        let out = ok(&["replay", "--run", s(&d), "--game", game]);
        let mut hand = 0;
        let mut seen: HashMap<String, [i64; 2]> = HashMap::new();
        let check = |seen: &mut HashMap<String, [i64; 2]>, hand: usize| {
            for seat in [0usize, 1] {
                let r = rows
                    .iter()
                    .find(|r| {
                        r["game"] == game
                            && r["hand"] == hand.to_string()
                            && r["seat"] == seat.to_string()
                    })
                    .unwrap();
                let mut sum = 0;
                for item in ITEMS {
                    assert_eq!(
                        seen[item][seat],
                        int(r, item),
                        "{item}, game {game} hand {hand}"
                    );
                    sum += seen[item][seat];
                }
                assert_eq!(sum, int(r, "raw"), "the D-14 items add up to raw");
                for (line, c) in [
                    ("= base", "base"),
                    ("= card_value", "card_value"),
                    ("= raw", "raw"),
                    ("total_before", "total_before"),
                    ("tax_divisor (bracket of total_before)", "tax_divisor"),
                    ("taxed", "taxed"),
                    ("= total_after", "total_after"),
                ] {
                    assert_eq!(seen[line][seat], int(r, c), "{c}, game {game} hand {hand}");
                }
            }
            seen.clear();
        };
        for l in out.lines() {
            let Some(body) = l.strip_prefix("  ") else {
                continue;
            };
            let cells: Vec<&str> = body.split("  ").filter(|c| !c.is_empty()).collect();
            if cells.len() != 3 {
                continue;
            }
            let (Ok(a), Ok(b)) = (cells[1].trim().parse(), cells[2].trim().parse()) else {
                continue;
            };
            let name = cells[0].trim().to_string();
            let last = name == "= total_after";
            seen.insert(name, [a, b]);
            if last {
                check(&mut seen, hand);
                hand += 1;
            }
        }
        let hands = rows.iter().filter(|r| r["game"] == game).count() / 2;
        assert_eq!(hand, hands, "every hand audited:\n{out}");
    }
}

/// hands.csv's new columns: the D-14 items add up to raw, in_hand splits
/// into cards and black threes (I-16), the lead and the opponent's total
/// are the other row's, the taxed winner has the higher taxed score
/// (I-19), the divisor is the bracket's (D-15). matches.csv: total =
/// raw_sum − net_tax always, under tax_negative=apply too (I-17), where
/// tax_paid (positive hands only) need not do that.
#[test]
fn the_tax_study_columns_keep_their_identities() {
    let d = matches_run("identities");
    let hands = rows_of(&d.join("hands.csv"));
    assert!(!hands.is_empty());
    let mut divisors = std::collections::BTreeSet::new();
    let mut black_threes = 0;
    for r in &hands {
        let sum: i64 = ITEMS.iter().map(|c| int(r, c)).sum();
        assert_eq!(sum, int(r, "raw"), "D-14 items add up to raw: {r:?}");
        assert_eq!(
            int(r, "in_hand"),
            int(r, "cards_in_hand") + int(r, "black_threes_in_hand")
        );
        assert_eq!(int(r, "black_threes_in_hand") % 100, 0, "I-16: −100 each");
        assert!(int(r, "cards_in_hand") <= 0 && int(r, "black_threes_in_hand") <= 0);
        black_threes += (int(r, "black_threes_in_hand") < 0) as u32;
        let other = hands
            .iter()
            .find(|o| o["game"] == r["game"] && o["hand"] == r["hand"] && o["seat"] != r["seat"])
            .unwrap();
        assert_eq!(int(r, "opponent_total_before"), int(other, "total_before"));
        assert_eq!(
            int(r, "lead_before"),
            int(r, "total_before") - int(other, "total_before")
        );
        let (mine, theirs) = (int(r, "taxed"), int(other, "taxed"));
        let want = if mine > theirs {
            r["seat"].clone()
        } else if mine < theirs {
            other["seat"].clone()
        } else {
            String::new()
        };
        assert_eq!(r["taxed_winner"], want);
        assert_eq!(r["won_taxed"] == "true", r["taxed_winner"] == r["seat"]);
        // D-15 brackets: below 5,000 unchanged, then 2, 4, 10.
        let before = int(r, "total_before");
        let bracket = match before {
            ..5000 => 1,
            5000..7000 => 2,
            7000..9000 => 4,
            _ => 10,
        };
        assert_eq!(int(r, "tax_divisor"), bracket, "{r:?}");
        if bracket == 1 {
            assert_eq!(int(r, "taxed"), int(r, "raw"));
        }
        divisors.insert(bracket);
    }
    assert!(
        divisors.len() > 1,
        "the run reaches a taxed bracket: {divisors:?}"
    );
    assert!(
        black_threes > 0,
        "some hand ends with a black three in hand"
    );
    let matches = rows_of(&d.join("matches.csv"));
    assert_eq!(matches.len(), 24);
    for m in &matches {
        assert_eq!(
            int(m, "total"),
            int(m, "raw_sum") - int(m, "net_tax"),
            "total = raw_sum − net_tax: {m:?}"
        );
        assert!(int(m, "net_tax") <= int(m, "tax_paid"));
        let mine: Vec<_> = hands
            .iter()
            .filter(|h| h["game"] == m["game"] && h["seat"] == m["seat"])
            .collect();
        assert_eq!(
            int(m, "taxed_hand_wins"),
            mine.iter().filter(|h| h["won_taxed"] == "true").count() as i64
        );
        let net: i64 = mine.iter().map(|h| int(h, "raw") - int(h, "taxed")).sum();
        assert_eq!(int(m, "net_tax"), net);
    }
}

/// Files written before the columns at the end of the rows merge: the new
/// columns stay empty, the turn columns come onto today's scale (from 1),
/// every other cell is the same.
#[test]
fn merge_reads_files_written_before_the_new_columns() {
    let d = tmp("legacy");
    ok(&["play", "--hands", "8", "--seed", "4", "--out", s(&d), "-q"]);
    let (h, rows) = table(&d.join("hands.csv"));
    let keep: Vec<usize> = (0..h.len())
        .filter(|&i| {
            h[i] == "frozen_turns"
                || !h[..i].contains(&"frozen_turns".to_string())
                || h[i].starts_with("rule_")
        })
        .collect();
    let turn_cols = [col(&h, "opened_turn"), col(&h, "first_canasta_turn")];
    let old = tmp("legacy-old");
    std::fs::copy(d.join("run.json"), old.join("run.json")).unwrap();
    std::fs::copy(d.join("errors.csv"), old.join("errors.csv")).unwrap();
    let mut text = keep
        .iter()
        .map(|&i| h[i].clone())
        .collect::<Vec<_>>()
        .join(",")
        + "\n";
    for r in &rows {
        let cells: Vec<String> = keep
            .iter()
            .map(|&i| {
                if turn_cols.contains(&i) && !r[i].is_empty() {
                    (r[i].parse::<u32>().unwrap() - 1).to_string()
                } else {
                    r[i].clone()
                }
            })
            .collect();
        let quoted: Vec<String> = cells
            .iter()
            .map(|c| {
                if c.contains(',') {
                    format!("\"{c}\"")
                } else {
                    c.clone()
                }
            })
            .collect();
        text += &(quoted.join(",") + "\n");
    }
    assert!(keep.len() < h.len(), "the old file has fewer columns");
    std::fs::write(old.join("hands.csv"), text).unwrap();
    let merged = tmp("legacy-merged");
    std::fs::remove_dir_all(&merged).unwrap();
    ok(&["merge", s(&old), "--out", s(&merged)]);
    let (h2, rows2) = table(&merged.join("hands.csv"));
    assert_eq!(h2, h);
    for (a, b) in rows.iter().zip(&rows2) {
        for i in 0..h.len() {
            if keep.contains(&i) {
                assert_eq!(a[i], b[i], "column {}", h[i]);
            } else {
                assert_eq!(b[i], "", "column {} of an old file stays empty", h[i]);
            }
        }
    }
    assert_eq!(
        read(&merged.join("summary.csv")),
        read(&d.join("summary.csv"))
    );
}

/// run.json names the build: the package version and the git commit
/// (or `unknown`), and whether the sources were dirty.
#[test]
fn run_json_has_the_version_and_the_commit() {
    let d = tmp("build");
    ok(&["play", "--hands", "2", "--out", s(&d), "-q"]);
    let m: serde_json::Value = serde_json::from_str(&read(&d.join("run.json"))).unwrap();
    assert_eq!(m["version"], env!("CARGO_PKG_VERSION"));
    let commit = m["commit"].as_str().unwrap();
    assert!(
        commit == "unknown"
            || (commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{commit}"
    );
    assert!(["true", "false", "unknown"].contains(&m["dirty"].as_str().unwrap()));
}

/// demo takes agent specs like play: the seats are named, bad specs are
/// refused, and without them both seats are random as before.
#[test]
fn demo_takes_agents() {
    let out = ok(&["demo", "--a", "rules", "--b", "greedy", "--seed", "3"]);
    assert!(
        out.contains("P0 rules") && out.contains("P1 greedy"),
        "{out}"
    );
    assert!(out.contains("at the end of the hand:"), "{out}");
    assert!(out.contains("= raw"), "{out}");
    let plain = ok(&["demo", "--seed", "3"]);
    assert!(
        plain.starts_with(
            "kanaszta demo: seed 3, 2 players, decorated-2003-02: P0 random, P1 random"
        ),
        "{plain}"
    );
    assert_eq!(
        plain,
        ok(&["demo", "--seed", "3", "--a", "random", "--b", "random"])
    );
    refused(
        &["demo", "--a", "nobody"],
        &["unknown agent `nobody`", "greedy"],
    );
}

/// replay --log names each seat once ("P1", not "P1 P1").
#[test]
fn replay_of_a_log_names_each_seat_once() {
    let d = tmp("log");
    let log = d.join("g.json");
    ok(&["replay", "--game", "1", "--save-log", s(&log)]);
    let out = ok(&["replay", "--log", s(&log)]);
    assert!(!out.contains("P1 P1") && !out.contains("P0 P0"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("turn   1  P0  ")),
        "{out}"
    );
}

/// `kanaszta rules` shows each switch's value and what it accepts.
#[test]
fn rules_shows_the_accepted_values() {
    let out = ok(&["rules", "--set", "tax=off"]);
    let tax = out.lines().find(|l| l.starts_with("tax=off")).unwrap();
    assert!(tax.contains("accepted: `on` or `off` (I-18)"), "{tax}");
    let negative = out
        .lines()
        .find(|l| l.starts_with("tax_negative="))
        .unwrap();
    assert!(
        negative.contains("`exempt` or `apply` (I-17)"),
        "{negative}"
    );
}

/// plot says what it wrote, and a histogram of a column of the match
/// (two rows per match in matches.csv) counts each match once.
#[test]
fn plot_reports_and_counts_a_match_once() {
    let d = matches_run("plot");
    let svg = d.join("hands.svg");
    let m = d.join("matches.csv");
    let out = ok(&[
        "plot",
        s(&m),
        "--kind",
        "hist",
        "--x",
        "hands",
        "--out",
        s(&svg),
    ]);
    assert!(
        out.starts_with(&format!("wrote {}", svg.display())),
        "{out}"
    );
    assert!(out.contains("12 rows, counted once per game"), "{out}");
    assert!(read(&svg).contains("(n=12)"));
    // A per-seat column counts every row.
    let out = ok(&[
        "plot",
        s(&m),
        "--kind",
        "hist",
        "--x",
        "total",
        "--out",
        s(&svg),
    ]);
    assert!(out.contains("(24 rows)"), "{out}");
    assert!(read(&svg).contains("(n=24)"));
}
