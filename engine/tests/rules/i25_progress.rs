//! I-25 and the engine's cap on undos ([`MAX_UNDOS`]): a meld phase is
//! judged on its final state, so undoing reaches nothing new; the engine
//! allows eight undos (take-backs, D-11.5, and resets) a meld phase, the
//! last a reset. Every state the listing leads to has a way to end the
//! turn without undoing (I-9), so once the undos are spent only steps
//! forward and discards are listed, and the turn ends. No player choosing
//! among the listed actions can loop a meld phase forever.

use kanaszta_engine::{Action, Card, GameState, Phase, Position, Rules, MAX_UNDOS};

fn a(s: &str) -> Action {
    s.parse().unwrap()
}

fn legal(g: &GameState) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// The player of the issue that asked for this guarantee: it makes the
/// first listed meld step whenever there is one (a take-back or a reset
/// included), and otherwise discards its cheapest card. Without the cap it
/// lays a group, takes it back and lays it again for ever.
fn preference(g: &GameState) -> Action {
    let legal = legal(g);
    if let Some(&m) = legal
        .iter()
        .find(|x| !matches!(x, Action::Discard(_) | Action::Reset))
        .or_else(|| legal.iter().find(|x| **x == Action::Reset))
    {
        return m;
    }
    *legal
        .iter()
        .filter(|x| matches!(x, Action::Discard(_)))
        .min_by_key(|x| match x {
            Action::Discard(c) => c.points(),
            _ => 0,
        })
        .unwrap_or(&legal[0])
}

/// I-25, MAX_UNDOS: the preference player finishes all of 200 hands, and
/// no meld phase takes more than a few hundred decisions.
#[test]
fn i25_a_player_who_always_melds_finishes_every_hand() {
    let mut longest = 0;
    let mut capped = 0;
    for seed in 0..200 {
        let mut g = GameState::new(Rules::default(), seed);
        let mut in_turn = 0;
        let mut key = (u32::MAX, usize::MAX);
        while !g.is_terminal() {
            if (g.turns(), g.current_player()) != key {
                key = (g.turns(), g.current_player());
                in_turn = 0;
            }
            in_turn += 1;
            longest = longest.max(in_turn);
            assert!(in_turn < 2000, "seed {seed}: a turn that does not end");
            let x = preference(&g);
            g.apply(x)
                .unwrap_or_else(|e| panic!("seed {seed}: {x} refused: {e}"));
            capped += (g.phase() == Phase::Meld && x == Action::Reset) as u32;
        }
    }
    assert!(longest < 500, "longest turn {longest} decisions");
    assert!(capped > 0, "the player never reached its last undo");
}

/// I-25, MAX_UNDOS on a built position: lay and take back seven times;
/// the eighth undo is the reset; then nothing more is undone: the lay is
/// listed again, but neither its take-back nor a reset, which are refused
/// with the rule's name, and the turn ends with a discard.
#[test]
fn i25_the_last_undo_is_a_reset_then_the_turn_ends() {
    let text = r#"{"phase": "meld", "turns": 10,
        "players": [{"hand": "KC KD KH 5C 6D 7H", "table": {"groups": ["9C 9D 9H"]}},
                    {"hand": "4C 4D 4H 8S 8H"}],
        "pile": "QC"}"#;
    let mut g = Position::from_json(text).unwrap().to_state().unwrap();
    for k in 0..MAX_UNDOS - 1 {
        g.apply(a("lay KC KD KH")).unwrap();
        if k + 2 < MAX_UNDOS {
            assert!(legal(&g).contains(&a("takeback 1")), "undo {k}");
        }
        g.apply(a("takeback 1")).unwrap();
    }
    g.apply(a("lay KC KD KH")).unwrap();
    // Seven take-backs made: the last undo is the reset.
    assert!(!legal(&g).contains(&a("takeback 1")));
    assert_eq!(g.clone().apply(a("takeback 1")).unwrap_err().rule, "I-25");
    assert!(legal(&g).contains(&Action::Reset));
    g.apply(Action::Reset).unwrap();
    // Spent: steps forward and discards only.
    assert!(legal(&g).contains(&a("lay KC KD KH")));
    assert!(legal(&g).iter().any(|x| matches!(x, Action::Discard(_))));
    g.apply(a("lay KC KD KH")).unwrap();
    let after = legal(&g);
    assert!(
        !after.contains(&a("takeback 1")) && !after.contains(&Action::Reset),
        "{after:?}"
    );
    assert_eq!(g.clone().apply(a("takeback 1")).unwrap_err().rule, "I-25");
    assert_eq!(g.clone().apply(Action::Reset).unwrap_err().rule, "I-25");
    g.apply(Action::Discard("5C".parse::<Card>().unwrap()))
        .unwrap();
    assert_eq!(g.current_player(), 1);
}
