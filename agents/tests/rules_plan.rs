//! The turn planner of the `rules` agent (`plan`) on constructed
//! positions, its yardstick `rules:plan=off` (the play before it), and
//! its legality and determinism in play. See the module documentation of
//! `kanaszta_agents::rules`.

use kanaszta_agents::{seat_rng, Agent, AgentSpec, Params, RulesAgent, RulesParams};
use kanaszta_engine::{Action, GameState, MoveBuf};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// A position from JSON (`kanaszta_engine::Position`); panics with the
/// parser's message if it is refused.
fn pos(json: &str) -> GameState {
    GameState::from_position_json(json).unwrap_or_else(|e| panic!("bad position: {e}\n{json}"))
}

/// `rules` with the parameters of `spec` (`key=value,…`).
fn params(spec: &str) -> RulesParams {
    let mut p = RulesParams::default();
    for kv in spec.split(',').filter(|kv| !kv.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        p.set(k, v).unwrap();
    }
    p
}

/// The yardstick: the play before the planner.
const OFF: &str = "plan=off";

/// Plays the mover's turn to its end with `rules` of these parameters,
/// every action checked against the engine's listing (I-9) before it is
/// applied; the state after it and the actions.
fn play_turn(g: &GameState, p: &RulesParams) -> (GameState, Vec<Action>) {
    let mut g = g.clone();
    let me = g.current_player();
    let mut agent = RulesAgent::new(p.clone());
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let mut done = Vec::new();
    let mut listing = Vec::new();
    while !g.is_terminal() && g.current_player() == me {
        let a = agent.act(&g.view(me), &mut g.moves(&mut MoveBuf::new()), &mut rng);
        g.legal_actions(&mut listing);
        assert!(listing.contains(&a), "`{a}` is not listed: {done:?}");
        g.apply(a).unwrap_or_else(|e| panic!("`{a}` refused: {e}"));
        done.push(a);
        assert!(done.len() < 200, "the turn does not end: {done:?}");
        if matches!(a, Action::Discard(_)) {
            break;
        }
    }
    (g, done)
}

/// A canasta by moving a wild (D-11.2, D-10; replay `--a rules --b greedy
/// --seed 2026 --game 19`, turn 23): with 7D drawn, the sevens hold six
/// cards, and a joker of the tens, which keep three naturals, makes the
/// seventh. The planner adds the seven, takes the joker out and lays it
/// to the sevens: a canasta (300) two turns sooner. The yardstick never
/// moves a wild on its own and keeps six sevens.
#[test]
fn rules_moves_a_wild_to_make_a_canasta() {
    let g = pos(
        r#"{"phase": "meld", "turns": 23, "starter": 1, "current": 1, "players": [
            {"hand": "6C 6S 7C TC TS KS AD 2S",
             "table": {"groups": ["9D 9D 9H 2C JK", "JC JC JD JS JS", "4C 4C 4S", "QC QC QS",
                                  "KC KD KH KS", "AC AD 2D"], "red_threes": "3D"}},
            {"hand": "7D 5S 5H",
             "table": {"groups": ["TD TD TH JK JK", "7H 7S 7S 2H JK"]}}],
          "pile": "3C 3S 6H"}"#,
    );
    let (t, turn) = play_turn(&g, &params(""));
    assert!(t.table(1).has_canasta(), "{turn:?}");
    assert!(
        turn.iter().any(|a| matches!(a, Action::TakeWild { .. })),
        "{turn:?}"
    );
    let (t, turn) = play_turn(&g, &params(OFF));
    assert!(!t.table(1).has_canasta(), "{turn:?}");
}

/// Going out by a canasta from the hand and a wild moved (D-13.1, D-11.2,
/// D-10): 7777 with 2H 2S JK is a canasta, and the nines with a joker
/// taken out of the tens (three naturals stay, D-11.2) leave the 5S to
/// discard. With the opponent one card from going out, it goes out now,
/// every step listed when it is played (I-9).
#[test]
fn rules_goes_out_by_a_canasta_and_a_wild_moved() {
    let g = pos(
        r#"{"phase": "meld", "turns": 25, "starter": 1, "current": 1, "players": [
            {"hand": "6C 6S",
             "table": {"groups": ["9D 9D 9H 9H 9C 2C JK", "JC JC JD JS JS"], "red_threes": "3D"}},
            {"hand": "7D 7H 7S 7S 2H 2S JK 9S 9S 5S",
             "table": {"groups": ["TD TD TH JK JK"]}}],
          "pile": "3C 3S 6H"}"#,
    );
    for p in ["", "plan_depth=2,plan_beam=1"] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(t.is_terminal() && t.score_of(1).went_out, "{p}: {turn:?}");
        assert!(
            turn.iter().any(|a| matches!(a, Action::TakeWild { .. })),
            "{p}: {turn:?}"
        );
    }
}

/// FNV-1a of every action and the final scores of `hands` hands between
/// two `rules` agents of parameters `p`, one agent a seat for every hand
/// (restarted between hands) when `reuse`, else fresh ones each hand.
fn fingerprint(p: &RulesParams, hands: u64, reuse: bool) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut eat = |b: &[u8]| {
        for &x in b {
            h ^= x as u64;
            h = h.wrapping_mul(0x100_0000_01B3);
        }
    };
    let mut agents = [RulesAgent::new(p.clone()), RulesAgent::new(p.clone())];
    for i in 0..hands {
        let seed = kanaszta_engine::derive_seed(0xF1C5, i);
        let mut g = GameState::new(kanaszta_engine::Rules::default(), seed);
        if reuse {
            agents.iter_mut().for_each(|a| a.restart());
        } else {
            agents = [RulesAgent::new(p.clone()), RulesAgent::new(p.clone())];
        }
        let mut rngs = [seat_rng(seed, 0), seat_rng(seed, 1)];
        while !g.is_terminal() {
            let s = g.current_player();
            let a = agents[s].act(&g.view(s), &mut g.moves(&mut MoveBuf::new()), &mut rngs[s]);
            eat(a.to_string().as_bytes());
            g.apply(a)
                .unwrap_or_else(|e| panic!("hand {i}: `{a}` refused: {e}"));
        }
        for s in g.scores() {
            eat(&s.total.to_le_bytes());
        }
    }
    h
}

/// The yardstick: `plan=off` plays as `rules` played before the planner
/// (the fingerprint of 100 hands between two of them was recorded on
/// that agent, commit efb0525; `kanaszta replay --a rules:plan=off`
/// prints the games of that agent move for move), and prints as such.
/// `expert=off` and `fixes=off` turn the planner off with the rest.
#[test]
fn plan_off_plays_as_rules_did_before_the_planner() {
    let off = params(OFF);
    let spec: AgentSpec = "rules:plan=off".parse().unwrap();
    assert_eq!(spec, AgentSpec::of(off.clone()));
    assert_eq!(spec.to_string(), "rules:plan=off");
    assert_eq!(fingerprint(&off, 100, false), PLAN_OFF_FINGERPRINT);
    assert_ne!(
        fingerprint(&RulesParams::default(), 20, false),
        fingerprint(&off, 20, false)
    );
    assert_eq!(
        fingerprint(&params("expert=off"), 20, false),
        fingerprint(&params("expert=off,plan=off"), 20, false)
    );
}

/// The fingerprint of 100 hands of `rules` before the planner.
const PLAN_OFF_FINGERPRINT: u64 = 0x051b_e9fa_0198_838f;

/// The planner's play is the same for a seed whatever came before: the
/// same hands played twice, and with agents kept from hand to hand
/// (restarted) or made anew, give the same actions and scores; every
/// action the agent plays is accepted by the engine.
#[test]
fn planned_play_is_deterministic() {
    let p = RulesParams::default();
    let a = fingerprint(&p, 12, false);
    assert_eq!(fingerprint(&p, 12, false), a);
    assert_eq!(fingerprint(&p, 12, true), a);
}

/// A twin kept (D-7, `plan_keep`): the opponent has just thrown the 8S
/// and the mover, having drawn, holds the other 8S. Extending its three
/// eights with it earns its 10 points and a step towards a canasta;
/// keeping it for the discard earns a twin, 100. The planned play keeps
/// it and throws it onto its twin; without the keep (`plan_keep=0`,
/// as `rules` played before it) it extends the eights and earns none.
#[test]
fn rules_keeps_the_card_of_a_twin_for_its_discard() {
    let g = pos(
        r#"{"phase": "meld", "turns": 14, "starter": 0, "current": 1, "players": [
            {"hand": "4C 5D 6H 9C TD JS KH QC QD",
             "table": {"groups": ["KC KD KS", "AC AH AS"]}},
            {"hand": "8S 4D 5C 9S JD KD QH 6C 7D",
             "table": {"groups": ["8C 8D 8H", "TC TH TS 2D"]}}],
          "pile": "7C 4H 9D 8S"}"#,
    );
    assert_eq!(g.twin_card(), Some("8S".parse().unwrap()));
    let (t, turn) = play_turn(&g, &params(""));
    assert_eq!(
        turn.last(),
        Some(&Action::Discard("8S".parse().unwrap())),
        "{turn:?}"
    );
    assert_eq!(t.table(1).twins, 1, "{turn:?}");
    let (t, turn) = play_turn(&g, &params("plan_keep=0"));
    assert_eq!(t.table(1).twins, 0, "{turn:?}");
    let (t, turn) = play_turn(&g, &params(OFF));
    assert_eq!(t.table(1).twins, 0, "{turn:?}");
}

/// A twin before a black three (D-7, D-6.3, `plan_twin`): the opponent,
/// one canasta down and three cards in hand, may go out soon, so the
/// mover's 3C (−100 if it is caught with it) is urgent; but the twin is
/// 100 now and lost after this turn, while the 3C can still be thrown
/// next turn. The planned play throws the twin; with a twin worth 100
/// alone in the discard (`plan_twin=0`, as `rules` played before), it
/// throws the black three.
#[test]
fn rules_throws_a_twin_before_a_black_three() {
    let g = twin_or_three();
    let (t, turn) = play_turn(&g, &params(""));
    assert_eq!(
        turn.last(),
        Some(&Action::Discard("6S".parse().unwrap())),
        "{turn:?}"
    );
    assert_eq!(t.table(1).twins, 1, "{turn:?}");
    let (_, turn) = play_turn(&g, &params("plan_twin=0"));
    assert_eq!(
        turn.last(),
        Some(&Action::Discard("3C".parse().unwrap())),
        "{turn:?}"
    );
}

/// No twin handed over (D-7, `plan_guard`): of two fives alike in every
/// other way, the 5H, whose twin lies in the pile, is thrown rather than
/// the 5D, whose twin the opponent may hold among his unknown cards and
/// would throw onto it for 100. Without the guard (`plan_guard=0`, as
/// `rules` played before it) the two cost the same and the first is
/// thrown.
#[test]
fn rules_does_not_hand_the_opponent_a_twin() {
    let g = twin_handed_over();
    let (_, turn) = play_turn(&g, &params(""));
    assert_eq!(turn, [Action::Discard("5H".parse().unwrap())]);
    let (_, turn) = play_turn(&g, &params("plan_guard=0"));
    assert_eq!(turn, [Action::Discard("5D".parse().unwrap())]);
}

/// `twins` sets when the twin play (D-7) is in force: with the planner by
/// default, never with `twins=off`, and without the planner too with
/// `twins=on` (the play the searchers' rollouts may use,
/// `rollout_twins=on`). Shown on the two positions above: the twin thrown
/// before a black three, and no twin handed over.
#[test]
fn twins_sets_when_the_twin_play_is_in_force() {
    let three = twin_or_three();
    let guard = twin_handed_over();
    let last = |g: &GameState, spec: &str| play_turn(g, &params(spec)).1.last().copied();
    let card = |c: &str| Some(Action::Discard(c.parse().unwrap()));
    for (spec, twin_play) in [
        ("", true),
        ("twins=plan", true),
        ("twins=off", false),
        ("plan=off", false),
        ("plan=off,twins=plan", false),
        ("plan=off,twins=on", true),
        ("expert=off,twins=on", false),
    ] {
        let (t, g) = if twin_play {
            ("6S", "5H")
        } else {
            ("3C", "5D")
        };
        assert_eq!(last(&three, spec), card(t), "{spec}");
        assert_eq!(last(&guard, spec), card(g), "{spec}");
    }
}

/// The position of `rules_throws_a_twin_before_a_black_three`: the mover
/// may throw the 6S, a twin, or the 3C.
fn twin_or_three() -> GameState {
    pos(
        r#"{"phase": "meld", "turns": 30, "starter": 0, "current": 1, "players": [
            {"hand": "4C 9C JS",
             "table": {"groups": ["KC KD KS KH KH 2C JK", "AC AH AS"]}},
            {"hand": "3C 6S 9D JD 5H",
             "table": {"groups": ["8C 8D 8H 8S", "TC TH TS 2D"]}}],
          "pile": "7C 4H 6S"}"#,
    )
}

/// The position of `rules_does_not_hand_the_opponent_a_twin`: the mover
/// throws the 5H, whose twin lies in the pile, or the 5D.
fn twin_handed_over() -> GameState {
    pos(
        r#"{"phase": "meld", "turns": 20, "starter": 0, "current": 1, "players": [
            {"hand": "4C 9C JS QD 8H",
             "table": {"groups": ["KC KD KS KH KH 2C JK", "AC AH AS"]}},
            {"hand": "5D 5H",
             "table": {"groups": ["8C 8D 8H 8S 8S 8D 8C", "TC TH TS 2D"]}}],
          "pile": "7C 5H 4S"}"#,
    )
}
