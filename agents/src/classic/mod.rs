//! Players of classic canasta (C-1 … C-24), the second rule family.
//!
//! A classic player sees one seat's [`ClassicView`] — its own hand, the
//! sides' tables, the pile, the counts; its partner's hand is hidden like
//! an opponent's — and chooses among the legal actions the engine listed,
//! drawing randomness from its own seeded generator: an
//! [`Agent<ClassicState>`](crate::Agent), choosing from [`ClassicMoves`].

pub mod greedy;
pub mod play;
pub mod rules;
pub mod search;

use crate::spec::{ParamDoc, ParamError, Params};
use crate::Agent;
use kanaszta_engine::classic::{ClassicAction, ClassicState, ClassicView};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

pub use crate::family::{ClassicMoves, ClassicScratch};

/// Uniform among the legal actions.
#[derive(Clone, Debug, Default)]
pub struct ClassicRandom;

impl Agent<ClassicState> for ClassicRandom {
    fn name(&self) -> String {
        "random".into()
    }

    fn act(
        &mut self,
        _view: &ClassicView<'_>,
        moves: &mut ClassicMoves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        let legal = moves.all();
        legal[rng.random_range(0..legal.len())]
    }
}

/// The parameters of [`ClassicRandom`]: none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassicRandomParams;

/// The parameters of [`greedy::ClassicGreedy`]: none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassicGreedyParams;

macro_rules! no_params {
    ($Name:ty, $name:expr, $summary:expr, $build:expr) => {
        impl Params<ClassicState> for $Name {
            const NAME: &'static str = $name;
            const SUMMARY: &'static str = $summary;
            fn docs() -> &'static [ParamDoc] {
                &[]
            }
            fn set(&mut self, key: &str, _value: &str) -> Result<(), ParamError> {
                Err(ParamError::UnknownKey(key.to_string()))
            }
            fn get(&self, _key: &str) -> Option<String> {
                None
            }
            fn build(&self) -> Box<dyn Agent<ClassicState>> {
                Box::new($build)
            }
        }
    };
}
no_params!(
    ClassicRandomParams,
    "random",
    "uniform among the legal actions",
    ClassicRandom
);
no_params!(
    ClassicGreedyParams,
    "greedy",
    "melds what scores now, takes the pile with naturals, goes out when it can, discards its least useful card",
    greedy::ClassicGreedy
);

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::classic::ClassicRules;
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
                    let a = agent.act(&g.view(p), &mut ClassicMoves::new(&legal), &mut rng);
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
