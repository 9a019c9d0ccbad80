//! Driving classic players through a hand or a match: an illegal action
//! or a turn that never ends is an error of that game
//! ([`ClassicAgentError`]), never a panic of the run.

use super::ClassicAgent;
use crate::play::{HandPlay, MAX_DECISIONS_PER_TURN};
use kanaszta_engine::classic::{ClassicAction, ClassicMatch, ClassicMatchResult, ClassicState};
use kanaszta_engine::RuleError;
use rand_pcg::Pcg64Mcg;

/// A classic game ended by a player: it returned an unlisted action (the
/// engine's rule error says why) or did not end its turn.
pub type ClassicAgentError = crate::AgentError<ClassicAction>;

/// Plays `state` to its end: seat `p` is `agents[p]` drawing from
/// `rngs[p]`. Players are restarted first and told every action.
pub fn play_classic_hand(
    state: &mut ClassicState,
    agents: &mut [Box<dyn ClassicAgent>],
    rngs: &mut [Pcg64Mcg],
) -> Result<HandPlay, ClassicAgentError> {
    assert!(
        agents.len() >= state.players() && rngs.len() >= state.players(),
        "one player and one generator per seat"
    );
    for a in agents.iter_mut() {
        a.restart();
    }
    let mut legal = Vec::new();
    let mut play = HandPlay::default();
    let mut last = (u32::MAX, usize::MAX);
    let mut in_turn = 0u32;
    while !state.is_terminal() {
        let p = state.current_player();
        let key = (state.turns(), p);
        if key != last {
            last = key;
            in_turn = 0;
        }
        in_turn += 1;
        let fault = |agents: &[Box<dyn ClassicAgent>], state: &ClassicState, action, error| {
            ClassicAgentError {
                player: p,
                agent: agents[p].name(),
                turn: state.turns() + 1,
                action,
                error,
            }
        };
        if in_turn > MAX_DECISIONS_PER_TURN {
            return Err(fault(
                agents,
                state,
                None,
                RuleError::new(
                    "I-24",
                    format!("the turn did not end within {MAX_DECISIONS_PER_TURN} decisions"),
                ),
            ));
        }
        state.legal_actions(&mut legal);
        let action = agents[p].act(&state.view(p), &legal, &mut rngs[p]);
        if let Err(error) = state.apply(action) {
            return Err(fault(agents, state, Some(action), error));
        }
        play.actions += 1;
        for a in agents.iter_mut() {
            a.inform(p, action);
        }
    }
    Ok(play)
}

/// Plays `m` to its end (C-12, C-24), hand after hand with the same
/// players, each hand's generators from `rngs_of(hand index)`; `on_hand`
/// sees every finished hand.
pub fn play_classic_match(
    m: &mut ClassicMatch,
    agents: &mut [Box<dyn ClassicAgent>],
    mut rngs_of: impl FnMut(u32) -> Vec<Pcg64Mcg>,
    mut on_hand: impl FnMut(&ClassicState, &ClassicMatch, HandPlay),
) -> Result<(), ClassicAgentError> {
    while m.result() == ClassicMatchResult::Playing {
        let mut hand = m.next_hand();
        let mut rngs = rngs_of(m.hands_played());
        let play = play_classic_hand(&mut hand, agents, &mut rngs)?;
        m.record(&hand);
        on_hand(&hand, m, play);
    }
    Ok(())
}
