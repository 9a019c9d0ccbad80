//! Players of classic canasta (C-1 … C-24), the second rule family.
//!
//! A classic player sees one seat's [`ClassicView`] — its own hand, the
//! sides' tables, the pile, the counts; its partner's hand is hidden like
//! an opponent's — and chooses among the legal actions the engine listed,
//! drawing randomness from its own seeded generator, as [`crate::Agent`]
//! does for decorated canasta.

pub mod greedy;
pub mod play;
pub mod registry;
pub mod rules;
pub mod search;

use kanaszta_engine::classic::{ClassicAction, ClassicView};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

/// A player of classic canasta.
pub trait ClassicAgent: Send {
    /// The agent's spec name, e.g. `random`.
    fn name(&self) -> String;
    /// Chooses one of `legal` (never empty) for the seat of `view`, which
    /// is the mover. Returning an action that is not listed is an error of
    /// the game.
    fn act(
        &mut self,
        view: &ClassicView<'_>,
        legal: &[ClassicAction],
        rng: &mut Pcg64Mcg,
    ) -> ClassicAction;
    /// Told what a player did (every action of the hand, in order, its own
    /// included).
    fn inform(&mut self, _player: usize, _action: ClassicAction) {}
    /// Called before each new hand.
    fn restart(&mut self) {}
}

/// Uniform among the legal actions.
#[derive(Clone, Debug, Default)]
pub struct ClassicRandom;

impl ClassicAgent for ClassicRandom {
    fn name(&self) -> String {
        "random".into()
    }

    fn act(
        &mut self,
        _view: &ClassicView<'_>,
        legal: &[ClassicAction],
        rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        legal[rng.random_range(0..legal.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::classic::{ClassicRules, ClassicState};
    use rand::SeedableRng;

    /// Random classic players finish hands under every preset, each
    /// choosing only listed actions.
    #[test]
    fn random_players_finish_classic_hands() {
        for preset in ["classic-002", "classic-003", "classic-004"] {
            for players in [2usize, 4] {
                let mut rules = ClassicRules::preset(preset).unwrap();
                rules.set("players", &players.to_string()).unwrap();
                let mut g = ClassicState::new(rules, 7, 0, [0; 6]);
                let mut agent = ClassicRandom;
                let mut rng = Pcg64Mcg::seed_from_u64(7);
                let mut legal = Vec::new();
                let mut steps = 0;
                while !g.is_terminal() {
                    let p = g.current_player();
                    g.view(p).legal_actions(&mut legal);
                    assert!(!legal.is_empty());
                    let a = agent.act(&g.view(p), &legal, &mut rng);
                    assert!(legal.contains(&a));
                    g.apply(a).unwrap();
                    steps += 1;
                    assert!(
                        steps < 1_000_000,
                        "{preset} {players}p: the hand never ends"
                    );
                }
            }
        }
    }
}
