//! `ismcts` and `pimc` for classic canasta (C-1 … C-24), the searches of
//! `kanaszta_agents::generic` over the engine's `Game` interface: on a few
//! paired deals the search beats random clearly and holds its own against
//! greedy; anchored on `rules`, it plays `rules` but where it measures a
//! lead; a seed fixes its choices; its choice does not depend on cards
//! hidden from its seat (the other hands, the partner's among them, and
//! the stock); the same search plays decorated canasta through the trait;
//! and classic specs take parameters, refusing bad ones with what is
//! accepted.

use kanaszta_agents::classic::play::play_classic_hand;
use kanaszta_agents::classic::search::ClassicIsmctsParams;
use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::generic::ismcts::{Ismcts, IsmctsConfig};
use kanaszta_agents::generic::pimc::Pimc;
use kanaszta_agents::generic::Uniform;
use kanaszta_agents::seat_rng;
use kanaszta_agents::Agent;
use kanaszta_agents::{AgentSpec, SpecError};
use kanaszta_engine::classic::{ClassicAction, ClassicRules, ClassicState};
use kanaszta_engine::{Game, GameState, Rules};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn rules_for(players: usize) -> ClassicRules {
    let mut rules = ClassicRules::preset("classic-002").unwrap();
    rules.set("players", &players.to_string()).unwrap();
    rules
}

/// Over `deals` deals, each played twice with `a` holding side 0 then
/// side 1: A's hand wins (ties half) and the mean of A's side score minus
/// B's per paired deal.
fn duel(a: &str, b: &str, players: usize, deals: u64) -> (f64, f64) {
    let rules = rules_for(players);
    let (sa, sb): (AgentSpec<ClassicState>, AgentSpec<ClassicState>) =
        (a.parse().unwrap(), b.parse().unwrap());
    let (mut wins, mut diff) = (0.0, 0.0);
    for deal in 0..deals {
        for a_side in 0..2 {
            let seed = kanaszta_engine::seed::deal(23, deal);
            let mut g = ClassicState::new(rules, seed, 0, [0; 6]);
            let mut agents: Vec<Box<dyn Agent<ClassicState>>> = (0..players)
                .map(|p| {
                    if rules.side_of(p) == a_side {
                        sa.build()
                    } else {
                        sb.build()
                    }
                })
                .collect();
            let mut rngs: Vec<_> = (0..players).map(|p| seat_rng(seed, p)).collect();
            play_classic_hand(&mut g, &mut agents, &mut rngs).unwrap();
            let s = g.scores();
            let d = s[a_side] - s[1 - a_side];
            wins += match d.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            diff += f64::from(d);
        }
    }
    (wins / (2 * deals) as f64, diff / deals as f64)
}

/// Beats random by a clear margin at a modest budget, heads-up (C-23
/// hand scores).
#[test]
fn classic_ismcts_beats_random() {
    let (wins, diff) = duel("ismcts:iters=20", "random", 2, 3);
    eprintln!("ismcts:iters=20 against random: {wins:.2} of 6 hands, {diff:+.0} per paired deal");
    assert!(
        wins > 0.5 && diff > 500.0,
        "ismcts against random: {wins:.2} of 6 hands, {diff:+.0} per paired deal"
    );
}

/// Is at least level with greedy at a modest budget.
#[test]
fn classic_ismcts_holds_greedy() {
    let (wins, diff) = duel("ismcts:iters=30", "greedy", 2, 4);
    eprintln!("ismcts:iters=30 against greedy: {wins:.2} of 8 hands, {diff:+.0} per paired deal");
    assert!(
        wins >= 0.5 && diff > 0.0,
        "ismcts against greedy: {wins:.2} of 8 hands, {diff:+.0} per paired deal"
    );
}

/// PIMC too is better than random, in partnerships (C-20).
#[test]
fn classic_pimc_beats_random_in_partnerships() {
    let (wins, diff) = duel("pimc:worlds=2", "random", 4, 2);
    assert!(
        wins >= 0.75 && diff > 500.0,
        "pimc against random: {wins:.2} of 4 hands, {diff:+.0} per paired deal"
    );
}

/// Every action of a hand with `spec` in every seat.
fn actions_of(spec: &str, players: usize, seed: u64) -> Vec<ClassicAction> {
    let rules = rules_for(players);
    let spec: AgentSpec<ClassicState> = spec.parse().unwrap();
    let mut g = ClassicState::new(rules, seed, 0, [0; 6]);
    let mut agents: Vec<Box<dyn Agent<ClassicState>>> =
        (0..players).map(|_| spec.build()).collect();
    let mut rngs: Vec<_> = (0..players).map(|p| seat_rng(seed, p)).collect();
    let mut legal = Vec::new();
    let mut out = Vec::new();
    while !g.is_terminal() {
        let p = g.current_player();
        g.legal_actions(&mut legal);
        let a = agents[p].act(&g.view(p), &mut ClassicMoves::new(&legal), &mut rngs[p]);
        assert!(legal.contains(&a), "{a} is not listed");
        g.apply(a).unwrap();
        for ag in agents.iter_mut() {
            ag.inform(p, a);
        }
        out.push(a);
    }
    out
}

/// The same seed gives the same choices, move for move.
#[test]
fn a_seed_fixes_the_searches_choices() {
    for spec in ["ismcts:iters=8,rollout=rules", "pimc:worlds=1"] {
        let one = actions_of(spec, 2, 5);
        let two = actions_of(spec, 2, 5);
        assert_eq!(one, two, "{spec}");
        assert!(!one.is_empty());
    }
}

/// With `anchor=on` the club player `rules` chooses unless the search's
/// choice leads it clearly: with a margin no lead reaches, the anchored
/// search plays `rules` move for move; without a margin it leaves it
/// somewhere, and counts where.
#[test]
fn an_anchored_search_is_rules_unless_it_measures_a_lead() {
    for players in [2, 4] {
        let rules = actions_of("rules", players, 5);
        let anchored = actions_of(
            "ismcts:iters=8,rollout=rules,anchor=on,check=4,margin=100",
            players,
            5,
        );
        assert_eq!(anchored, rules, "{players} players");
    }
    let rules = rules_for(4);
    let spec: AgentSpec<ClassicState> = "ismcts:iters=8,rollout=rules,anchor=on,check=2,margin=0"
        .parse()
        .unwrap();
    let mut g = ClassicState::new(rules, 5, 0, [0; 6]);
    let mut agents: Vec<Box<dyn Agent<ClassicState>>> = (0..4).map(|_| spec.build()).collect();
    let mut rngs: Vec<_> = (0..4).map(|p| seat_rng(5, p)).collect();
    play_classic_hand(&mut g, &mut agents, &mut rngs).unwrap();
    let t = agents[0]
        .search_totals()
        .expect("an anchored search counts");
    assert!(t.searches > 0 && t.departures > 0, "{t:?}");
    assert!(t.departures < t.searches, "{t:?}");
    let plain: AgentSpec<ClassicState> = "ismcts:iters=8,anchor=off".parse().unwrap();
    assert_eq!(plain.build().search_totals(), None);
}

/// Decision points of seat-mixed greedy play: the state before every
/// `every`th action of a greedy hand.
fn positions(players: usize, seed: u64, every: usize) -> Vec<ClassicState> {
    let rules = rules_for(players);
    let greedy: AgentSpec<ClassicState> = "greedy".parse().unwrap();
    let mut g = ClassicState::new(rules, seed, 0, [0; 6]);
    let mut agents: Vec<Box<dyn Agent<ClassicState>>> =
        (0..players).map(|_| greedy.build()).collect();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut out = Vec::new();
    let mut i = 0;
    while !g.is_terminal() {
        let p = g.current_player();
        g.legal_actions(&mut legal);
        if i % every == 0 && legal.len() > 1 {
            out.push(g.clone());
        }
        let a = agents[p].act(&g.view(p), &mut ClassicMoves::new(&legal), &mut rng);
        g.apply(a).unwrap();
        i += 1;
    }
    out
}

/// The search's choice and, for ISMCTS, the visits of every root option,
/// with a fresh player and the same seed.
fn decide(spec: &str, g: &ClassicState) -> (ClassicAction, String) {
    let p = g.current_player();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let spec: AgentSpec<ClassicState> = spec.parse().unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(99);
    if let Some(params) = spec.params::<ClassicIsmctsParams>() {
        let mut agent = kanaszta_agents::classic::search::ClassicIsmcts::new(params.clone());
        let a = agent.act(&g.view(p), &mut ClassicMoves::new(&legal), &mut rng);
        (a, format!("{:?}", agent.search().root_visits()))
    } else {
        let mut agent = spec.build();
        (
            agent.act(&g.view(p), &mut ClassicMoves::new(&legal), &mut rng),
            String::new(),
        )
    }
}

/// Two states that differ only in cards hidden from the mover — the other
/// hands (a partner's too, C-20) and the order of the stock — give the
/// same decision, and the same tree, with the same seed: the search reads
/// nothing but the seat's view.
#[test]
fn the_searches_never_read_hidden_cards() {
    let mut checked = 0;
    for players in [2usize, 4] {
        for g in positions(players, 41 + players as u64, 25) {
            let p = g.current_player();
            // Another deal of what the mover cannot see.
            let mut deal = Pcg64Mcg::seed_from_u64(7 + checked);
            let h = g.view(p).determinize(&mut deal);
            assert_eq!(h.hand(p), g.hand(p));
            let differs = (0..players).any(|q| q != p && h.hand(q) != g.hand(q));
            for spec in ["ismcts:iters=40,rollout=rules", "pimc:worlds=2"] {
                let (a, tree_a) = decide(spec, &g);
                let (b, tree_b) = decide(spec, &h);
                assert_eq!(a, b, "{spec} {players}p at turn {}", g.turns());
                assert_eq!(tree_a, tree_b, "{spec} {players}p at turn {}", g.turns());
            }
            checked += u64::from(differs);
        }
    }
    assert!(
        checked >= 4,
        "only {checked} positions with hidden cards dealt otherwise"
    );
}

/// The search is written against `Game` only: it plays a decorated hand
/// to its end, every choice listed.
#[test]
fn the_generic_search_plays_decorated_canasta_through_the_trait() {
    let mut g = GameState::new(Rules::default(), 3);
    let config = IsmctsConfig {
        iters: 3,
        time_ms: 0,
        c: 0.7,
        scale: 1000.0,
    };
    let mut ismcts: Ismcts<GameState, Uniform> = Ismcts::new(config, Uniform);
    let mut pimc: Pimc<GameState, Uniform> = Pimc::new(1, 1000.0, Uniform);
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let mut legal = Vec::new();
    let mut steps = 0;
    while !Game::is_terminal(&g) {
        let p = Game::current_player(&g);
        Game::legal_actions(&g, &mut legal);
        let a = if p == 0 {
            ismcts.search(&Game::view(&g, p), &legal, &mut rng)
        } else {
            pimc.search(&Game::view(&g, p), &legal, &mut rng)
        };
        assert!(legal.contains(&a), "{a} is not listed");
        Game::apply(&mut g, a).unwrap();
        steps += 1;
        assert!(steps < 100_000, "the hand never ends");
    }
    assert!(Game::is_terminal(&g));
}

/// Classic specs take parameters as decorated specs do, and refuse bad
/// ones saying what is accepted.
#[test]
fn classic_specs_take_parameters_and_refuse_bad_ones() {
    for text in [
        "ismcts:iters=50,rollout=greedy",
        "ismcts:c=1.5,scale=500",
        "pimc:worlds=3,rollout=random",
        "ismcts:iters=50,depth=3",
        "ismcts:anchor=off,check=8,margin=2",
        "pimc:worlds=3,depth=2",
        "rules:open_wilds=2,concealed=off",
        "random",
    ] {
        let s: AgentSpec<ClassicState> = text.parse().unwrap();
        assert_eq!(s.to_string(), text);
        assert_eq!(s.to_string().parse::<AgentSpec<ClassicState>>().unwrap(), s);
        assert_eq!(s.build().name(), s.name());
    }
    // Defaults written out are dropped; case and spaces are forgiven.
    let s: AgentSpec<ClassicState> = " ISMCTS: iters = 100 , time=0".parse().unwrap();
    assert_eq!(s.to_string(), "ismcts");
    let err = |t: &str| t.parse::<AgentSpec<ClassicState>>().unwrap_err();
    // A key of the decorated search only.
    let e = err("ismcts:race=3");
    assert!(
        matches!(
            &e,
            SpecError::BadValue { .. } | SpecError::UnknownKey { .. }
        ),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("ismcts has no parameter `race`"), "{e}");
    assert!(
        e.contains("iters=1..10000000") && e.contains("rollout=random|greedy|rules"),
        "{e}"
    );
    let e = err("ismcts:iters=0").to_string();
    assert!(
        e.contains("bad value `0` for ismcts's `iters`") && e.contains("from 1 to 10000000"),
        "{e}"
    );
    let e = err("pimc:rollout=minimax").to_string();
    assert!(e.contains("expected one of random|greedy|rules"), "{e}");
    let e = err("pimc:worlds=2,worlds=3").to_string();
    assert!(e.contains("`worlds` is given twice"), "{e}");
    let e = err("ismcts:fast").to_string();
    assert!(
        e.contains("`fast` is not key=value") && e.contains("c=0..100"),
        "{e}"
    );
    let e = err("rules:open_wilds=9").to_string();
    assert!(e.contains("from 0 to 7"), "{e}");
    let e = err("random:x=1").to_string();
    assert!(
        e.contains("random has no parameter `x`; accepted: no parameters"),
        "{e}"
    );
    // A spec moved by key, as a sweep would.
    let s: AgentSpec<ClassicState> = "pimc".parse().unwrap();
    assert_eq!(s.with("worlds", "4").unwrap().to_string(), "pimc:worlds=4");
    assert!(s.with("worlds", "0").is_err());
    let b = s.bounds("worlds").unwrap();
    assert_eq!((b.lo, b.hi, b.integer), (1.0, 100_000.0, true));
}
