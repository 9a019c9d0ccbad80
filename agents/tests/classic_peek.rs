//! No peeking in classic canasta (C-2, C-20): a player sees its own hand
//! and the tables, never its partner's hand nor an opponent's, nor the
//! stock's order. Two full states sampled from the mover's view — both
//! could be the truth — must get the same decision from a player with the
//! same seed, for every classic player, heads-up, three-handed and in
//! four-player partnerships.

use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::AgentSpec;
use kanaszta_engine::classic::{ClassicRules, ClassicState};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The classic players checked: every registered one, searchers on a
/// small budget.
fn specs() -> Vec<AgentSpec<ClassicState>> {
    kanaszta_agents::AGENTS
        .iter()
        .filter(|e| e.classic.is_some())
        .map(|e| match e.name {
            "ismcts" => "ismcts:iters=30".to_string(),
            "pimc" => "pimc:worlds=3".to_string(),
            name => name.to_string(),
        })
        .map(|text| {
            text.parse()
                .unwrap_or_else(|e| panic!("spec `{text}` does not parse: {e}"))
        })
        .collect()
}

/// Positions of hands played by greedy players, every few actions.
fn positions(players: usize, deals: u64) -> Vec<ClassicState> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for deal in 0..deals {
        let mut rules = ClassicRules::default();
        rules.set("players", &players.to_string()).unwrap();
        let mut g = ClassicState::new(rules, 100 + deal, 0, [0; 6]);
        let spec: AgentSpec<ClassicState> = "greedy".parse().unwrap();
        let mut agents: Vec<_> = (0..players).map(|_| spec.build()).collect();
        let mut rng = Pcg64Mcg::seed_from_u64(deal);
        let mut step = 0u32;
        while !g.is_terminal() {
            let p = g.current_player();
            g.legal_actions(&mut legal);
            if step.is_multiple_of(7) && g.turns() >= 2 {
                out.push(g.clone());
            }
            let a = agents[p].act(&g.view(p), &mut ClassicMoves::new(&legal), &mut rng);
            g.apply(a).unwrap();
            step += 1;
        }
    }
    out
}

#[test]
fn no_classic_decision_depends_on_hidden_cards() {
    let specs = specs();
    let (mut legal, mut legal2) = (Vec::new(), Vec::new());
    for players in [2usize, 3, 4] {
        let (mut checked, mut partner_differs) = (0, 0);
        for g in positions(players, 3) {
            let p = g.current_player();
            let view = g.view(p);
            let a = view.determinize(&mut Pcg64Mcg::seed_from_u64(1));
            let b = view.determinize(&mut Pcg64Mcg::seed_from_u64(2));
            // Both reveal to the mover exactly what the truth does…
            assert_eq!(format!("{:?}", a.view(p)), format!("{view:?}"));
            assert_eq!(format!("{:?}", b.view(p)), format!("{view:?}"));
            a.legal_actions(&mut legal);
            b.legal_actions(&mut legal2);
            assert_eq!(legal, legal2);
            // …and keep the mover's own hand.
            assert_eq!(a.hand(p), g.hand(p));
            if players == 4 && a.hand((p + 2) % 4) != b.hand((p + 2) % 4) {
                partner_differs += 1;
            }
            for spec in &specs {
                let mut choices = Vec::new();
                for state in [&g, &a, &b] {
                    let mut agent = spec.build();
                    let mut rng = Pcg64Mcg::seed_from_u64(77);
                    state.legal_actions(&mut legal);
                    let act = agent.act(&state.view(p), &mut ClassicMoves::new(&legal), &mut rng);
                    assert!(legal.contains(&act), "{spec}: illegal {act}");
                    choices.push(act);
                }
                assert!(
                    choices.iter().all(|c| *c == choices[0]),
                    "{spec} ({players} players) decided differently on states its seat cannot \
                     tell apart: {choices:?}"
                );
                checked += 1;
            }
        }
        assert!(
            checked >= 20 * specs.len(),
            "{players} players: only {checked} decisions"
        );
        if players == 4 {
            assert!(
                partner_differs >= 10,
                "the partner's hand differed in only {partner_differs} positions"
            );
        }
    }
}
