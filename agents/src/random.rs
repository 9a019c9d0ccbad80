//! `random`: uniform among legal actions, with a sane way to end the meld
//! phase so hands finish.

use crate::agent_params;
use crate::spec::{range, switch, Params};
use crate::{Agent, Moves, TurnFinisher};
use kanaszta_engine::{Action, SeatView};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

agent_params! {
    /// Parameters of [`RandomAgent`].
    pub struct RandomParams for RandomAgent {
        name: "random",
        summary: "uniform among legal actions; discards with a set probability; never undoes a meld phase unless forced",
        /// Probability of choosing a discard whenever one is legal.
        discard: f64 = 0.3, range(0.0, 1.0), "0..1", "probability of discarding whenever a discard is legal";
        /// Meld actions in one turn before it finishes the turn deliberately.
        patience: u32 = 40, range(1, 10_000), "1..10000", "meld actions in a turn before it ends the turn by the shortest way";
        /// Draws from the whole listing (every candidate checked) instead
        /// of sampling one candidate at a time.
        listed: bool = false, switch, "on|off", "on: draws from the whole listing, every step checked first (the same choices in law, other choices for a seed: the play of earlier versions)";
        /// Where the finisher's usual search finds no way to end the
        /// turn, walks it ([`crate::walk_to_discard`]) instead of
        /// searching deeper (on by default; off: the play of earlier
        /// versions).
        walk: bool = true, switch, "on|off", "on: where the usual search (5,000 states) finds no way to end a turn, walks it by listed steps (I-9) instead of searching 200,000 and 2,000,000 states; off: searches them (the play of earlier versions)";
    }
}

/// Uniform among legal actions, with a sane way to end the meld phase: when
/// a discard is legal it discards with probability `discard`, and it never
/// undoes a meld phase (`reset`) unless nothing else is legal. After
/// `patience` meld actions in one turn it finishes the turn by the engine's
/// completion search (needed when a short pickup opening obliges it to go
/// out, I-26).
///
/// It samples ([`sample_choice`]): a candidate drawn, only that one
/// checked, drawn again if refused. With `listed` it draws from the whole
/// listing ([`random_choice`]): each action as likely as when sampled, but
/// every candidate is checked first and a seed gives other choices.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent {
    params: RandomParams,
    finisher: TurnFinisher,
}

impl RandomAgent {
    /// A random agent with these parameters.
    pub fn new(params: RandomParams) -> RandomAgent {
        RandomAgent {
            params,
            finisher: TurnFinisher::default(),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        RandomParams::NAME.into()
    }

    fn restart(&mut self) {
        self.finisher.reset();
    }

    fn act(&mut self, view: &SeatView, moves: &mut Moves, rng: &mut Pcg64Mcg) -> Action {
        self.finisher.walk = self.params.walk;
        if self.params.listed {
            let legal = moves.all();
            if self.finisher.step(view) > self.params.patience {
                if let Some(a) = self.finisher.next(view, legal, rng) {
                    return a;
                }
            }
            return random_choice(legal, self.params.discard, rng);
        }
        if self.finisher.step(view) > self.params.patience {
            if let Some(a) = self.finisher.next_with(view, &mut |a| moves.lists(a), rng) {
                return a;
            }
        }
        sample_choice(moves, self.params.discard, rng)
    }
}

/// The random agent's choice: a discard with probability `discard_bias` when
/// one is legal, otherwise uniform over the actions other than `reset`.
pub fn random_choice(legal: &[Action], discard_bias: f64, rng: &mut Pcg64Mcg) -> Action {
    let discards = legal
        .iter()
        .filter(|a| matches!(a, Action::Discard(_)))
        .count();
    if discards > 0 && rng.random_bool(discard_bias) {
        let k = rng.random_range(0..discards);
        if let Some(a) = legal
            .iter()
            .filter(|a| matches!(a, Action::Discard(_)))
            .nth(k)
        {
            return *a;
        }
    }
    uniform_but_reset(legal, rng)
}

/// Uniform over the actions of `legal` other than `reset`; `legal[0]` if
/// there are none.
fn uniform_but_reset(legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
    let others = legal.iter().filter(|a| **a != Action::Reset).count();
    if others == 0 {
        return legal[0];
    }
    let k = rng.random_range(0..others);
    legal
        .iter()
        .filter(|a| **a != Action::Reset)
        .nth(k)
        .copied()
        .unwrap_or(legal[0])
}

/// Candidates drawn and refused before [`sample_choice`] takes the whole
/// listing instead: a bound on the checks one decision makes, never a
/// change of the odds.
pub const SAMPLE_REDRAWS: u32 = 16;

/// [`random_choice`]'s odds, sampled: in the meld phase a candidate of
/// [`Moves::actions`] is drawn uniformly and only it is checked
/// ([`Moves::is_listed`], the listing's own verdict), drawn again if
/// refused. Drawing from a superset until a member of the listing comes up
/// picks each listed action as often as drawing from the listing itself,
/// so each action is exactly as likely as with [`random_choice`] (a seed
/// gives other choices). After [`SAMPLE_REDRAWS`] refusals it draws from
/// the whole listing ([`Moves::all`]), which keeps the odds and bounds the
/// work. Outside the meld phase the moves are the listing: the same as
/// [`random_choice`].
pub fn sample_choice(moves: &mut Moves, discard_bias: f64, rng: &mut Pcg64Mcg) -> Action {
    if moves.is_complete() {
        return random_choice(moves.actions(), discard_bias, rng);
    }
    let (steps, ends) = (moves.steps(), moves.ends());
    // The discards come first among the ends, then the reset if any.
    let discards = ends
        .iter()
        .take_while(|a| matches!(a, Action::Discard(_)))
        .count();
    if moves.listed_discards() > 0 && rng.random_bool(discard_bias) {
        for _ in 0..SAMPLE_REDRAWS {
            let a = ends[rng.random_range(0..discards)];
            if moves.is_listed(a) {
                return a;
            }
        }
        let legal = moves.all();
        let listed = legal
            .iter()
            .filter(|a| matches!(a, Action::Discard(_)))
            .count();
        if listed > 0 {
            let k = rng.random_range(0..listed);
            if let Some(a) = legal
                .iter()
                .filter(|a| matches!(a, Action::Discard(_)))
                .nth(k)
            {
                return *a;
            }
        }
    }
    let n = steps.len() + discards;
    if n > 0 {
        for _ in 0..SAMPLE_REDRAWS {
            let k = rng.random_range(0..n);
            let a = if k < steps.len() {
                steps[k]
            } else {
                ends[k - steps.len()]
            };
            if moves.is_listed(a) {
                return a;
            }
        }
    }
    uniform_but_reset(moves.all(), rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AgentSpec;
    use kanaszta_engine::{GameState, MoveBuf, Phase, Rules};
    use rand::SeedableRng;

    fn agent(spec: &str) -> Box<dyn Agent> {
        spec.parse::<AgentSpec>().unwrap().build()
    }

    #[test]
    fn random_agent_finishes_hands_with_legal_actions() {
        let mut legal = Vec::new();
        for spec in ["random", "random:listed=on", "random:patience=3"] {
            for seed in 0..20 {
                let mut g = GameState::new(Rules::default(), seed);
                let mut agent = agent(spec);
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                let mut steps = 0;
                while !g.is_terminal() {
                    g.legal_actions(&mut legal);
                    let v = g.view(g.current_player());
                    let a = agent.act(&v, &mut g.moves(&mut MoveBuf::new()), &mut rng);
                    assert!(legal.contains(&a), "{spec}: {a} not listed");
                    g.apply(a).unwrap();
                    steps += 1;
                    assert!(steps < 100_000);
                }
            }
        }
    }

    /// The odds of [`random_choice`] over the listing `legal`.
    fn listed_odds(legal: &[Action], bias: f64) -> Vec<(Action, f64)> {
        let discards = legal
            .iter()
            .filter(|a| matches!(a, Action::Discard(_)))
            .count();
        let others = legal.iter().filter(|a| **a != Action::Reset).count();
        let bias = if discards > 0 { bias } else { 0.0 };
        legal
            .iter()
            .map(|&a| {
                let p = match a {
                    _ if others == 0 => 1.0,
                    Action::Reset => 0.0,
                    Action::Discard(_) => bias / discards as f64 + (1.0 - bias) / others as f64,
                    _ => (1.0 - bias) / others as f64,
                };
                (a, p)
            })
            .collect()
    }

    /// Sampling picks only listed actions, each as often as drawing from
    /// the whole listing does: on meld-phase positions of random play where
    /// some candidates are refused, the count of each action over many
    /// draws lies within five standard deviations of the listing's odds.
    #[test]
    fn sampling_keeps_the_odds_of_the_listing() {
        let (mut legal, mut cands) = (Vec::new(), Vec::new());
        let mut buf = MoveBuf::new();
        let mut checked = 0;
        for seed in 0..40 {
            let mut g = GameState::new(Rules::default(), seed);
            let mut player = agent("random:listed=on");
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            while !g.is_terminal() && checked < 12 {
                g.legal_actions(&mut legal);
                let moves = g.moves(&mut buf);
                cands.clear();
                cands.extend_from_slice(moves.actions());
                assert_eq!(moves.listed_discards() as usize, {
                    legal
                        .iter()
                        .filter(|a| matches!(a, Action::Discard(_)))
                        .count()
                });
                let refused = cands.iter().filter(|a| !legal.contains(a)).count();
                if g.phase() == Phase::Meld && refused > 0 && legal.len() > 2 {
                    checked += 1;
                    let bias = 0.3;
                    let n = 6_000u32;
                    let mut counts = vec![0u32; legal.len()];
                    let mut draw = Pcg64Mcg::seed_from_u64(1000 + seed);
                    for _ in 0..n {
                        let a = sample_choice(&mut g.moves(&mut buf), bias, &mut draw);
                        let i = legal.iter().position(|&l| l == a);
                        counts[i.unwrap_or_else(|| panic!("{a} not listed"))] += 1;
                    }
                    for (i, (a, p)) in listed_odds(&legal, bias).into_iter().enumerate() {
                        let expect = p * n as f64;
                        let sd = (n as f64 * p * (1.0 - p)).sqrt().max(1.0);
                        let got = counts[i] as f64;
                        assert!(
                            (got - expect).abs() <= 5.0 * sd,
                            "{a}: drawn {got} times of {n}, expected {expect:.0}"
                        );
                    }
                }
                let v = g.view(g.current_player());
                let a = player.act(&v, &mut g.moves(&mut buf), &mut rng);
                g.apply(a).unwrap();
            }
        }
        assert_eq!(checked, 12, "too few positions with refused candidates");
    }
}
