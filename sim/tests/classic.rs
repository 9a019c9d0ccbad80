//! `kanaszta play|tournament|sweep|merge|bench|rules --rules classic-…` as
//! users run them: rows per seat with the side named (C-20), a summary per
//! agent whose win rates add to one, output identical for one and two
//! threads, matches to 5,000 (C-12, C-24), shards merged into the run
//! played whole, and what a classic run refuses (`--sprt` unpaired).

mod common;

use common::*;
use std::path::Path;

fn play(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "play",
        "--rules",
        "classic-002",
        "--a",
        "greedy",
        "--b",
        "random",
        "--out",
    ];
    args.push(s(dir));
    args.push("--quiet");
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn classic_partnerships_write_rows_per_seat_with_sides() {
    let d = tmp("classic-4p");
    let out = play(&d, &["--set", "players=4", "--hands", "40"]);
    assert!(out.contains("greedy vs random under classic-002"), "{out}");
    assert!(out.contains("side 0 is seats 0 and 2"), "{out}");
    let (h, rows) = table(&d.join("hands.csv"));
    assert_eq!(rows.len(), 160, "four rows per hand");
    let doc = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("CSV.md"));
    for c in &h {
        assert!(
            doc.contains(&format!("`{c}`")),
            "column {c} undocumented in sim/CSV.md"
        );
    }
    let (seat, side, agent, swapped, raw, won) = (
        col(&h, "seat"),
        col(&h, "side"),
        col(&h, "agent"),
        col(&h, "swapped"),
        col(&h, "raw"),
        col(&h, "won"),
    );
    for hand in rows.chunks(4) {
        for r in hand {
            // C-20: partners sit opposite; A holds side 0 unless swapped.
            let p: usize = r[seat].parse().unwrap();
            assert_eq!(r[side], (p % 2).to_string());
            let a_side = if r[swapped] == "true" { "1" } else { "0" };
            let want = if r[side] == a_side {
                "greedy"
            } else {
                "random"
            };
            assert_eq!(r[agent], want);
        }
        // Partners share their side's score and result.
        assert_eq!(hand[0][raw], hand[2][raw]);
        assert_eq!(hand[1][raw], hand[3][raw]);
        assert_eq!(hand[0][won], hand[2][won]);
    }
    let (sh, srows) = table(&d.join("summary.csv"));
    assert_eq!(srows.len(), 2);
    for c in &sh {
        assert!(
            doc.contains(&format!("`{c}`")),
            "summary column {c} undocumented"
        );
    }
    let rate = col(&sh, "hand_win_rate");
    let total: f64 = srows.iter().map(|r| r[rate].parse::<f64>().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-3, "win rates add to one: {total}");
    assert!(!d.join("matches.csv").exists());
    assert!(read(&d.join("run.json")).contains("\"family\": \"classic\""));
}

#[test]
fn classic_output_does_not_depend_on_the_thread_count() {
    for (name, extra) in [
        ("hands", vec!["--set", "players=4", "--hands", "30"]),
        ("three", vec!["--set", "players=3", "--hands", "20"]),
        ("matches", vec!["--set", "players=4", "--matches", "2"]),
    ] {
        let one = tmp(&format!("classic-t1-{name}"));
        let two = tmp(&format!("classic-t2-{name}"));
        let mut e1 = extra.clone();
        e1.extend(["--threads", "1"]);
        let mut e2 = extra.clone();
        e2.extend(["--threads", "2"]);
        play(&one, &e1);
        play(&two, &e2);
        for f in ["hands.csv", "matches.csv", "errors.csv", "summary.csv"] {
            if one.join(f).exists() || two.join(f).exists() {
                assert_eq!(read(&one.join(f)), read(&two.join(f)), "{name}: {f}");
            }
        }
    }
}

#[test]
fn classic_matches_are_played_to_the_target() {
    let d = tmp("classic-matches");
    let out = play(&d, &["--set", "players=2", "--matches", "2"]);
    assert!(out.contains("match wins"), "{out}");
    let (h, rows) = table(&d.join("matches.csv"));
    assert_eq!(rows.len(), 4, "a row per seat per match");
    let (total, won, capped) = (col(&h, "total"), col(&h, "won"), col(&h, "capped"));
    for m in rows.chunks(2) {
        let winner = m.iter().find(|r| r[won] == "true").expect("a winner");
        // C-12, C-24: the winner reached 5,000 unless the match was capped (I-31).
        if winner[capped] == "false" {
            assert!(winner[total].parse::<i32>().unwrap() >= 5000);
        }
    }
    // The hands' rows carry the running totals (C-6's minimum depends on them).
    let (hh, hrows) = table(&d.join("hands.csv"));
    let (before, after, raw) = (
        col(&hh, "total_before"),
        col(&hh, "total_after"),
        col(&hh, "raw"),
    );
    for r in &hrows {
        let n = |i: usize| r[i].parse::<i32>().unwrap();
        assert_eq!(n(before) + n(raw), n(after));
    }
}

#[test]
fn classic_rules_list_every_switch_with_its_values() {
    let out = ok(&["rules", "--rules", "classic-003"]);
    for key in kanaszta_engine::classic::ClassicRules::keys() {
        assert!(out.contains(&format!("{key}=")), "{key} missing:\n{out}");
    }
    assert!(
        out.contains("accepted: `optional` or `compulsory` (C-18)"),
        "{out}"
    );
}

#[test]
fn classic_bench_measures_four_player_hands() {
    let out = ok(&[
        "bench",
        "--rules",
        "classic-002",
        "--set",
        "players=4",
        "--a",
        "greedy",
        "--b",
        "greedy",
        "--hands",
        "20",
        "--threads",
        "1,2",
        "--repeat",
        "1",
        "--csv",
    ]);
    assert!(
        out.contains("greedy vs greedy (classic-002, 4 players)"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 3, "{out}");
}

/// A classic bench times each side's decisions as a decorated one does:
/// one more run of the same hands, every action on the clock of the side
/// that played it (the bench itself checks the timed run's actions against
/// the measured ones), partnerships included.
#[test]
fn classic_bench_times_each_sides_decisions() {
    let args = [
        "bench",
        "--rules",
        "classic-002",
        "--set",
        "players=4",
        "--a",
        "rules",
        "--b",
        "greedy",
        "--hands",
        "6",
        "--threads",
        "1",
        "--repeat",
        "1",
    ];
    let mut csv = args.to_vec();
    csv.push("--csv");
    let out = ok(&csv);
    // The columns after the first (`agents`, quoted: it holds a comma).
    fn after_agents(l: &str) -> Vec<&str> {
        let rest = match l.strip_prefix('"') {
            Some(quoted) => quoted.split_once("\",").expect("a closing quote").1,
            None => l.split_once(',').expect("a comma").1,
        };
        rest.split(',').collect()
    }
    let lines: Vec<Vec<&str>> = out.lines().map(after_agents).collect();
    assert_eq!(lines.len(), 2, "{out}");
    let (h, row) = (&lines[0], &lines[1]);
    let cell = |name: &str| -> u64 {
        let i = h.iter().position(|c| *c == name).expect(name);
        row[i]
            .parse()
            .unwrap_or_else(|_| panic!("{name}: `{}` in {out}", row[i]))
    };
    assert!(cell("a_actions") > 0 && cell("b_actions") > 0, "{out}");
    assert_eq!(
        cell("a_actions") + cell("b_actions"),
        cell("actions"),
        "{out}"
    );
    assert!(cell("a_decisions") > 0 && cell("a_decisions") <= cell("a_actions"));
    let text = ok(&args);
    assert!(
        text.contains("agent time: one more run of the 6 hands on one thread"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("A  rules")),
        "{text}"
    );
}

/// An agent of decorated canasta only, named under classic rules, is
/// refused saying which families it plays and what classic accepts; the
/// same agent plays under decorated rules, and `kanaszta agents` lists
/// the families of every agent.
#[test]
fn an_agent_of_the_other_family_is_refused_naming_its_families() {
    let d = tmp("classic-other-family");
    let o = s(&d);
    let want = [
        "careful plays decorated canasta only, not classic",
        "accepted under classic rules: random, greedy, rules, ismcts, pimc",
    ];
    let classic = [
        "--rules",
        "classic-002",
        "--a",
        "careful:pile=3",
        "--hands",
        "2",
    ];
    refused(&[&["play"][..], &classic, &["--out", o]].concat(), &want);
    refused(&[&["bench"][..], &classic].concat(), &want);
    let agents = ok(&["agents"]);
    let table = &agents[agents.find("the rule families each agent plays:").unwrap()..];
    assert!(table.contains("    careful    decorated\n"), "{table}");
    assert!(
        table.contains("    rules      decorated, classic\n"),
        "{table}"
    );
}

#[test]
fn classic_bad_input_is_refused_with_what_is_accepted() {
    let d = tmp("classic-bad");
    let o = s(&d);
    refused(
        &[
            "play",
            "--rules",
            "classic-002",
            "--a",
            "minimax",
            "--out",
            o,
        ],
        &[
            "unknown classic agent `minimax`",
            "random, greedy, rules, ismcts, pimc",
        ],
    );
    refused(
        &[
            "play",
            "--rules",
            "classic-002",
            "--a",
            "ismcts:iters=0",
            "--out",
            o,
        ],
        &["bad value `0` for ismcts's `iters`", "from 1 to 10000000"],
    );
    refused(
        &[
            "play",
            "--rules",
            "classic-002",
            "--b",
            "pimc:rollout=minimax",
            "--out",
            o,
        ],
        &["pimc's `rollout`", "random|greedy|rules"],
    );
    refused(
        &[
            "play",
            "--rules",
            "classic-002",
            "--set",
            "players=7",
            "--out",
            o,
        ],
        &["players", "from 2 to 6 (C-2)"],
    );
    refused(
        &[
            "play",
            "--rules",
            "classic-002",
            "--set",
            "tax=off",
            "--out",
            o,
        ],
        &["unknown classic rule switch `tax`"],
    );
    refused(
        &[
            "tournament",
            "--rules",
            "classic-002",
            "--agents",
            "random,minimax",
            "--out",
            o,
        ],
        &["unknown classic agent `minimax`", "random, greedy"],
    );
    // A decorated switch in a classic sweep, and a value out of range.
    refused(
        &[
            "sweep",
            "--rules",
            "classic-002",
            "--vary",
            "tax=on,off",
            "--out",
            o,
        ],
        &[
            "unknown classic rule switch `tax`",
            "a switch of decorated canasta",
            "expected one of preset, players",
        ],
    );
    refused(
        &["sweep", "--vary", "jokers=4,6", "--out", o],
        &[
            "unknown rule switch `jokers`",
            "a switch of classic canasta: sweep it under --rules classic-002",
        ],
    );
    refused(
        &[
            "sweep",
            "--rules",
            "classic-002",
            "--vary",
            "players=4,7",
            "--out",
            o,
        ],
        &["--vary players", "from 2 to 6 (C-2)"],
    );
    refused(
        &[
            "play",
            "--rules",
            "classic-002",
            "--sprt",
            "50",
            "--unpaired",
            "--out",
            o,
        ],
        &["--sprt tests paired deals: drop --unpaired"],
    );
}

/// Runs `kanaszta ARGS --rules classic-002 --quiet --out DIR`.
fn classic(dir: &Path, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--rules", "classic-002", "--quiet", "--out", s(dir)]);
    ok(&all)
}

/// The files of a run that exist, by name, with their bytes.
fn files_of(dir: &Path) -> Vec<(String, String)> {
    [
        "hands.csv",
        "matches.csv",
        "errors.csv",
        "summary.csv",
        "tournament.csv",
        "ratings.csv",
        "sweep.csv",
    ]
    .iter()
    .filter(|f| dir.join(f).exists())
    .map(|f| (f.to_string(), read(&dir.join(f))))
    .collect()
}

/// Shards of a classic run in partnerships (C-20) merge into the files of
/// the run played whole, byte for byte, for hands and for matches (C-24).
#[test]
fn classic_shards_merge_into_the_unsharded_run() {
    for (name, unit, n, shards) in [
        ("hands", "--hands", "30", 3),
        ("matches", "--matches", "3", 2),
    ] {
        let d = tmp(&format!("classic-shards-{name}"));
        let run = [
            "play",
            "--set",
            "players=4",
            "--a",
            "rules",
            "--b",
            "greedy",
            unit,
            n,
        ];
        classic(&d.join("whole"), &run);
        let mut dirs = Vec::new();
        for i in 0..shards {
            let dir = d.join(format!("s{i}"));
            let shard = format!("{i}/{shards}");
            let mut args = run.to_vec();
            args.extend(["--shard", &shard]);
            let out = classic(&dir, &args);
            assert!(out.contains(&format!("shard {shard}")), "{out}");
            dirs.push(dir);
        }
        let all = d.join("all");
        let mut args = vec!["merge"];
        args.extend(dirs.iter().rev().map(|p| s(p)));
        args.extend(["--out", s(&all)]);
        let out = ok(&args);
        assert!(out.contains("rules vs greedy under classic-002"), "{out}");
        let whole = files_of(&d.join("whole"));
        assert!(whole.len() >= 3, "{name}: {whole:?}");
        assert_eq!(whole, files_of(&all), "{name}: merged files differ");
        // The shards hold each deal once, both seatings together.
        let rows: usize = dirs
            .iter()
            .map(|p| table(&p.join("hands.csv")).1.len())
            .sum();
        assert_eq!(rows, table(&all.join("hands.csv")).1.len(), "{name}");
    }
}

/// A merge takes the shards of one classic run only, and says why not.
#[test]
fn classic_merge_refuses_other_runs_with_the_reason() {
    let d = tmp("classic-merge-bad");
    let run = |dir: &str, extra: &[&str]| {
        let mut args = vec!["play", "--a", "greedy", "--b", "random", "--hands", "4"];
        args.extend_from_slice(extra);
        classic(&d.join(dir), &args);
    };
    run("s0", &["--set", "players=4", "--shard", "0/2"]);
    run("s1", &["--set", "players=4", "--shard", "1/2"]);
    run("p2", &["--set", "players=2", "--shard", "1/2"]);
    run(
        "s1x",
        &["--set", "players=4", "--shard", "1/2", "--seed", "9"],
    );
    let dec = d.join("dec");
    ok(&[
        "play",
        "--a",
        "greedy",
        "--b",
        "random",
        "--hands",
        "4",
        "--quiet",
        "--out",
        s(&dec),
    ]);
    let p = |x: &str| d.join(x).display().to_string();
    let x = p("x");
    for (dirs, needles) in [
        (
            vec![p("dec"), p("s1")],
            vec![
                "a run of decorated canasta",
                "of classic canasta",
                "of one family",
            ],
        ),
        (vec![p("s0"), p("s0")], vec!["shard 0/2 is given twice"]),
        (
            vec![p("s0"), p("p2")],
            vec!["not shards of one run", "players=4 vs players=2"],
        ),
        (
            vec![p("s0"), p("s1x")],
            vec!["not shards of one run", "seed 1 vs 9"],
        ),
    ] {
        let mut args = vec!["merge"];
        args.extend(dirs.iter().map(String::as_str));
        args.extend(["--out", x.as_str()]);
        refused(&args, &needles);
    }
    // Ratings take runs of one family only, naming both.
    refused(
        &["ratings", &p("s0"), &p("dec")],
        &[
            "a run of classic canasta",
            "of decorated canasta",
            "of one family",
        ],
    );
}

/// Every pair of three agents meets on the same paired deals at a table of
/// four (C-20); the files are the same on one and two threads.
#[test]
fn classic_tournament_meets_every_pair_on_any_thread_count() {
    let d = tmp("classic-tournament");
    let mut outs = Vec::new();
    for t in ["1", "2"] {
        let dir = d.join(t);
        let out = classic(
            &dir,
            &[
                "tournament",
                "--set",
                "players=4",
                "--agents",
                "random,greedy,rules",
                "--hands",
                "12",
                "--threads",
                t,
            ],
        );
        outs.push((dir, out));
    }
    assert_eq!(files_of(&outs[0].0), files_of(&outs[1].0));
    let out = &outs[0].1;
    for want in [
        "tournament: 3 agents, 12 hands per pair",
        "points per hand of the row agent minus the column agent",
        "Bradley–Terry rating",
    ] {
        assert!(out.contains(want), "{want} in\n{out}");
    }
    let (h, rows) = table(&outs[0].0.join("tournament.csv"));
    let (agent, opponent, games) = (col(&h, "agent"), col(&h, "opponent"), col(&h, "games"));
    let mut pairs: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r[agent].clone(), r[opponent].clone()))
        .collect();
    pairs.sort();
    let names = ["greedy", "random", "rules"];
    let mut want = Vec::new();
    for a in names {
        for b in names {
            if a != b {
                want.push((a.to_string(), b.to_string()));
            }
        }
    }
    assert_eq!(pairs, want, "every ordered pair once");
    assert!(rows.iter().all(|r| r[games] == "12"));
    let (_, ratings) = table(&outs[0].0.join("ratings.csv"));
    assert_eq!(ratings.len(), 3);
    // Three series of twelve hands, four rows a hand.
    assert_eq!(table(&outs[0].0.join("hands.csv")).1.len(), 3 * 12 * 4);
}

/// A sweep over a classic switch: a row per value, carrying it, and the
/// rows of hands.csv played under it.
#[test]
fn classic_sweep_rows_carry_the_swept_value() {
    let d = tmp("classic-sweep");
    let out = classic(
        &d,
        &[
            "sweep",
            "--a",
            "rules",
            "--b",
            "greedy",
            "--vary",
            "players=2,4",
            "--hands",
            "6",
        ],
    );
    assert!(
        out.contains("players=2") && out.contains("players=4"),
        "{out}"
    );
    let (h, rows) = table(&d.join("sweep.csv"));
    assert_eq!(h.iter().filter(|c| *c == "players").count(), 1, "{h:?}");
    let (players, hands) = (col(&h, "players"), col(&h, "hands"));
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[players].as_str(), r[hands].as_str()))
        .collect();
    assert_eq!(got, [("2", "6"), ("4", "6")]);
    let (hh, hrows) = table(&d.join("hands.csv"));
    let (series, rule) = (col(&hh, "series"), col(&hh, "rule_players"));
    for (s, p, n) in [("0", "2", 12), ("1", "4", 24)] {
        let of: Vec<_> = hrows.iter().filter(|r| r[series] == s).collect();
        assert_eq!(of.len(), n, "series {s}: a row per seat");
        assert!(
            of.iter().all(|r| r[rule] == p),
            "series {s} under players={p}"
        );
    }
}

/// The club player against greedy in partnerships, as docs/CLASSIC.md runs it:
/// the same files for one and two threads, and rules' side ahead over
/// the paired deals (the interval of the paired difference above zero).
#[test]
fn classic_rules_beats_greedy_in_partnerships_on_any_thread_count() {
    let d = tmp("classic-rules");
    let mut outs = Vec::new();
    for t in ["1", "2"] {
        let dir = d.join(t);
        let out = ok(&[
            "play",
            "--rules",
            "classic-002",
            "--set",
            "players=4",
            "--a",
            "rules",
            "--b",
            "greedy",
            "--hands",
            "1000",
            "--seed",
            "5",
            "--threads",
            t,
            "--quiet",
            "--out",
            s(&dir),
        ]);
        outs.push((dir, out));
    }
    for f in ["hands.csv", "summary.csv"] {
        assert_eq!(read(&outs[0].0.join(f)), read(&outs[1].0.join(f)), "{f}");
    }
    let line = outs[0]
        .1
        .lines()
        .find(|l| l.starts_with("rules − greedy:"))
        .unwrap_or_else(|| panic!("no paired difference in\n{}", outs[0].1));
    // "rules − greedy: +141 [+91, +191] points per hand ..."
    let lo: f64 = line
        .split('[')
        .nth(1)
        .and_then(|x| x.split(',').next())
        .and_then(|x| x.trim().parse().ok())
        .unwrap_or_else(|| panic!("cannot read the interval of `{line}`"));
    assert!(lo > 0.0, "{line}");
}

/// Classic specs take parameters on the command line: the searches play
/// under their canonical spec, and `kanaszta agents` lists their keys.
#[test]
fn classic_searches_take_parameters_on_the_command_line() {
    let d = tmp("classic-search");
    let out = ok(&[
        "play",
        "--rules",
        "classic-002",
        "--a",
        "ismcts:iters=4,rollout=greedy",
        "--b",
        "pimc:worlds=1",
        "--hands",
        "2",
        "--quiet",
        "--out",
        s(&d),
    ]);
    assert!(
        out.contains("ismcts:iters=4,rollout=greedy vs pimc:worlds=1 under classic-002"),
        "{out}"
    );
    let agents = ok(&["agents"]);
    let classic = &agents[agents.find("classic canasta").unwrap()..];
    for needle in [
        "ismcts — information-set MCTS",
        "pimc — perfect-information Monte Carlo",
        "rollout",
        "(default 100; accepts 1..10000000)",
        "open_wilds",
    ] {
        assert!(classic.contains(needle), "`{needle}` not in: {classic}");
    }
}
