//! The expert play of the `rules` agent, each part on its own constructed
//! position: the decision with it on, and the decision of the yardstick,
//! `rules:expert=off` (the play before it), where it changes it. See the
//! module documentation of `kanaszta_agents::rules`.

use kanaszta_agents::{seat_rng, Agent, AgentSpec, Params, RulesAgent, RulesParams};
use kanaszta_engine::{Action, Card, GameState, MoveBuf};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// A position from JSON (`kanaszta_engine::Position`); panics with the
/// parser's message if it is refused.
fn pos(json: &str) -> GameState {
    GameState::from_position_json(json).unwrap_or_else(|e| panic!("bad position: {e}\n{json}"))
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
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

/// The yardstick: the play before the expert parts.
const OFF: &str = "expert=off";

/// The mover's next decision with `rules` of these parameters, the same
/// from a few generator seeds.
fn decision(g: &GameState, p: &RulesParams) -> Action {
    let me = g.current_player();
    let mut first = None;
    for seed in 1..5 {
        let mut agent = RulesAgent::new(p.clone());
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let a = agent.act(&g.view(me), &mut g.moves(&mut MoveBuf::new()), &mut rng);
        match first {
            None => first = Some(a),
            Some(f) => assert_eq!(a, f, "seed {seed}"),
        }
    }
    first.unwrap()
}

/// Plays the mover's turn to its end (its discard) with `rules` of these
/// parameters; the actions.
fn play_turn(g: &GameState, p: &RulesParams) -> Vec<Action> {
    let mut g = g.clone();
    let me = g.current_player();
    let mut agent = RulesAgent::new(p.clone());
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let mut done = Vec::new();
    while !g.is_terminal() && g.current_player() == me {
        let a = agent.act(&g.view(me), &mut g.moves(&mut MoveBuf::new()), &mut rng);
        g.apply(a).unwrap_or_else(|e| panic!("`{a}` refused: {e}"));
        done.push(a);
        assert!(done.len() < 200, "the turn does not end: {done:?}");
        if matches!(a, Action::Discard(_)) {
            break;
        }
    }
    done
}

/// Piles by their contents (`piles`; D-6.2, D-6.3, D-14): a pile of ten
/// holding four black threes, with the opponent a canasta down and three
/// cards from going out, would leave it 400 points in hand that it can
/// throw only one a turn: it draws. The yardstick takes every pile of
/// eight or more.
#[test]
fn rules_declines_a_pile_full_of_black_threes() {
    let g = pos(r#"{"phase": "draw", "turns": 30, "players": [
            {"hand": "QH QS 4C 9D 6H 7C", "table": {"groups": ["5C 5D 5H"]}},
            {"hand": "JC TC 5S", "table": {"groups": ["8C 8C 8D 8H 8S 2C JK"]}}],
          "pile": "3C 4D 3S 9S 3C 7S 3S 6C 6D QD"}"#);
    assert_eq!(decision(&g, &params("")), Action::Draw);
    for p in ["piles=off", OFF] {
        assert_eq!(decision(&g, &params(p)), Action::TakePile, "{p}");
    }
}

/// Card tracking (`track`; D-6.2): the opponent, opened, declined the 9C
/// it threw last turn (it lies under his fresh discard, the 6S) and drew
/// instead, so he held no two nines, nor a nine and a wild: the nine is
/// the safe card to feed him now. The yardstick reads only the cards he
/// picked up and the cards unseen, and throws the seven, of which fewer
/// are unseen.
#[test]
fn rules_feeds_a_rank_the_opponent_declined() {
    let g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "9D 7D KC KD QH QS AC AD", "table": {"groups": ["5C 5D 5H"]}},
            {"hand": "JC TC 5S 4S 8H 8S JD", "table": {"groups": ["TD TH TS 2C"]}}],
          "pile": "7C 7H 7S 4D 5D 9C 6S"}"#);
    assert_eq!(discard_of(&play_turn(&g, &params(""))), card("9D"));
    for p in ["track=off", OFF] {
        assert_eq!(discard_of(&play_turn(&g, &params(p))), card("7D"), "{p}");
    }
}

/// The discard that ends the turn.
fn discard_of(turn: &[Action]) -> Card {
    match turn.last() {
        Some(Action::Discard(c)) => *c,
        other => panic!("the turn ends with {other:?}"),
    }
}

/// The threat of movable wilds (`movable`; D-11.2, D-13.1): the
/// opponent's longest group is five queens, but the wilds of his fives
/// and eights moved into them make a canasta, and with six cards left he
/// may go out next turn. Far behind on the visible count, it goes out
/// now, moving the 2H of its eights to the sevens. The yardstick reads
/// the longest group only, judges the threat low and plays on for
/// canastas (`hold`).
#[test]
fn rules_counts_the_wilds_the_opponent_can_move() {
    let g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "7C 7D 9S",
             "table": {"groups": ["KC KD KH KS KS 2S JK", "8C 8D 8H 2H"]}},
            {"hand": "JC TC 5S 4S 8H 8S",
             "table": {"groups": ["QC QD QH QS 2S", "5C 5D 5H 2C 2D", "8C 8D 8S JK"],
                       "red_threes": "3D 3H", "heart_aces": 2, "twins": 5}}],
          "pile": "4D 9C 6S"}"#);
    let went_out = |p: &str| {
        let turn = play_turn(&g, &params(p));
        let mut t = g.clone();
        for a in &turn {
            t.apply(*a).unwrap();
        }
        (t.is_terminal(), turn)
    };
    let (out, turn) = went_out("");
    assert!(out, "{turn:?}");
    assert!(
        turn.iter().any(|a| matches!(a, Action::TakeWild { .. })),
        "{turn:?}"
    );
    for p in ["movable=off", OFF] {
        let (out, turn) = went_out(p);
        assert!(!out, "{p}: {turn:?}");
    }
}

/// FNV-1a of every action and the final scores of `hands` hands between
/// two `rules` agents of parameters `p`.
fn fingerprint(p: &RulesParams, hands: u64) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut eat = |b: &[u8]| {
        for &x in b {
            h ^= x as u64;
            h = h.wrapping_mul(0x100_0000_01B3);
        }
    };
    for i in 0..hands {
        let seed = kanaszta_engine::derive_seed(0xF1C5, i);
        let mut g = GameState::new(kanaszta_engine::Rules::default(), seed);
        let mut agents = [RulesAgent::new(p.clone()), RulesAgent::new(p.clone())];
        let mut rngs = [seat_rng(seed, 0), seat_rng(seed, 1)];
        while !g.is_terminal() {
            let s = g.current_player();
            let a = agents[s].act(&g.view(s), &mut g.moves(&mut MoveBuf::new()), &mut rngs[s]);
            eat(a.to_string().as_bytes());
            g.apply(a).unwrap();
        }
        for s in g.scores() {
            eat(&s.total.to_le_bytes());
        }
    }
    h
}

/// The yardstick: `expert=off` is every expert part off, whatever their
/// own values, prints as such, and plays as `rules` played before them:
/// the fingerprint of 100 hands between two of them was recorded on that
/// agent (commit 3e6a8bf). Record it again only where the engine's play
/// changes, and say why in the commit.
#[test]
fn expert_off_plays_as_rules_did_before() {
    let off = params(OFF);
    let spec: AgentSpec = "rules:expert=off".parse().unwrap();
    assert_eq!(spec, AgentSpec::of(off.clone()));
    assert_eq!(spec.to_string(), "rules:expert=off");
    assert_eq!(fingerprint(&off, 100), 0x4d93_682b_831d_0d8e);
    // The turn planner (`plan`) came after the expert parts and is off
    // under `expert=off` with them.
    let each = params("movable=off,piles=off,track=off,plan=off");
    let both = params("expert=off,movable=on,piles=on,track=on,plan=on");
    assert_eq!(fingerprint(&each, 20), fingerprint(&off, 20));
    assert_eq!(fingerprint(&both, 20), fingerprint(&off, 20));
    assert_ne!(
        fingerprint(&RulesParams::default(), 20),
        fingerprint(&off, 20)
    );
}
