//! Shared by the classic duels (`tests/classic_rules.rs`,
//! `examples/classic_duel.rs`): a simple baseline player, one hand played
//! between classic players, and a 95% interval.

#![allow(dead_code)]

use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::Agent;
use kanaszta_engine::classic::{ClassicAction, ClassicRules, ClassicState, ClassicView};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// "Meld everything, discard the highest": takes any pile it may, draws
/// otherwise, lays and extends whatever is listed, discards its highest
/// card; never asks, always answers "yes".
pub struct MeldAll;

impl Agent<ClassicState> for MeldAll {
    fn name(&self) -> String {
        "meldall".into()
    }
    fn act(
        &mut self,
        _view: &ClassicView<'_>,
        moves: &mut ClassicMoves<'_>,
        _rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        let legal = moves.all();
        let find = |f: &dyn Fn(&ClassicAction) -> bool| legal.iter().copied().find(|a| f(a));
        if let Some(a) = find(&|a| matches!(a, ClassicAction::Answer(true))) {
            return a;
        }
        if let Some(a) = find(&|a| matches!(a, ClassicAction::TakePile { .. }))
            .or_else(|| find(&|a| *a == ClassicAction::TakeRest))
            .or_else(|| {
                find(&|a| matches!(a, ClassicAction::Lay { .. } | ClassicAction::Extend { .. }))
            })
        {
            return a;
        }
        if let Some(a) = find(&|a| *a == ClassicAction::Draw) {
            return a;
        }
        legal
            .iter()
            .copied()
            .filter_map(|a| match a {
                ClassicAction::Discard(k) => Some((k.value(), k.index(), a)),
                ClassicAction::End => Some((1000, 0, a)),
                _ => None,
            })
            .max_by_key(|&(v, i, _)| (v, i))
            .map(|(_, _, a)| a)
            .unwrap_or_else(|| {
                legal
                    .iter()
                    .copied()
                    .find(|a| !matches!(a, ClassicAction::TakeBack { .. } | ClassicAction::Reset))
                    .unwrap_or(legal[0])
            })
    }
}

/// Plays one hand; every agent is told every action. Returns the scores
/// by side.
pub fn play_hand(
    r: ClassicRules,
    seed: u64,
    agents: &mut [Box<dyn Agent<ClassicState>>],
) -> [i32; 6] {
    let mut g = ClassicState::new(r, seed, (seed % r.players as u64) as usize, [0; 6]);
    let mut rngs: Vec<Pcg64Mcg> = (0..r.players as u64)
        .map(|p| Pcg64Mcg::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(p)))
        .collect();
    for a in agents.iter_mut() {
        a.restart();
    }
    let mut legal = Vec::new();
    let mut steps = 0;
    while !g.is_terminal() {
        let p = g.current_player();
        g.view(p).legal_actions(&mut legal);
        let a = agents[p].act(&g.view(p), &mut ClassicMoves::new(&legal), &mut rngs[p]);
        assert!(
            legal.contains(&a),
            "{} chose {a}, not listed: {legal:?}",
            agents[p].name()
        );
        g.apply(a).unwrap();
        for ag in agents.iter_mut() {
            ag.inform(p, a);
        }
        steps += 1;
        assert!(steps < 200_000, "the hand never ends");
    }
    g.check_invariants().unwrap();
    g.scores()
}

/// Mean and 95% half-width.
pub fn interval(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, 1.96 * (v / n).sqrt())
}
