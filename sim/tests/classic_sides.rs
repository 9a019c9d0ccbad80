//! Classic partnerships of different players (`--a rules+greedy`: one
//! player per seat of the side, C-20) and the pile's pickups counted by
//! the way C-7, C-13 … C-16 allow them, as users run them.

mod common;

use common::*;
use std::path::Path;

fn play(dir: &Path, a: &str, b: &str, extra: &[&str]) -> String {
    let mut args = vec!["play", "--a", a, "--b", b, "--out", s(dir), "--quiet"];
    args.extend_from_slice(extra);
    ok(&args)
}

fn num(r: &[String], i: usize) -> u32 {
    r[i].parse()
        .unwrap_or_else(|_| panic!("`{}` is not a count", r[i]))
}

#[test]
fn c20_a_side_of_two_players_seats_one_per_seat_and_swaps_whole() {
    let d = tmp("classic-sides-4p");
    let out = play(
        &d,
        "rules+greedy",
        "random",
        &[
            "--rules",
            "classic-002",
            "--set",
            "players=4",
            "--matches",
            "2",
        ],
    );
    assert!(
        out.contains("rules+greedy vs random under classic-002"),
        "{out}"
    );
    assert!(
        out.contains("rules+greedy: rules in seat 0, greedy in seat 2"),
        "{out}"
    );
    assert!(out.contains("seat players of rules+greedy:"), "{out}");
    assert!(
        !out.contains("seat players of random"),
        "a side of one player has no seat lines: {out}"
    );
    let (h, rows) = table(&d.join("hands.csv"));
    let (seat, swapped, agent, opponent, side_agents) = (
        col(&h, "seat"),
        col(&h, "swapped"),
        col(&h, "agent"),
        col(&h, "opponent"),
        col(&h, "side_agents"),
    );
    let mut seen = [false; 2];
    for r in &rows {
        let p: usize = r[seat].parse().unwrap();
        let swapped = r[swapped] == "true";
        // Side A holds the even seats, the odd ones in the paired game;
        // its first seat plays rules, its second greedy.
        if (p % 2 == 1) == swapped {
            assert_eq!(r[side_agents], "rules+greedy");
            assert_eq!(r[opponent], "random");
            assert_eq!(r[agent], if p < 2 { "rules" } else { "greedy" }, "seat {p}");
            seen[usize::from(swapped)] = true;
        } else {
            assert_eq!(r[side_agents], "random");
            assert_eq!(r[opponent], "rules+greedy");
            assert_eq!(r[agent], "random");
        }
    }
    assert_eq!(seen, [true, true], "both seatings played");
    let (mh, mrows) = table(&d.join("matches.csv"));
    let (ma, ms) = (col(&mh, "agent"), col(&mh, "side_agents"));
    assert!(mrows
        .iter()
        .any(|r| r[ma] == "greedy" && r[ms] == "rules+greedy"));
    let (sh, srows) = table(&d.join("summary.csv"));
    let names: Vec<&str> = srows
        .iter()
        .map(|r| r[col(&sh, "agent")].as_str())
        .collect();
    assert_eq!(
        names,
        ["rules+greedy", "random"],
        "one summary row per side"
    );
    // The summary's pickups per seat-hand are the rows' over the side's seats.
    let (pk, sa) = (col(&h, "pickups"), col(&h, "side_agents"));
    let mine: Vec<u32> = rows
        .iter()
        .filter(|r| r[sa] == "rules+greedy")
        .map(|r| num(r, pk))
        .collect();
    let want = mine.iter().sum::<u32>() as f64 / mine.len() as f64;
    let got: f64 = srows[0][col(&sh, "pickups_per_seat_hand")].parse().unwrap();
    assert!((got - want).abs() < 1e-4, "{got} v {want}");
    assert_eq!(srows[0][col(&sh, "seat_hands")], mine.len().to_string());
    assert!(read(&d.join("run.json")).contains("\"rules+greedy\""));
}

#[test]
fn side_specs_name_one_player_or_one_per_seat() {
    let base = ["play", "--rules", "classic-002", "--hands", "2", "--quiet"];
    let out = tmp("classic-sides-refused");
    let with = |extra: &[&'static str]| {
        let mut v = base.to_vec();
        v.extend_from_slice(extra);
        v.extend(["--out", s(&out)]);
        v
    };
    refused(
        &with(&["--set", "players=4", "--a", "rules+greedy+random"]),
        &["--a rules+greedy+random", "names 3 players", "2 seats"],
    );
    refused(
        &with(&["--set", "players=2", "--b", "rules+greedy"]),
        &["--b rules+greedy", "a side is one player"],
    );
    refused(
        &with(&["--set", "players=3", "--a", "rules+greedy"]),
        &["with 3 players", "one player spec"],
    );
    refused(
        &with(&["--set", "players=4", "--a", "rules+"]),
        &["empty player", "rules+greedy"],
    );
    refused(
        &with(&["--set", "players=4", "--a", "rules+bogus"]),
        &["bogus", "random, greedy, rules"],
    );
    // Six players: three seats a side.
    let d = tmp("classic-sides-6p");
    play(
        &d,
        "rules+greedy+random",
        "greedy",
        &[
            "--rules",
            "classic-002",
            "--set",
            "players=6",
            "--hands",
            "2",
        ],
    );
    let (h, rows) = table(&d.join("hands.csv"));
    let agents: Vec<&str> = rows[..6]
        .iter()
        .map(|r| r[col(&h, "agent")].as_str())
        .collect();
    assert_eq!(
        agents,
        ["rules", "greedy", "greedy", "greedy", "random", "greedy"]
    );
    // Decorated canasta has no partnerships.
    for cmd in ["play", "bench"] {
        let (code, _, err) = kanaszta(&[cmd, "--a", "rules+greedy", "--hands", "2"]);
        assert_eq!(code, 1, "{cmd}: {err}");
        assert!(
            err.contains("--a rules+greedy") && err.contains("decorated canasta seats one agent"),
            "{err}"
        );
    }
}

#[test]
fn mixed_sides_do_not_depend_on_the_thread_count() {
    for (name, extra) in [
        ("hands", vec!["--hands", "30"]),
        ("matches", vec!["--matches", "2"]),
    ] {
        let one = tmp(&format!("classic-sides-t1-{name}"));
        let two = tmp(&format!("classic-sides-t2-{name}"));
        let mut args = vec!["--rules", "classic-002", "--set", "players=4"];
        args.extend(extra);
        let out1 = play(
            &one,
            "rules+greedy",
            "greedy+random",
            &[&args[..], &["--threads", "1"]].concat(),
        );
        let out2 = play(
            &two,
            "rules+greedy",
            "greedy+random",
            &[&args[..], &["--threads", "2"]].concat(),
        );
        let strip = |o: &str| {
            o.lines()
                .filter(|l| !l.contains(" in "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(strip(&out1), strip(&out2), "{name}: the report");
        for f in ["hands.csv", "matches.csv", "errors.csv", "summary.csv"] {
            if one.join(f).exists() || two.join(f).exists() {
                assert_eq!(read(&one.join(f)), read(&two.join(f)), "{name}: {f}");
            }
        }
    }
}

/// Every turn begins with a draw, a pickup of one kind or 004's turned
/// card; each preset's pickups are the kinds its rules allow.
#[test]
fn c7_pickups_by_kind_sum_and_follow_each_preset() {
    const KINDS: [&str; 7] = [
        "pile_pair_open",
        "pile_pair_frozen",
        "pile_pair_unmelded",
        "pile_natural_wild",
        "pile_onto_meld",
        "pile_wild_top",
        "pile_black_three",
    ];
    for preset in ["classic-002", "classic-003", "classic-004"] {
        let d = tmp(&format!("classic-pickups-{preset}"));
        play(
            &d,
            "random",
            "greedy",
            &[
                "--rules",
                preset,
                "--set",
                "players=2",
                "--hands",
                "60",
                "--seed",
                "3",
            ],
        );
        let (h, rows) = table(&d.join("hands.csv"));
        let c = |name: &str| col(&h, name);
        let mut total = [0u32; 7];
        for hand in rows.chunks(2) {
            let mut starts = 0;
            for r in hand {
                let kinds: Vec<u32> = KINDS.iter().map(|k| num(r, c(k))).collect();
                let pickups = num(r, c("pickups"));
                assert_eq!(kinds.iter().sum::<u32>(), pickups, "{preset}: kinds add up");
                // A pickup takes the top card at least (C-7: all of the pile).
                assert!(num(r, c("pile_taken_cards")) >= pickups);
                starts += num(r, c("draws")) + pickups + num(r, c("turned"));
                for (t, k) in total.iter_mut().zip(kinds) {
                    *t += k;
                }
            }
            assert_eq!(
                starts,
                num(&hand[0], c("turns")),
                "{preset}: one beginning per turn"
            );
        }
        let got = |k: &str| total[KINDS.iter().position(|x| *x == k).unwrap()];
        assert!(got("pile_pair_open") > 0, "{preset}: {total:?}");
        match preset {
            // C-7 (004): never onto a meld; an unmelded side may take an
            // unfrozen pile; C-13 `under`: no wild on top.
            "classic-004" => {
                assert_eq!(got("pile_onto_meld"), 0);
                assert_eq!(got("pile_pair_unmelded"), 0);
                assert_eq!(got("pile_wild_top"), 0);
            }
            // C-13 `forbidden`.
            "classic-003" => assert_eq!(got("pile_wild_top"), 0),
            // C-15 `blocked`: a black three on top is never taken.
            _ => assert_eq!(got("pile_black_three"), 0),
        }
    }
}

/// C-18: the summary's failed-"yes" cost per side is the hand rows' (every
/// seat row of a side carries its side's points), and the report shows it
/// with four players; random players ask and answer at random, so their
/// sides are charged.
#[test]
fn c18_summary_counts_the_failed_yes_of_each_side() {
    let d = tmp("classic-failed-yes");
    let out = play(
        &d,
        "random",
        "greedy",
        &[
            "--rules",
            "classic-002",
            "--set",
            "players=4",
            "--hands",
            "60",
        ],
    );
    assert!(
        out.contains("failed \"yes\" (C-18), per side and hand:"),
        "{out}"
    );
    let (h, rows) = table(&d.join("hands.csv"));
    let (sh, srows) = table(&d.join("summary.csv"));
    let (agent, fy) = (col(&h, "agent"), col(&h, "failed_yes_points"));
    for (i, name) in ["random", "greedy"].iter().enumerate() {
        assert_eq!(srows[i][col(&sh, "agent")], *name);
        let mine: Vec<i32> = rows
            .iter()
            .filter(|r| r[agent] == *name)
            .map(|r| r[fy].parse().unwrap())
            .collect();
        let n = mine.len() as f64;
        let share = mine.iter().filter(|&&x| x < 0).count() as f64 / n;
        let per = mine.iter().sum::<i32>() as f64 / n;
        let got_share: f64 = srows[i][col(&sh, "failed_yes_share")].parse().unwrap();
        let got_per: f64 = srows[i][col(&sh, "failed_yes_per_hand")].parse().unwrap();
        assert!(
            (got_share - share).abs() < 1e-4,
            "{name}: {got_share} v {share}"
        );
        assert!((got_per - per).abs() < 0.01, "{name}: {got_per} v {per}");
        if *name == "random" {
            assert!(share > 0.0, "random's sides are charged: {out}");
        }
    }
    // Two players: no partnerships, no line.
    let d2 = tmp("classic-failed-yes-2p");
    let out = play(
        &d2,
        "random",
        "greedy",
        &["--rules", "classic-002", "--hands", "2"],
    );
    assert!(!out.contains("failed \"yes\""), "{out}");
}
