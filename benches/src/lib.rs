//! Benchmarks of the kanaszta engine. Criterion benchmarks are added by the
//! performance work; this crate holds the shared workloads.

use kanaszta_engine::{Action, GameState, Rules};

/// Plays one hand with a fixed simple policy (draw, discard the first card
/// listed, keep no cut card) and returns the number of actions applied.
pub fn simple_hand(seed: u64) -> u64 {
    let mut g = GameState::new(Rules::default(), seed);
    let mut legal = Vec::new();
    let mut n = 0;
    while !g.is_terminal() {
        g.legal_actions(&mut legal);
        let a = legal
            .iter()
            .copied()
            .find(|a| {
                matches!(
                    a,
                    Action::Draw | Action::Discard(_) | Action::KeepCut { .. }
                )
            })
            .unwrap_or(legal[0]);
        g.apply_unchecked(a);
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    #[test]
    fn simple_hand_ends() {
        assert!(super::simple_hand(1) > 10);
    }
}
