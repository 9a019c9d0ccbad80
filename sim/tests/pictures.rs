//! `replay --html` and `report --html`: the pages are self-contained, their
//! embedded JSON parses, has one step per action of the game as hands.csv
//! counts them and ends with the score hands.csv records (D-14, C-23).

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

/// The page's embedded data, after checking that the page names no URL
/// (nothing is fetched from the network).
fn page_data(path: &Path) -> Value {
    let html = read(path);
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", path.display());
    for url in ["http:", "https:", "//", "src=", "href=", "@import", "url("] {
        assert!(!html.contains(url), "{} contains {url}", path.display());
    }
    kanaszta::html::embedded_json(&html).expect("the embedded JSON parses")
}

/// hands.csv's rows of game `game`: for each hand, seat by seat, the
/// columns asked for.
fn hand_rows(dir: &Path, game: &str, cols: &[&str]) -> Vec<Vec<Vec<String>>> {
    let (h, rows) = table(&dir.join("hands.csv"));
    let (g, hand, seat) = (col(&h, "game"), col(&h, "hand"), col(&h, "seat"));
    let mut out: Vec<Vec<Vec<String>>> = Vec::new();
    for r in rows.iter().filter(|r| r[g] == game && r[0] == "0") {
        let i: usize = r[hand].parse().unwrap();
        let p: usize = r[seat].parse().unwrap();
        if out.len() <= i {
            out.resize(i + 1, Vec::new());
        }
        if out[i].len() <= p {
            out[i].resize(p + 1, Vec::new());
        }
        out[i][p] = cols.iter().map(|c| r[col(&h, c)].clone()).collect();
    }
    out
}

/// The values of the end row `key` of a hand's page data.
fn end_row(hand: &Value, key: &str) -> Vec<i64> {
    let end = &hand["end"];
    let rows = end["rows"]
        .as_array()
        .unwrap()
        .iter()
        .chain(end["tax_rows"].as_array().unwrap());
    for r in rows {
        if r["key"] == key {
            return r["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
        }
    }
    panic!("no end row {key} in {end}");
}

/// Checks a replay page of game `game` of the run in `dir` against its
/// hands.csv: a step per action, the raw score (and in matches the total
/// after) of every hand, seat by seat (classic: each seat's side's).
fn check_replay(dir: &Path, game: &str, page: &Path, family: &str) {
    let data = page_data(page);
    assert_eq!(data["family"], family);
    // The score's column of a seat: decorated, the seat's; classic, its side's.
    let column = if family == "classic" { "side" } else { "seat" };
    let rows = hand_rows(dir, game, &["actions", "raw", "total_after", column]);
    let hands = data["hands"].as_array().unwrap();
    assert_eq!(hands.len(), rows.len(), "one hand a hands.csv hand");
    for (i, (hand, seats)) in hands.iter().zip(&rows).enumerate() {
        let steps = hand["steps"].as_array().unwrap();
        assert_eq!(
            steps.len().to_string(),
            seats[0][0],
            "hand {i}: one step per action"
        );
        let raw = end_row(hand, "raw");
        // Single decorated hands are not taxed: no running totals.
        let totals = hands.len() > 1 || family == "classic";
        let after = if totals {
            end_row(hand, "total_after")
        } else {
            Vec::new()
        };
        for (p, r) in seats.iter().enumerate() {
            let c = r[3].parse::<usize>().unwrap();
            assert_eq!(raw[c].to_string(), r[1], "hand {i} seat {p} raw");
            if totals {
                assert_eq!(after[c].to_string(), r[2], "hand {i} seat {p} total_after");
            }
        }
        // Every snapshot holds a hand a seat; the last has none to move.
        let last = &steps.last().unwrap()["state"];
        assert_eq!(last["hands"].as_array().unwrap().len(), seats.len());
        assert!(last["to_move"].is_null(), "hand {i} ends");
    }
}

#[test]
fn replay_html_draws_decorated_matches_and_hands_step_by_step() {
    let d = tmp("pictures-decorated");
    let run = d.join("run");
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "rules",
        "--b",
        "greedy",
        "--matches",
        "2",
        "--set",
        "target=3000",
        "--threads",
        "1",
        "-q",
        "--out",
        s(&run),
    ]);
    assert_eq!(code, 0, "{err}");
    let page = d.join("m.html");
    let (code, out, err) = kanaszta(&[
        "replay",
        "--run",
        s(&run),
        "--game",
        "1",
        "--html",
        s(&page),
        "--seat",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "the page instead of the text: {out}");
    check_replay(&run, "1", &page, "decorated");
    assert_eq!(page_data(&page)["seat"], 1);
    // A single hand (no tax): the raw score is the hand's.
    let hands = d.join("hands");
    let (code, _, err) = kanaszta(&[
        "play",
        "--a",
        "rules",
        "--b",
        "random",
        "--hands",
        "2",
        "--threads",
        "1",
        "-q",
        "--out",
        s(&hands),
    ]);
    assert_eq!(code, 0, "{err}");
    let page = d.join("h.html");
    let (code, _, err) = kanaszta(&["replay", "--run", s(&hands), "--html", s(&page)]);
    assert_eq!(code, 0, "{err}");
    check_replay(&hands, "0", &page, "decorated");
    assert!(page_data(&page)["seat"].is_null());
    // A seat the game does not have is refused, and no page written.
    let bad = d.join("bad.html");
    let (code, _, err) = kanaszta(&[
        "replay",
        "--run",
        s(&hands),
        "--html",
        s(&bad),
        "--seat",
        "2",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--seat 2: the game has seats 0 to 1"), "{err}");
    assert!(!bad.exists());
}

/// Where a search agent left its policy, the page notes it under the
/// action, as the text replay does.
#[test]
fn replay_html_notes_where_a_search_left_its_policy() {
    let d = tmp("pictures-search");
    let page = d.join("s.html");
    let flags = [
        "replay",
        "--a",
        "ismcts:iters=50,race=64,focus=2",
        "--b",
        "rules",
        "--seed",
        "1",
    ];
    let (code, text, err) = kanaszta(&flags);
    assert_eq!(code, 0, "{err}");
    let mut with_page = flags.to_vec();
    with_page.extend(["--html", s(&page)]);
    let (code, _, err) = kanaszta(&with_page);
    assert_eq!(code, 0, "{err}");
    let want: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("search:"))
        .collect();
    assert!(!want.is_empty(), "the seed's game has departures:\n{text}");
    let data = page_data(&page);
    let notes: Vec<String> = data["hands"][0]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|st| st["notes"].as_array().unwrap().clone())
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    assert_eq!(notes, want);
}

#[test]
fn replay_html_draws_classic_games_of_two_and_four_players() {
    let d = tmp("pictures-classic");
    for players in ["2", "4"] {
        let run = d.join(format!("run{players}"));
        let set = format!("players={players}");
        let (code, _, err) = kanaszta(&[
            "play",
            "--rules",
            "classic-002",
            "--set",
            &set,
            "--a",
            "rules",
            "--b",
            "greedy",
            "--hands",
            "2",
            "--threads",
            "1",
            "-q",
            "--out",
            s(&run),
        ]);
        assert_eq!(code, 0, "{err}");
        let page = d.join(format!("c{players}.html"));
        let (code, _, err) = kanaszta(&[
            "replay",
            "--run",
            s(&run),
            "--game",
            "1",
            "--html",
            s(&page),
        ]);
        assert_eq!(code, 0, "{err}");
        check_replay(&run, "1", &page, "classic");
        let data = page_data(&page);
        assert_eq!(data["seats"].as_array().unwrap().len().to_string(), players);
        assert_eq!(
            data["table_labels"].as_array().unwrap().len(),
            2,
            "two sides"
        );
    }
}

#[test]
fn report_html_draws_a_run_of_either_family() {
    let d = tmp("pictures-report");
    let runs = [
        (
            "decorated",
            vec![
                "play",
                "--a",
                "rules",
                "--b",
                "greedy",
                "--matches",
                "2",
                "--set",
                "target=3000",
            ],
        ),
        (
            "classic",
            vec![
                "tournament",
                "--rules",
                "classic-002",
                "--agents",
                "random,greedy,rules",
                "--hands",
                "2",
            ],
        ),
    ];
    for (family, args) in runs {
        let run = d.join(family);
        let mut a = args.clone();
        a.extend(["--threads", "1", "-q", "--out", s(&run)]);
        let (code, _, err) = kanaszta(&a);
        assert_eq!(code, 0, "{err}");
        let page = d.join(format!("{family}.html"));
        let (code, _, err) = kanaszta(&["report", s(&run), "--html", s(&page)]);
        assert_eq!(code, 0, "{err}");
        let data = page_data(&page);
        assert_eq!(data["family"], family);
        assert_eq!(data["run"]["seed"], 1);
        let (_, summary) = table(&run.join("summary.csv"));
        assert_eq!(data["sides"].as_array().unwrap().len(), summary.len());
        for side in data["sides"].as_array().unwrap() {
            let w = &side["hand_win"];
            let (v, lo, hi) = (
                w["v"].as_f64().unwrap(),
                w["lo"].as_f64().unwrap(),
                w["hi"].as_f64().unwrap(),
            );
            assert!(lo <= v && v <= hi, "{w}");
        }
        let ends: u64 = data["ends"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        let hands: f64 = data["sides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["hands"].as_f64().unwrap())
            .sum();
        assert_eq!(
            ends as f64 * 2.0,
            hands,
            "every hand counted once, by its seat 0"
        );
        if family == "decorated" {
            let lengths: u64 = data["match_lengths"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x[1].as_u64().unwrap())
                .sum();
            assert_eq!(lengths, 2, "one length a match");
            assert_eq!(
                data["tax_paid"].as_array().unwrap().len(),
                4,
                "a tax a seat a match"
            );
        } else {
            assert_eq!(data["matches"], false);
        }
    }
    let (code, _, err) = kanaszta(&["report", s(&d.join("none")), "--html", s(&d.join("x.html"))]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("run.json") && err.contains("expected a run directory"),
        "{err}"
    );
}
