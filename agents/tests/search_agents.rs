//! The search agents (`ismcts`, `pimc`): their specs, complete hands without
//! an illegal action, and that no agent's decision depends on cards its seat
//! cannot see.

use kanaszta_agents::search::{Macro, Stage};
use kanaszta_agents::{
    play_hand, seat_rng, Agent, AgentSpec, IsmctsAgent, IsmctsParams, PimcAgent, PimcParams,
};
use kanaszta_engine::{Action, GameState, MoveBuf, Phase, Rules};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn spec(text: &str) -> AgentSpec {
    text.parse()
        .unwrap_or_else(|e| panic!("`{text}` should parse: {e}"))
}

#[test]
fn search_specs_round_trip_through_their_text() {
    for text in [
        "ismcts:iters=1234,worlds=17,time=45,c=1.25,rollout=random,depth=5,horizon=3,check=9,margin=0.07,win=0.8,scale=1500",
        "ismcts:iters=77",
        "ismcts:rollout=greedy",
        "pimc:worlds=7,time=45,rollout=random,depth=5,margin=0.07,win=0.8,scale=1500",
        "pimc:rollout=greedy",
    ] {
        let s = spec(text);
        assert_eq!(s.to_string(), text);
        assert_eq!(spec(&s.to_string()), s);
    }
    // The example: every key is accepted and its text is stable.
    let s = spec("ismcts:iters=1000,c=0.7,rollout=greedy");
    let Some(p) = s.params::<IsmctsParams>() else {
        panic!("not ismcts: {s:?}")
    };
    assert_eq!((p.iters, p.c), (1000, 0.7));
    assert_eq!(spec(&s.to_string()), s);
    assert_eq!(s.build().name(), "ismcts");
    assert_eq!(spec("pimc:worlds=20,time=0").build().name(), "pimc");
}

#[test]
fn bad_search_parameters_say_what_is_accepted() {
    for (text, want) in [
        ("ismcts:rollout=mcts", "random|greedy|rules"),
        ("ismcts:c=-1", "from 0 to 100"),
        ("ismcts:iters=0", "from 1 to 10000000"),
        ("ismcts:time=fast", "from 0 to 600000"),
        ("ismcts:players=3", "iters="),
        ("ismcts:horizon=-1", "from 0 to 1000"),
        ("pimc:worlds=0", "from 1 to 1000000"),
        ("pimc:rollout=ismcts", "random|greedy|rules"),
        ("pimc:iters=10", "worlds="),
        ("ismcts:rollout_plan=maybe", "expected on or off"),
        ("pimc:rollout_plan=2", "expected on or off"),
    ] {
        let e = text.parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains(want), "`{text}`: {e}");
    }
    let help = AgentSpec::help();
    for key in [
        "iters", "c", "rollout", "depth", "worlds", "time", "win", "scale", "horizon", "check",
    ] {
        assert!(help.contains(key), "help lacks `{key}`: {help}");
    }
}

fn play_hands(a: &str, b: &str, deals: u64) {
    for seed in 0..deals {
        for swap in [false, true] {
            let mut g = GameState::new(Rules::default(), 1000 + seed);
            let (x, y) = if swap { (b, a) } else { (a, b) };
            let mut agents: Vec<Box<dyn Agent>> = vec![spec(x).build(), spec(y).build()];
            let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
            if let Err(e) = play_hand(&mut g, &mut agents, &mut rngs) {
                panic!("{x} vs {y}, seed {seed}: {e}");
            }
            assert!(g.is_terminal());
        }
    }
}

#[test]
fn ismcts_plays_complete_hands_legally() {
    play_hands("ismcts:iters=30,race=0,check=8", "greedy", 5);
    play_hands(
        "ismcts:iters=20,rollout=random,depth=3,race=0,check=0",
        "random",
        3,
    );
    play_hands(
        "ismcts:iters=20,rollout=rules,race=0,check=4,time=20",
        "rules",
        2,
    );
}

#[test]
fn pimc_plays_complete_hands_legally() {
    play_hands("pimc:worlds=3", "greedy", 5);
    play_hands(
        "pimc:worlds=2,rollout=random,depth=3",
        "ismcts:iters=10,race=8",
        3,
    );
    play_hands("pimc:worlds=2,rollout=rules", "rules", 2);
}

/// Positions of greedy self-play where the mover has a real choice, of
/// every phase: a few per hand.
fn positions(seeds: std::ops::Range<u64>, per_hand: usize) -> Vec<GameState> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in seeds {
        let mut g = GameState::new(Rules::default(), seed);
        let mut agents: Vec<Box<dyn Agent>> = vec![spec("greedy").build(), spec("greedy").build()];
        let mut rngs = [seat_rng(seed, 0), seat_rng(seed, 1)];
        let mut taken = [0usize; 4];
        let mut step = 0u64;
        while !g.is_terminal() {
            g.legal_actions(&mut legal);
            let p = g.current_player();
            let kind = match g.phase() {
                Phase::Cut | Phase::FirstDiscard => 0,
                Phase::Draw => 1,
                Phase::Meld if legal.iter().any(|a| matches!(a, Action::Discard(_))) => 2,
                _ => 3,
            };
            step += 1;
            if legal.len() > 1 && taken[kind] < per_hand && (step + seed).is_multiple_of(5) {
                taken[kind] += 1;
                out.push(g.clone());
            }
            let a = agents[p].act(&g.view(p), &mut g.moves(&mut MoveBuf::new()), &mut rngs[p]);
            g.apply(a).unwrap();
        }
    }
    out
}

/// No peeking: two full states that differ only in what the mover cannot
/// see (other hands, stock order) — both sampled from the mover's view, so
/// both could be the truth — get the same decision from an agent with the
/// same seed. Covers every agent kind.
#[test]
fn no_agent_decision_depends_on_hidden_cards() {
    let agents = [
        "random",
        "greedy",
        "rules",
        "ismcts:iters=40,race=8",
        "ismcts:iters=25,rollout=random,depth=6,race=0,check=6",
        "pimc:worlds=4",
    ];
    let mut legal = Vec::new();
    let mut legal2 = Vec::new();
    let mut checked = 0;
    let mut differing = 0;
    for g in positions(0..4, 2) {
        let p = g.current_player();
        let view = g.view(p);
        let a = view.determinize(&mut Pcg64Mcg::seed_from_u64(1));
        let b = view.determinize(&mut Pcg64Mcg::seed_from_u64(2));
        // Both are consistent with the mover's view and reveal the same to it…
        let (va, vb) = (a.view(p), b.view(p));
        assert_eq!(format!("{va:?}"), format!("{view:?}"));
        assert_eq!(format!("{vb:?}"), format!("{view:?}"));
        a.legal_actions(&mut legal);
        b.legal_actions(&mut legal2);
        assert_eq!(legal, legal2);
        // …while what it cannot see differs.
        let hidden_differs =
            (0..g.players()).any(|q| q != p && a.hand(q) != b.hand(q)) || a.stock() != b.stock();
        if hidden_differs {
            differing += 1;
        }
        for text in agents {
            let s = spec(text);
            let mut choices = Vec::new();
            for state in [&g, &a, &b] {
                let mut agent = s.build();
                let mut rng = Pcg64Mcg::seed_from_u64(77);
                let act = agent.act(
                    &state.view(p),
                    &mut state.moves(&mut MoveBuf::new()),
                    &mut rng,
                );
                assert!(legal.contains(&act), "{text}: illegal {act}");
                choices.push(act);
            }
            assert!(
                choices.iter().all(|c| *c == choices[0]),
                "{text} decided differently on states its seat cannot tell apart: {choices:?} (phase {:?})",
                g.phase()
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} decisions checked");
    assert!(
        differing >= 5,
        "hidden cards differed in only {differing} positions"
    );
}

/// The determinizer samples the hidden cards; it cannot return the true
/// ones by construction (the view does not hold them): early in a hand,
/// where 14 opponent cards are hidden, samples essentially never match the
/// truth, and they always respect what the seat knows.
#[test]
fn determinizations_do_not_reproduce_the_true_hidden_cards() {
    let mut legal = Vec::new();
    let mut g = GameState::new(Rules::default(), 5);
    // Play greedily to the second player's first draw.
    let mut agents: Vec<Box<dyn Agent>> = vec![spec("greedy").build(), spec("greedy").build()];
    let mut rngs = [seat_rng(5, 0), seat_rng(5, 1)];
    while g.turns() < 1 || g.phase() != Phase::Draw {
        g.legal_actions(&mut legal);
        let p = g.current_player();
        let a = agents[p].act(&g.view(p), &mut g.moves(&mut MoveBuf::new()), &mut rngs[p]);
        g.apply(a).unwrap();
    }
    let me = g.current_player();
    let opp = 1 - me;
    let view = g.view(me);
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    let (mut same_hand, mut same_stock) = (0, 0);
    let mut seen_hands = std::collections::HashSet::new();
    for _ in 0..200 {
        let d = view.determinize(&mut rng);
        assert_eq!(d.hand(me), g.hand(me));
        assert_eq!(d.hand(opp).len(), g.hand(opp).len());
        assert!(d.hand(opp).contains_all(g.known(opp)));
        assert_eq!(d.stock().len(), g.stock().len());
        assert_eq!(
            &d.stock()[..g.stock_known_bottom()],
            &g.stock()[..g.stock_known_bottom()]
        );
        same_hand += (d.hand(opp) == g.hand(opp)) as u32;
        same_stock += (d.stock() == g.stock()) as u32;
        seen_hands.insert(format!("{}", d.hand(opp)));
    }
    assert_eq!(same_hand, 0, "the sampler returned the true opponent hand");
    assert_eq!(same_stock, 0, "the sampler returned the true stock");
    assert!(seen_hands.len() > 190, "samples barely vary");
}

#[test]
fn ismcts_reports_its_search_cost() {
    let mut legal = Vec::new();
    let g = positions(3..8, 2)
        .into_iter()
        .find(|g| {
            g.legal_actions(&mut legal);
            g.phase() == Phase::Meld
                && legal
                    .iter()
                    .filter(|a| matches!(a, Action::Discard(_)))
                    .count()
                    > 1
        })
        .expect("a meld-phase position with a choice of discards");
    let p = g.current_player();
    let mut agent = IsmctsAgent::new(IsmctsParams {
        iters: 64,
        ..IsmctsParams::default()
    });
    let view = g.view(p);
    g.legal_actions(&mut legal);
    let opts: Vec<Macro> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Discard(c) => Some(Macro::Discard(*c)),
            _ => None,
        })
        .collect();
    assert!(opts.len() > 1);
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let stats = agent.search(&view, Stage::DiscardNow, &opts, &mut rng);
    let visits: u32 = stats.iter().map(|s| s.visits).sum();
    assert_eq!(visits, 64, "each iteration visits one root option");
    assert!(stats.iter().all(|s| opts.contains(&s.m)));
    let cost = agent.search_stats();
    assert_eq!((cost.searches, cost.iterations), (1, 64));
    assert!(cost.elapsed.as_nanos() > 0 && cost.iterations_per_second() > 0.0);
}

/// `PimcAgent::know`, the measuring tool of `benches/examples/oracle`: a
/// search told the whole state plays that state in every world, so its
/// values follow hidden cards its seat cannot see (two states of one view
/// get other values, the stock's order known or shuffled for each world),
/// and `know(None)` gives the honest search back.
#[test]
fn pimc_told_the_whole_state_searches_it() {
    let mut legal = Vec::new();
    let (mut checked, mut differing) = (0, 0);
    for g in positions(0..6, 2) {
        g.legal_actions(&mut legal);
        let opts: Vec<Macro> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Discard(c) => Some(Macro::Discard(*c)),
                _ => None,
            })
            .collect();
        if g.phase() != Phase::Meld || opts.len() < 2 {
            continue;
        }
        let p = g.current_player();
        let view = g.view(p);
        let other = view.determinize(&mut Pcg64Mcg::seed_from_u64(2));
        let values = |told: Option<&GameState>, then_forget: bool, shuffled: bool| {
            let mut agent = PimcAgent::new(PimcParams {
                worlds: 3,
                depth: 2,
                ..PimcParams::default()
            });
            agent.know(told, shuffled);
            if then_forget {
                agent.know(None, false);
            }
            agent.search(
                &view,
                Stage::DiscardNow,
                &opts,
                &mut Pcg64Mcg::seed_from_u64(7),
            )
        };
        let honest = values(None, false, false);
        assert_eq!(
            values(Some(&g), true, false),
            honest,
            "know(None) restores sampling"
        );
        for shuffled in [false, true] {
            if values(Some(&g), false, shuffled) != values(Some(&other), false, shuffled) {
                differing += 1;
            }
        }
        checked += 1;
    }
    assert!(
        checked >= 4,
        "only {checked} positions with a choice of discards"
    );
    assert!(
        differing >= checked,
        "told states of one view got the same values in {} of {} searches",
        2 * checked - differing,
        2 * checked
    );
}

/// `Agent::choices`: after a searched decision, the search agents report
/// every root option with its value and playouts, exactly one of them
/// played (the action returned) and one the policy's own; agents that
/// search nothing report nothing.
#[test]
fn search_agents_report_their_choices() {
    use kanaszta_agents::search::to_action;
    let g = GameState::new(Rules::default(), 21);
    let mut g = g;
    let mut legal = Vec::new();
    // The first decision with two ways to draw or pick up.
    loop {
        g.legal_actions(&mut legal);
        if g.phase() == Phase::Draw && legal.len() >= 2 {
            break;
        }
        let a = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Discard(_) | Action::KeepCut { .. }))
            .unwrap_or(legal[0]);
        g.apply(a).unwrap();
    }
    for spec in ["ismcts:iters=80,race=8", "pimc:worlds=6"] {
        let mut agent = spec.parse::<AgentSpec>().unwrap().build();
        let mut buf = MoveBuf::new();
        let p = g.current_player();
        let mut rng = seat_rng(5, p);
        let a = agent.act(&g.view(p), &mut g.moves(&mut buf), &mut rng);
        let ch = agent.choices();
        assert_eq!(ch.len(), legal.len(), "{spec}: {ch:?}");
        assert_eq!(ch.iter().filter(|c| c.chosen).count(), 1, "{spec}");
        assert_eq!(ch.iter().filter(|c| c.policy).count(), 1, "{spec}");
        let played = ch.iter().find(|c| c.chosen).unwrap();
        assert_eq!(to_action(played.option), Some(a), "{spec}");
        assert!(
            ch.iter().all(|c| c.visits > 0 && c.value.abs() <= 1.0),
            "{spec}"
        );
    }
    let mut rules = "rules".parse::<AgentSpec>().unwrap().build();
    let mut buf = MoveBuf::new();
    let p = g.current_player();
    rules.act(&g.view(p), &mut g.moves(&mut buf), &mut seat_rng(5, p));
    assert!(rules.choices().is_empty());
}

/// `Agent::search_totals`: the search agents count every search and every
/// one whose move was not the policy's own. Through a hand of each (with
/// no margin, so that they leave the policy often), wherever an action ran
/// one search its count of departures rises exactly when its choices show
/// the played option apart from the policy's, that option alone carrying
/// the lead that decided it; and the counts rise somewhere. Agents that
/// do not search count nothing.
#[test]
fn search_agents_count_where_they_leave_their_policy() {
    for spec in ["ismcts:iters=60,race=8,margin=0", "pimc:worlds=6,margin=0"] {
        let mut g = GameState::new(Rules::default(), 4);
        let mut agents: Vec<Box<dyn Agent>> = vec![
            spec.parse::<AgentSpec>().unwrap().build(),
            "rules".parse::<AgentSpec>().unwrap().build(),
        ];
        let mut rngs = [seat_rng(4, 0), seat_rng(4, 1)];
        let mut buf = MoveBuf::new();
        let (mut single, mut departed) = (0, 0);
        for a in agents.iter_mut() {
            a.restart();
        }
        while !g.is_terminal() && g.turns() < 200 {
            let p = g.current_player();
            let before = agents[p].search_totals();
            let a = agents[p].act(&g.view(p), &mut g.moves(&mut buf), &mut rngs[p]);
            let after = agents[p].search_totals();
            if p == 1 {
                assert_eq!((before, after), (None, None));
            } else {
                let (b, n) = (before.unwrap(), after.unwrap());
                assert!(n.departures - b.departures <= n.searches - b.searches);
                if n.searches - b.searches == 1 {
                    single += 1;
                    let ch = agents[p].choices();
                    let shown = ch.iter().any(|c| c.chosen && !c.policy);
                    // The lead that decided a departure is on the option
                    // played, and only there; with no margin, any lead above 0.
                    for c in ch {
                        match c.lead {
                            Some((d, se)) => assert!(c.chosen && !c.policy && d > 0.0 && se >= 0.0),
                            None => assert!(!c.chosen || c.policy || spec.starts_with("ismcts")),
                        }
                    }
                    assert_eq!(n.departures - b.departures, u64::from(shown), "{spec}");
                    departed += u64::from(shown);
                }
            }
            g.apply(a).unwrap();
            for s in agents.iter_mut() {
                s.inform(p, a);
            }
        }
        assert!(
            single > 5 && departed > 0,
            "{spec}: {single} searches, {departed} left"
        );
    }
}
