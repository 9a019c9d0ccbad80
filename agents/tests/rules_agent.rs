//! The `rules` agent's strategy, point by point, on constructed positions
//! (see the module documentation of `kanaszta_agents::rules`), and its
//! strength: complete hands against `greedy` and `random` without an illegal
//! action, and more points than `greedy` on paired deals.

use kanaszta_agents::{play_hand, seat_rng, Agent, AgentSpec, RulesAgent, RulesParams};
use kanaszta_engine::{derive_seed, Action, Card, GameState, MoveBuf, Phase, Rules};
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

/// The rules agent's decision in `g` for the player to move.
fn decide(agent: &mut RulesAgent, g: &GameState, seed: u64) -> Action {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let a = agent.act(
        &g.view(g.current_player()),
        &mut g.moves(&mut MoveBuf::new()),
        &mut rng,
    );
    assert!(legal.contains(&a), "`{a}` is not legal here: {legal:?}");
    a
}

/// The first decision of a fresh default agent, checked over a few seeds
/// (its determinizations differ by seed; its choice must not).
fn first_decision(g: &GameState) -> Action {
    let a = decide(&mut RulesAgent::default(), g, 1);
    for seed in 2..6 {
        assert_eq!(
            decide(&mut RulesAgent::default(), g, seed),
            a,
            "seed {seed}"
        );
    }
    a
}

/// Plays the mover's turn to its end with the rules agent; the actions.
fn play_turn(g: &mut GameState) -> Vec<Action> {
    let me = g.current_player();
    let mut agent = RulesAgent::default();
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut legal = Vec::new();
    let mut done = Vec::new();
    while !g.is_terminal() && g.current_player() == me {
        g.legal_actions(&mut legal);
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

/// Cut (D-3.1): a wild and the ♥A are kept, a black three never.
#[test]
fn cut_keeps_a_wild_and_the_heart_ace_never_a_black_three() {
    let g = pos(r#"{"phase": "cut", "cut": "2C 3S AH", "seed": 3}"#);
    assert_eq!(first_decision(&g), Action::KeepCut { mask: 0b101 });
    let g = pos(r#"{"phase": "cut", "cut": "JK 9D 3H", "seed": 3}"#);
    assert_eq!(
        first_decision(&g),
        Action::KeepCut { mask: 0b101 },
        "a joker and a red three (laid out and replaced, +100)"
    );
}

/// Taking the pile (D-6.2): a small pile whose top card, with a pair in
/// hand, completes a canasta of the table (D-10) is taken.
#[test]
fn takes_a_pile_that_completes_a_canasta() {
    let g = pos(r#"{"phase": "draw", "turns": 20, "players": [
            {"hand": "8H 8S 4C 9D KS 6H 7C", "table": {"groups": ["8C 8D 8H 8S 2C"]}},
            {"hand": "JC JD JH JS TC 5D 5S"}],
          "pile": "4D 9S QH 7S 8D"}"#);
    assert_eq!(first_decision(&g), Action::TakePile);
    let mut g = g;
    let turn = play_turn(&mut g);
    assert!(
        g.table(0).has_canasta(),
        "the eights became a canasta: {turn:?}, {:?}",
        g.table(0)
    );
}

/// Taking the pile: a big pile is taken whenever the engine allows.
#[test]
fn takes_a_big_pile() {
    let g = pos(r#"{"phase": "draw", "turns": 30, "players": [
            {"hand": "QH QS 4C 9D 6H 7C", "table": {"groups": ["5C 5D 5H"]}},
            {"hand": "JC JD JH JS TC 5S"}],
          "pile": "4D 9S KH 7S 8D 6C 6D TD AS KD QD"}"#);
    assert_eq!(first_decision(&g), Action::TakePile);
}

/// Freezing (D-6.3): with the opponent one canasta down and two cards from
/// going out, and a pile worth taking, it throws its black three.
#[test]
fn discards_a_black_three_to_freeze_when_the_opponent_is_close() {
    let g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "3S 9C KD 5H 7S", "table": {"groups": ["QC QD QH"]}},
            {"hand": "JC TC", "table": {"groups": ["6C 6D 6H 6S 6C 6D 2H"]}}],
          "pile": "4D 9S KH 7D 8D 6H TD AS"}"#);
    assert_eq!(first_decision(&g), Action::Discard(card("3S")));
}

/// Safe discards: a card of a rank the opponent has melded feeds his group
/// (and his canasta); a card of a dead rank (every other copy in sight) is
/// thrown instead.
#[test]
fn does_not_feed_a_rank_the_opponent_melded_when_a_safe_card_exists() {
    let g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "KD 7C 9H 9S", "table": {"groups": ["QC QD QH"]}},
            {"hand": "JC TC 4S 5S 8H 8C AD", "table": {"groups": ["KC KS KH KH 2D"]}}],
          "pile": "7D 7D 7H 7H 7S 7S 7C 4C"}"#);
    assert_eq!(first_decision(&g), Action::Discard(card("7C")));
    // His kings one card from a canasta: a live four goes rather than the
    // king that would complete it when he next takes the pile.
    let g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "KD 4S 9H 9S", "table": {"groups": ["QC QD QH"]}},
            {"hand": "JC TC 5S 8H 8C AD 6D", "table": {"groups": ["KC KS KH KH KD 2D"]}}],
          "pile": "7D 5H 7H JH 7S 4C TS"}"#);
    assert_eq!(first_decision(&g), Action::Discard(card("4S")));
}

/// Safe discards: it does not throw the rank of a card the opponent is known
/// to hold (picked up from the pile), which would let him take the pile.
#[test]
fn does_not_discard_to_a_known_pair() {
    let g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "TD 6C 9H 9S", "table": {"groups": ["QC QD QH"]}},
            {"hand": "TC TS 4S 5S 8H 8C AD", "known": "TC TS"}],
          "pile": "4C 5D JS KD 8D 7H AS"}"#);
    assert_eq!(first_decision(&g), Action::Discard(card("6C")));
}

/// Twins (D-7): the card identical to the opponent's fresh discard earns 100.
#[test]
fn twins_the_opponents_discard() {
    let g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "9C 4D KD 6S", "table": {"groups": ["QC QD QH"]}},
            {"hand": "JC TC 4S 5S 8H 8C AD"}],
          "pile": "4C 5D JS 8D 7H 9C"}"#);
    assert_eq!(first_decision(&g), Action::Discard(card("9C")));
    let mut g = g;
    play_turn(&mut g);
    assert_eq!(g.table(0).twins, 1);
}

/// Heart aces (D-9.4): laid separately for 500, never into a group of aces.
#[test]
fn lays_a_heart_ace_separately() {
    let mut g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "AH AC AD 9C KD 4S", "table": {"groups": ["5C 5D 5H"]}},
            {"hand": "JC TC 4H 5S 8H 8C AS"}],
          "pile": "4C 5D JS 8D 7H"}"#);
    play_turn(&mut g);
    assert_eq!(g.table(0).heart_aces, 1);
    assert!(
        g.table(0)
            .groups()
            .iter()
            .all(|gr| gr.count(Card::HEART_ACE) == 0),
        "{:?}",
        g.table(0)
    );
}

/// Heart aces before the opening (D-8.2, D-9.4): the opening is made from
/// the other cards and the ♥A laid beside it in the same turn.
#[test]
fn opens_and_lays_the_heart_ace_in_one_turn() {
    let mut g = pos(r#"{"phase": "meld", "turns": 4, "players": [
            {"hand": "AH KC KD KH QC QD QS 9D 4S 6C"},
            {"hand": "JC TC 4H 5S 8H 8C AS 7D 7H 9S JD JH TD"}],
          "pile": "4C 5D JS 8D"}"#);
    let turn = play_turn(&mut g);
    assert!(g.table(0).opened, "{turn:?}");
    assert_eq!(g.table(0).heart_aces, 1, "{turn:?}");
}

/// Wilds: a wild completes a canasta (D-10) rather than padding a small
/// group, and a joker is not spent on a small group for its 50 points.
#[test]
fn uses_a_wild_to_complete_a_canasta_not_on_a_small_group() {
    let mut g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "2C 9D KS 4H", "table": {"groups": ["6C 6D 6H", "JC JD JH JS JC JD"]}},
            {"hand": "TC 4S 5S 8H 8C AS 7D"}],
          "pile": "4C 5D QS 8D"}"#);
    let turn = play_turn(&mut g);
    let t = g.table(0);
    assert!(t.groups()[1].is_canasta(), "{turn:?} {t:?}");
    assert_eq!(t.groups()[0].wilds(), 0, "{turn:?} {t:?}");

    let mut g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "JK 9D KS 4H 8C", "table": {"groups": ["6C 6D 6H"]}},
            {"hand": "TC 4S 5S 8H 8D AS 7D"}],
          "pile": "4C 5D QS 8D"}"#);
    let turn = play_turn(&mut g);
    assert_eq!(g.table(0).groups()[0].wilds(), 0, "{turn:?}");
    assert!(g.hand(0).contains(Card::JOKER), "{turn:?}");
}

/// Going out (D-13): ahead and able to, it melds down and goes out.
#[test]
fn goes_out_when_ahead() {
    let mut g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "9C 9D 9S 4H", "table": {"groups": ["6C 6D 6H 6S 6C 6D 6H"]}},
            {"hand": "TC 4S 5S 8H 8D AS 7D JC JD", "table": {"groups": ["QC QD QH"]}}],
          "pile": "4C 5D QS 8D"}"#);
    let turn = play_turn(&mut g);
    assert!(g.is_terminal(), "{turn:?}");
    assert!(g.score_of(0).went_out);
}

/// The parameters are documented, parse from a spec and print back.
#[test]
fn parameters_round_trip_through_specs() {
    use kanaszta_agents::Params;
    let d = RulesParams::default();
    for doc in RulesParams::docs() {
        let v = d
            .get(doc.key)
            .unwrap_or_else(|| panic!("no value for {}", doc.key));
        let mut p = d.clone();
        p.set(doc.key, &v).unwrap();
        assert_eq!(p, d, "{}", doc.key);
        assert!(!doc.doc.is_empty() && !doc.accepts.is_empty());
    }
    let s: AgentSpec = "rules:pile=5,caution=2".parse().unwrap();
    assert_eq!(s.to_string(), "rules:pile=5,caution=2");
    assert!("rules:pile=0".parse::<AgentSpec>().is_err());
    assert_eq!(s.build().name(), "rules");
}

/// No dead ends: a pickup opening whose short minimum obliges going out
/// (I-26) and long turns are finished through the engine's completion.
#[test]
fn plays_hundreds_of_hands_against_greedy_and_random_without_an_error() {
    for opp in ["greedy", "random"] {
        let spec: AgentSpec = opp.parse().unwrap();
        for i in 0..150u64 {
            let seed = derive_seed(0x2B1E5, i);
            let mut g = GameState::new(Rules::default(), seed);
            let mut agents: Vec<Box<dyn Agent>> = if i % 2 == 0 {
                vec![Box::new(RulesAgent::default()), spec.build()]
            } else {
                vec![spec.build(), Box::new(RulesAgent::default())]
            };
            let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
            match play_hand(&mut g, &mut agents, &mut rngs) {
                Ok(_) => assert_eq!(g.phase(), Phase::Over),
                // Only the rules player is under test here.
                Err(e) => assert_ne!(e.agent, "rules", "rules vs {opp}, hand {i}: {e}"),
            }
        }
    }
}

/// No dead ends under the rule switches either (each one on its own, all
/// together, and three players).
#[test]
fn plays_under_the_rule_switches() {
    let switches = [
        ("opening", "table"),
        ("opening", "120"),
        ("opening", "90"),
        ("free_pickup_wild", "forbid"),
        ("free_pickup_return", "allow"),
        ("groups_per_rank", "many"),
        ("black_canasta_wilds", "convert_only"),
        ("wild_canasta", "open"),
        ("reshuffle", "on_draw"),
        ("version", "decorated-2003-01"),
    ];
    let mut all = Rules::default();
    let mut variants = Vec::new();
    for (k, v) in switches {
        let mut r = Rules::default();
        r.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
        all.set(k, v).unwrap();
        variants.push((format!("{k}={v}"), r));
    }
    variants.push(("all".into(), all));
    let mut three = Rules::default();
    three.set("players", "3").unwrap();
    variants.push(("players=3".into(), three));
    let greedy: AgentSpec = "greedy".parse().unwrap();
    for (name, rules) in variants {
        for i in 0..16u64 {
            let seed = derive_seed(0x5717C4, i);
            let mut g = GameState::new(rules, seed);
            let n = g.players();
            let mut agents: Vec<Box<dyn Agent>> = (0..n)
                .map(|p| -> Box<dyn Agent> {
                    if (p ^ i as usize) & 1 == 0 {
                        Box::new(RulesAgent::default())
                    } else {
                        greedy.build()
                    }
                })
                .collect();
            let mut rngs: Vec<_> = (0..n).map(|p| seat_rng(seed, p)).collect();
            // Only the rules player is under test: a slip of its greedy
            // opponent ends the hand without failing this test.
            if let Err(e) = play_hand(&mut g, &mut agents, &mut rngs) {
                assert_ne!(e.agent, "rules", "{name}, hand {i}: {e}");
                eprintln!("{name}, hand {i}: {e}");
            }
        }
    }
}

/// Strength: on 300 paired deals (each dealt twice, seats swapped) rules
/// wins more hands and more points than greedy, beyond the 95% margins.
#[test]
fn outscores_greedy_on_paired_deals() {
    let greedy: AgentSpec = "greedy".parse().unwrap();
    let (mut wins, mut hands) = (0u32, 0u32);
    let mut diffs = Vec::new();
    for d in 0..300u64 {
        let seed = derive_seed(0x5EED2, d);
        let mut pair = 0.0;
        for swap in [false, true] {
            let mut g = GameState::new(Rules::default(), seed);
            let mut agents: Vec<Box<dyn Agent>> = if swap {
                vec![
                    greedy.build(),
                    Box::new(RulesAgent::new(RulesParams::default())),
                ]
            } else {
                vec![
                    Box::new(RulesAgent::new(RulesParams::default())),
                    greedy.build(),
                ]
            };
            let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
            play_hand(&mut g, &mut agents, &mut rngs).unwrap();
            let s = g.scores();
            let (me, other) = if swap { (1, 0) } else { (0, 1) };
            let diff = (s[me].total - s[other].total) as f64;
            pair += diff;
            hands += 1;
            if diff > 0.0 {
                wins += 1;
            }
        }
        diffs.push(pair / 2.0);
    }
    let rate = wins as f64 / hands as f64;
    let se = (rate * (1.0 - rate) / hands as f64).sqrt();
    assert!(
        rate - 1.96 * se > 0.5,
        "hand win rate {rate:.3} ± {:.3}",
        1.96 * se
    );
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let var = diffs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    assert!(mean - half > 0.0, "mean difference {mean:.0} ± {half:.0}");
}
