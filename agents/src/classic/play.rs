//! Driving classic players through a hand or a match, by the turn loop of
//! both families ([`crate::play::play_turns`]): an illegal action or a
//! turn that never ends is an error of that game ([`ClassicAgentError`]),
//! never a panic of the run.

use crate::play::{play_turns_observed, HandPlay, Observer};
use crate::Agent;
use kanaszta_engine::classic::{ClassicAction, ClassicMatch, ClassicMatchResult, ClassicState};
use rand_pcg::Pcg64Mcg;

/// A classic game ended by a player: it returned an unlisted action (the
/// engine's rule error says why) or did not end its turn.
pub type ClassicAgentError = crate::AgentError<ClassicAction>;

/// Plays `state` to its end: seat `p` is `agents[p]` drawing from
/// `rngs[p]`. Players are restarted first and told every action.
pub fn play_classic_hand(
    state: &mut ClassicState,
    agents: &mut [Box<dyn Agent<ClassicState>>],
    rngs: &mut [Pcg64Mcg],
) -> Result<HandPlay, ClassicAgentError> {
    play_turns_observed(state, agents, rngs, &mut ())
}

/// Plays `m` to its end (C-12, C-24), hand after hand with the same
/// players, each hand's generators from `rngs_of(hand index)`; `on_hand`
/// sees every finished hand.
pub fn play_classic_match(
    m: &mut ClassicMatch,
    agents: &mut [Box<dyn Agent<ClassicState>>],
    rngs_of: impl FnMut(u32) -> Vec<Pcg64Mcg>,
    mut on_hand: impl FnMut(&ClassicState, &ClassicMatch, HandPlay),
) -> Result<(), ClassicAgentError> {
    play_classic_match_observed(m, agents, rngs_of, &mut (), |hand, m, play, _| {
        on_hand(hand, m, play)
    })
}

/// [`play_classic_match`], with `observer` told every action and the
/// state before it ([`Observer`]); `on_hand` sees every finished hand and
/// the observer, to read what it gathered in the hand.
pub fn play_classic_match_observed<O: Observer<ClassicState>>(
    m: &mut ClassicMatch,
    agents: &mut [Box<dyn Agent<ClassicState>>],
    mut rngs_of: impl FnMut(u32) -> Vec<Pcg64Mcg>,
    observer: &mut O,
    mut on_hand: impl FnMut(&ClassicState, &ClassicMatch, HandPlay, &mut O),
) -> Result<(), ClassicAgentError> {
    while m.result() == ClassicMatchResult::Playing {
        let mut hand = m.next_hand();
        let mut rngs = rngs_of(m.hands_played());
        let play = play_turns_observed(&mut hand, agents, &mut rngs, observer)?;
        m.record(&hand);
        on_hand(&hand, m, play, observer);
    }
    Ok(())
}
