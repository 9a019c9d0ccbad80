//! Benchmarks of the kanaszta engine (criterion, `benches/engine.rs`) and
//! the workloads they share: whole hands under fixed policies and the
//! representative positions the per-call benchmarks start from.

use kanaszta_agents::{Agent, RandomAgent};
use kanaszta_engine::{Action, GameState, MoveBuf, Phase, Rules};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Plays one hand with a fixed simple policy (draw, discard the first card
/// listed, keep no cut card) and returns the number of actions applied.
pub fn simple_hand(seed: u64) -> u64 {
    let mut g = GameState::new(Rules::default(), seed);
    let mut legal = Vec::new();
    let mut n = 0;
    while !g.is_terminal() {
        g.legal_actions(&mut legal);
        let a = simple_choice(&legal);
        g.apply(a).expect("a listed action");
        n += 1;
    }
    n
}

/// The simple policy of [`simple_hand`]: draw, discard the first card
/// listed, keep no cut card; otherwise the first legal action.
pub fn simple_choice(legal: &[Action]) -> Action {
    legal
        .iter()
        .copied()
        .find(|a| {
            matches!(
                a,
                Action::Draw | Action::Discard(_) | Action::KeepCut { .. }
            )
        })
        .unwrap_or(legal[0])
}

/// Plays one hand between two [`RandomAgent`]s (each seat its own agent,
/// one generator per hand) and returns the final state.
pub fn random_hand(seed: u64) -> (GameState, u64) {
    let mut g = GameState::new(Rules::default(), seed);
    let mut agents = [RandomAgent::default(), RandomAgent::default()];
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5EED);
    let mut buf = MoveBuf::new();
    let mut n = 0;
    while !g.is_terminal() {
        let p = g.current_player();
        let view = g.view(p);
        let a = agents[p].act(&view, &mut g.moves(&mut buf), &mut rng);
        g.apply(a).expect("a listed action");
        n += 1;
    }
    (g, n)
}

/// The first state reached by random agents (hands from seed 0 on) that
/// satisfies `pred`; `None` if 200 hands do not reach one.
pub fn find_state(pred: impl Fn(&GameState) -> bool) -> Option<GameState> {
    let mut buf = MoveBuf::new();
    for seed in 0..200 {
        let mut g = GameState::new(Rules::default(), seed);
        let mut agents = [RandomAgent::default(), RandomAgent::default()];
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        while !g.is_terminal() {
            if pred(&g) {
                return Some(g);
            }
            let p = g.current_player();
            let a = agents[p].act(&g.view(p), &mut g.moves(&mut buf), &mut rng);
            g.apply(a).expect("a listed action");
        }
    }
    None
}

/// A draw-phase state with a pile that may be taken.
pub fn draw_state() -> GameState {
    find_state(|g| g.phase() == Phase::Draw && legal(g).contains(&Action::TakePile))
        .expect("a draw phase with the pile takeable")
}

/// A plain meld phase of an opened player with three or more groups and
/// eight or more cards in hand, some of which extend a group.
pub fn meld_state() -> GameState {
    find_state(|g| {
        let p = g.current_player();
        let t = g.table(p);
        g.phase() == Phase::Meld
            && t.opened
            && t.len() >= 3
            && g.pickup().is_none()
            && g.pending_wilds().is_empty()
            && g.hand(p).len() >= 8
            && t.groups()
                .iter()
                .any(|gr| gr.rank().is_some_and(|r| g.hand(p).rank_count(r) > 0))
    })
    .expect("an opened meld phase")
}

/// A meld phase during a penalized pickup, before the rest is taken.
pub fn pickup_state() -> GameState {
    find_state(|g| g.phase() == Phase::Meld && g.pickup().is_some_and(|pk| !pk.rest_taken))
        .expect("a pickup in progress")
}

/// The legal actions of `g`.
fn legal(g: &GameState) -> Vec<Action> {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    legal
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::CardSet;

    #[test]
    fn simple_hand_ends() {
        assert!(super::simple_hand(1) > 10);
    }

    #[test]
    fn random_hand_ends_with_all_cards() {
        let (g, n) = random_hand(3);
        assert!(g.is_terminal() && n > 10);
        assert_eq!(g.all_cards(), Some(CardSet::FULL_PACK));
    }

    #[test]
    fn representative_states_exist() {
        let mut legal = Vec::new();
        for g in [draw_state(), meld_state(), pickup_state()] {
            g.legal_actions(&mut legal);
            assert!(!legal.is_empty());
        }
    }
}
