//! ISMCTS's budget and reward knobs: the budget goes where the decision
//! matters (`focus`), a clear search stops early (`early`), the race is a
//! switchable step (`race`), and the match-aware reward's estimate of the
//! match-win chance follows D-16.2.

use kanaszta_agents::search::match_win;
use kanaszta_agents::{Agent, AgentSpec, IsmctsAgent, IsmctsParams, Params, RulesAgent};
use kanaszta_engine::{Action, GameState, MoveBuf, Phase, Rules};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// A position from a seeded game of rules against rules where the seat
/// may draw or take the pile.
fn draw_or_pickup() -> GameState {
    let mut legal = Vec::new();
    let mut buf = MoveBuf::new();
    for seed in 0u64..50 {
        let mut g = GameState::new(Rules::default(), 500 + seed);
        let mut agents = [RulesAgent::default(), RulesAgent::default()];
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        while !g.is_terminal() && g.turns() < 60 {
            g.legal_actions(&mut legal);
            if g.phase() == Phase::Draw && legal.contains(&Action::TakePile) && g.turns() > 4 {
                return g;
            }
            let me = g.current_player();
            let a = agents[me].act(&g.view(me), &mut g.moves(&mut buf), &mut rng);
            g.apply(a).expect("the rules agent plays legal actions");
        }
    }
    panic!("no draw-or-pickup position in 50 games");
}

fn iterations(spec: &str, g: &GameState) -> u64 {
    let mut p = IsmctsParams::default();
    for kv in spec.split(',') {
        let (k, v) = kv.split_once('=').expect("key=value");
        p.set(k, v).expect("a known ismcts parameter");
    }
    let mut agent = IsmctsAgent::new(p);
    let me = g.current_player();
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    agent.act(&g.view(me), &mut g.moves(&mut MoveBuf::new()), &mut rng);
    agent.search_stats().iterations
}

#[test]
fn draw_or_pickup_gets_focus_times_the_budget() {
    let g = draw_or_pickup();
    let plain = "iters=30,race=0,early=0";
    assert_eq!(iterations(&format!("{plain},focus=1"), &g), 30);
    assert_eq!(iterations(&format!("{plain},focus=2"), &g), 60);
    // An early stop spends at most the budget, and at least its quarter.
    let n = iterations("iters=200,race=0,early=0.5", &g);
    assert!((50..=400).contains(&n), "{n} iterations");
}

#[test]
fn the_sound_search_is_reachable_by_its_keys() {
    // The defaults are the search as it was; the race, the focused budget,
    // the early stop and the match-aware reward are switched on by keys.
    let text = "ismcts:margin=2.5,race=64,focus=2,early=3,stakes=on";
    let s: AgentSpec = text.parse().expect("the keys parse");
    assert_eq!(s.to_string(), text);
    let p = s.params::<IsmctsParams>().expect("ismcts");
    assert_eq!((p.race, p.focus, p.early, p.stakes), (64, 2.0, 3.0, true));
    assert_eq!(p.margin, 2.5);
    let d = IsmctsParams::default();
    assert_eq!((d.race, d.focus, d.early, d.stakes), (0, 1.0, 0.0, false));
    assert_eq!(d.margin, 1.5);
}

#[test]
fn match_win_chance_follows_d_16_2() {
    let target = 10_000.0;
    // D-16.2: decided once a total is strictly above the target; the
    // higher total wins; an exact tie plays on (even).
    assert_eq!(match_win(10_050.0, 9_990.0, target), 1.0);
    assert_eq!(match_win(9_990.0, 10_050.0, target), 0.0);
    assert_eq!(match_win(10_200.0, 10_400.0, target), 0.0);
    assert_eq!(match_win(10_300.0, 10_300.0, target), 0.5);
    // Exactly the target is not past it.
    assert!(match_win(10_000.0, 9_000.0, target) < 1.0);
    // Even scores are even; a lead counts more the nearer the end.
    assert!((match_win(3_000.0, 3_000.0, target) - 0.5).abs() < 1e-12);
    let early = match_win(1_500.0, 0.0, target);
    let late = match_win(9_500.0, 8_000.0, target);
    assert!(0.5 < early && early < late && late < 1.0, "{early} {late}");
}
