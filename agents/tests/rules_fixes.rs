//! The fixes of the `rules` agent, each on its own constructed position
//! (several taken from replays): the decision with the fix on, and the
//! decision of the yardstick, `rules` with its fixes off, where the fix
//! changes it. See the module documentation of `kanaszta_agents::rules`.

use kanaszta_agents::{seat_rng, Agent, AgentSpec, Params, RulesAgent, RulesParams};
use kanaszta_engine::{Action, Card, GameState};
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

/// The yardstick: every fix off.
const OFF: &str = "fixes=off";

/// Plays the mover's turn to its end (its discard) with `rules` of these
/// parameters, from a few generator seeds that must agree; the actions.
fn play_turn(g: &GameState, p: &RulesParams) -> (GameState, Vec<Action>) {
    let mut first: Option<(GameState, Vec<Action>)> = None;
    for seed in 1..4 {
        let mut g = g.clone();
        let me = g.current_player();
        let mut agent = RulesAgent::new(p.clone());
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut legal = Vec::new();
        let mut done = Vec::new();
        while !g.is_terminal() && g.current_player() == me {
            g.legal_actions(&mut legal);
            let a = agent.act(&g.view(me), &legal, &mut rng);
            g.apply(a).unwrap_or_else(|e| panic!("`{a}` refused: {e}"));
            done.push(a);
            assert!(done.len() < 200, "the turn does not end: {done:?}");
            if matches!(a, Action::Discard(_)) {
                break;
            }
        }
        match &first {
            None => first = Some((g, done)),
            Some((_, d)) => assert_eq!(&done, d, "seed {seed}"),
        }
    }
    first.unwrap()
}

/// Dead locks (I-32, `dead`): extending the kings would leave one card
/// that no card could ever take out (no group can reach seven), so it
/// keeps its cards; with a six-card group of queens, which a queen or a
/// wild completes, the same step is a live lock and it takes it. Without
/// the charge it extends into the dead lock too.
#[test]
fn rules_never_melds_into_a_dead_lock() {
    let position = |queens: &str| {
        pos(&format!(
            r#"{{"phase": "meld", "turns": 20, "players": [
                {{"hand": "KC 5D 8H", "table": {{"groups": ["{queens}", "KD KH KS"]}}}},
                {{"hand": "JC TC 4S 5S 8C 8D AS 9D", "table": {{"groups": ["6C 6D 6H"]}}}}],
              "pile": "4C 9S JS 7D"}}"#
        ))
    };
    let dead = position("QC QD QH");
    let extend = Action::Extend {
        group: 1,
        card: card("KC"),
    };
    let (_, turn) = play_turn(&dead, &params(""));
    assert!(!turn.contains(&extend), "{turn:?}");
    for p in ["dead=0", OFF] {
        let (_, turn) = play_turn(&dead, &params(p));
        assert_eq!(turn[0], extend, "{p}: {turn:?}");
    }
    let live = position("QC QD QH QS 2C JK");
    for p in ["", OFF] {
        let (_, turn) = play_turn(&live, &params(p));
        assert_eq!(turn[0], extend, "{p}: {turn:?}");
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
    let mut legal = Vec::new();
    for i in 0..hands {
        let seed = kanaszta_engine::derive_seed(0xF1C5, i);
        let mut g = GameState::new(kanaszta_engine::Rules::default(), seed);
        let mut agents = [RulesAgent::new(p.clone()), RulesAgent::new(p.clone())];
        let mut rngs = [seat_rng(seed, 0), seat_rng(seed, 1)];
        while !g.is_terminal() {
            let s = g.current_player();
            g.legal_actions(&mut legal);
            let a = agents[s].act(&g.view(s), &legal, &mut rngs[s]);
            eat(a.to_string().as_bytes());
            g.apply(a).unwrap();
        }
        for s in g.scores() {
            eat(&s.total.to_le_bytes());
        }
    }
    h
}

/// The yardstick: `fixes=off` is every fix off, whatever their own values,
/// prints as such, and plays as `rules` played before the fixes: the
/// fingerprint of 100 hands between two of them was recorded on that
/// agent (commit b1dfd10). Record it again only where the engine's play
/// changes, and say why in the commit.
#[test]
fn fixes_off_plays_as_rules_did_before_the_fixes() {
    let off = params(OFF);
    let spec: AgentSpec = "rules:fixes=off".parse().unwrap();
    assert_eq!(spec, AgentSpec::Rules(off.clone()));
    assert_eq!(spec.to_string(), "rules:fixes=off");
    let each = params("dead=0");
    let both = params("fixes=off,dead=800");
    assert_eq!(fingerprint(&off, 100), 0x04be_f070_daec_f02c);
    assert_eq!(fingerprint(&each, 20), fingerprint(&off, 20));
    assert_eq!(fingerprint(&both, 20), fingerprint(&off, 20));
    assert_ne!(
        fingerprint(&RulesParams::default(), 20),
        fingerprint(&off, 20)
    );
}
