//! sim/POSITIONS.md cannot go stale: every JSON block in it is a position
//! (decorated, or classic canasta) that loads and saves back to itself,
//! and every action of its lists parses and prints as written.

use kanaszta_engine::classic::{is_classic_position, ClassicAction, ClassicEnd, ClassicState};
use kanaszta_engine::{Action, GameState, HandEnd};

fn doc() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/POSITIONS.md"))
        .expect("read sim/POSITIONS.md")
}

/// The bodies of the fenced blocks of `lang`.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let open = format!("```{lang}\n");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(&open) {
        let body = &rest[i + open.len()..];
        let end = body.find("```").expect("a closed block");
        out.push(body[..end].to_string());
        rest = &body[end..];
    }
    out
}

#[test]
fn every_json_block_of_positions_md_loads_and_round_trips() {
    let blocks: Vec<String> = blocks(&doc(), "json")
        .into_iter()
        .filter(|b| !is_classic_position(b))
        .collect();
    assert!(blocks.len() >= 6, "one example per phase at least");
    let mut phases = std::collections::BTreeSet::new();
    for b in &blocks {
        let g = GameState::from_position_json(b).unwrap_or_else(|e| panic!("{e}\nin\n{b}"));
        let saved = g.to_position_json();
        let back = GameState::from_position_json(&saved).unwrap();
        assert_eq!(back, g, "{b}");
        phases.insert(format!("{:?}", g.phase()));
    }
    assert_eq!(
        phases.len(),
        5,
        "an example of every phase (cut, first_discard, draw, meld, over): {phases:?}"
    );
}

/// The example of going out from hand and clearing the table scores as
/// the document says: 100 + 100 + 100 (D-14.1, D-14.2).
#[test]
fn the_clearing_example_scores_three_hundred_in_bonuses_d14() {
    let b = blocks(&doc(), "json")
        .into_iter()
        .find(|b| b.contains("\"cleared_table\": true"))
        .expect("the clearing example");
    let g = GameState::from_position_json(&b).unwrap();
    assert!(matches!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: true
        })
    ));
    let s = g.scores()[0];
    assert_eq!(
        s.going_out_points + s.from_hand_points + s.cleared_table_points,
        300
    );
}

#[test]
fn every_action_of_positions_md_parses() {
    let text = doc();
    let list = blocks(&text, "text");
    let actions: Vec<&str> = list[0].lines().filter(|l| !l.is_empty()).collect();
    assert!(actions.len() >= 15, "{actions:?}");
    for a in actions {
        let parsed: Action = a.parse().unwrap_or_else(|e| panic!("{a}: {e}"));
        assert_eq!(parsed.to_string(), a);
    }
}

#[test]
fn every_classic_block_of_positions_md_loads_and_round_trips() {
    let blocks: Vec<String> = blocks(&doc(), "json")
        .into_iter()
        .filter(|b| is_classic_position(b))
        .collect();
    let mut phases = std::collections::BTreeSet::new();
    for b in &blocks {
        let g = ClassicState::from_position_json(b).unwrap_or_else(|e| panic!("{e}\nin\n{b}"));
        let saved = g.to_position_json();
        let back = ClassicState::from_position_json(&saved).unwrap();
        assert!(back.same_position(&g), "{b}");
        assert_eq!(back.to_position_json(), saved);
        phases.insert(format!("{:?}", g.phase()));
    }
    assert_eq!(
        phases.len(),
        4,
        "a classic example of every phase (draw, answer, meld, over): {phases:?}"
    );
}

/// The classic example of going out scores as the document says (C-5,
/// C-8, C-10, C-18, C-23).
#[test]
fn the_classic_over_example_scores_as_documented() {
    let b = blocks(&doc(), "json")
        .into_iter()
        .find(|b| is_classic_position(b) && b.contains("went_out"))
        .expect("the classic over example");
    let g = ClassicState::from_position_json(&b).unwrap();
    assert_eq!(
        g.end(),
        Some(ClassicEnd::WentOut {
            player: 1,
            concealed: false
        })
    );
    let s1 = g.side_score(1);
    assert_eq!(
        (
            s1.canastas,
            s1.red_threes,
            s1.going_out,
            s1.melds,
            s1.in_hand
        ),
        (500, 200, 100, 220, -15)
    );
    assert_eq!(s1.total, 1005);
    let s0 = g.side_score(0);
    assert_eq!((s0.failed_yes, s0.total), (-100, 305));
}

#[test]
fn every_classic_action_of_positions_md_parses() {
    let text = doc();
    let list = blocks(&text, "text")
        .into_iter()
        .find(|b| b.contains("endhand"))
        .expect("the classic action list");
    let actions: Vec<&str> = list.lines().filter(|l| !l.is_empty()).collect();
    assert!(actions.len() >= 14, "{actions:?}");
    for a in actions {
        let parsed: ClassicAction = a.parse().unwrap_or_else(|e| panic!("{a}: {e}"));
        assert_eq!(parsed.to_string(), a);
    }
}

/// The classic position commands of docs/CLASSIC.md run as written on the
/// example of sim/POSITIONS.md they name (`classic.json`), a table of four
/// where the player to move may ask his partner (C-18); with the
/// two-player example `ask` is refused, so the name matters.
#[test]
fn docs_classic_position_examples_run_on_the_named_example_c18() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/CLASSIC.md"))
            .expect("read docs/CLASSIC.md");
    let lines: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("kanaszta ") && l.contains("classic.json"))
        .collect();
    assert_eq!(lines.len(), 2, "legal and apply: {lines:?}");
    let named = lines[0]
        .split('"')
        .nth(1)
        .expect("the example's name in quotes");
    let doc = doc();
    let at = doc
        .find(&format!("**{named}**"))
        .unwrap_or_else(|| panic!("no example `{named}` in POSITIONS.md"));
    let block = &blocks(&doc[at..], "json")[0];
    let dir = std::env::temp_dir().join(format!("kanaszta-readme-classic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("classic.json"), block).unwrap();
    let mut outs = Vec::new();
    for line in &lines {
        let command = line.split('#').next().unwrap();
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let r = std::process::Command::new(env!("CARGO_BIN_EXE_kanaszta"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .expect("run kanaszta");
        let out = String::from_utf8_lossy(&r.stdout).to_string();
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(r.status.success(), "`{command}` failed: {err}");
        outs.push(out);
    }
    // What the comment says `legal` prints.
    let listed: Vec<&str> = outs[0].lines().map(str::trim).collect();
    let said = lines[0].rsplit("prints ").next().unwrap();
    for action in said.split(", ") {
        assert!(listed.contains(&action), "{action} not in {listed:?}");
    }
    assert!(outs[1].contains("\"phase\": \"meld\""), "{}", outs[1]);
    // The two-player example refuses the same commands (C-18).
    let two = blocks(&doc, "json")
        .into_iter()
        .find(|b| is_classic_position(b) && b.contains("\"rules\": \"classic-002\""))
        .expect("the two-player example");
    let g = ClassicState::from_position_json(&two).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(!legal.is_empty() && !legal.iter().any(|a| a.to_string() == "ask"));
    std::fs::remove_dir_all(&dir).unwrap();
}
