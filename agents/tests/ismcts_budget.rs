//! ISMCTS's budget and reward knobs: the budget goes where the decision
//! matters (`focus`), a clear search stops early (`early`), the race is a
//! switchable step (`race`), and the match-aware reward's estimate of the
//! match-win chance follows D-16.2.

use kanaszta_agents::search::match_win;
use kanaszta_agents::{
    Agent, AgentSpec, IsmctsAgent, IsmctsParams, Params, PimcParams, RulesAgent,
};
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
fn the_sound_search_is_the_default_and_the_old_one_is_reachable() {
    // The defaults are the sound search at a budget of milliseconds: a
    // short search, a short race of close options, a focused budget with
    // an early stop, the match-aware reward and rollouts without the turn
    // planner.
    let d = IsmctsParams::default();
    assert_eq!((d.iters, d.race, d.focus, d.early), (60, 16, 1.5, 3.0));
    assert_eq!((d.margin, d.stakes, d.rollout_plan), (2.5, true, false));
    // The budget before it is one spec away, the rest left at the defaults.
    let text = "ismcts:iters=500,race=64,focus=2";
    let s: AgentSpec = text.parse().expect("the keys parse");
    assert_eq!(s.to_string(), text);
    let p = s.params::<IsmctsParams>().expect("ismcts");
    assert_eq!((p.iters, p.race, p.focus, p.early), (500, 64, 2.0, 3.0));
    // The search as it was is one spec away, and its text is stable.
    let text = "ismcts:iters=1000,rollout_plan=on,margin=1.5,race=0,focus=1,early=0,stakes=off";
    let s: AgentSpec = text.parse().expect("the keys parse");
    assert_eq!(s.to_string(), text);
    let p = s.params::<IsmctsParams>().expect("ismcts");
    assert_eq!((p.iters, p.race, p.focus, p.early), (1000, 0, 1.0, 0.0));
    assert_eq!((p.margin, p.stakes, p.rollout_plan), (1.5, false, true));
}

/// The action a fresh agent of `spec` chooses at `g` with `seed`.
fn decide(spec: &str, g: &GameState, seed: u64) -> Action {
    let mut agent = spec.parse::<AgentSpec>().expect("a valid spec").build();
    let me = g.current_player();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    agent.act(&g.view(me), &mut g.moves(&mut MoveBuf::new()), &mut rng)
}

#[test]
fn rollouts_with_or_without_the_turn_planner_repeat_for_a_seed() {
    // `rollout_plan` switches the simulated rules policy's turn planner;
    // either way the same seed gives the same decision.
    let g = draw_or_pickup();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    for spec in [
        "ismcts:iters=24,race=8,rollout_plan=off",
        "ismcts:iters=24,race=8,rollout_plan=on",
        "pimc:worlds=4,rollout_plan=off",
        "pimc:worlds=4,rollout_plan=on",
    ] {
        let a = decide(spec, &g, 9);
        assert!(legal.contains(&a), "{spec}: {a} is legal");
        assert_eq!(decide(spec, &g, 9), a, "{spec}: same seed, same choice");
    }
    let p = "pimc:rollout_plan=off"
        .parse::<AgentSpec>()
        .expect("parses");
    assert!(!p.params::<PimcParams>().expect("pimc").rollout_plan);
    assert!(PimcParams::default().rollout_plan, "pimc plans by default");
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
