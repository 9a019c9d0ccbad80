//! Driving agents through a hand or a match. An agent's illegal action is an
//! error of that game ([`AgentError`]), never a panic of the run.

pub use crate::family::Observer;
use crate::{Agent, Family};
use kanaszta_engine::{Action, GameState, HandRecord, Match, RuleError};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::fmt;

/// Decisions one player may take in a single turn before the game is called
/// off: a guard against an agent that never ends its meld phase.
pub const MAX_DECISIONS_PER_TURN: u32 = 2_000;

/// The generator of the agent in `seat` for the game seeded `game_seed`:
/// derived from both, so a game replays identically on any thread.
pub fn seat_rng(game_seed: u64, seat: usize) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(kanaszta_engine::seed::seat(game_seed, seat))
}

/// A game ended by an agent: it returned an illegal action (the engine's
/// rule error says why) or did not end its turn. `A` is the rule family's
/// action (`ClassicAction` for classic canasta).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentError<A = Action> {
    /// The seat of the agent at fault.
    pub player: usize,
    /// The agent's name.
    pub agent: String,
    /// The turn in which it happened, numbered from 1 (I-24: the turns
    /// completed before it, plus one), as `kanaszta replay` lists it.
    pub turn: u32,
    /// The action refused, if one was.
    pub action: Option<A>,
    /// The rule broken (the engine's error), or why the game was called off.
    pub error: RuleError,
}

impl<A: fmt::Display> fmt::Display for AgentError<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.action {
            Some(a) => write!(
                f,
                "agent `{}` in seat {} played the illegal action `{a}` at turn {}: {}",
                self.agent, self.player, self.turn, self.error
            ),
            None => write!(
                f,
                "agent `{}` in seat {} at turn {}: {}",
                self.agent, self.player, self.turn, self.error
            ),
        }
    }
}

impl<A: fmt::Display + fmt::Debug> std::error::Error for AgentError<A> {}

/// What playing a hand took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandPlay {
    /// Actions applied.
    pub actions: u64,
}

/// Plays `state` to its end, for either family: seat `p` is `agents[p]`,
/// drawing from `rngs[p]`. Agents are restarted first and told every
/// action; an illegal action, or a turn not ended within
/// [`MAX_DECISIONS_PER_TURN`] decisions, ends the game with an
/// [`AgentError`]; so do fewer agents or generators than seats (before any
/// action).
pub fn play_turns<G: Family>(
    state: &mut G,
    agents: &mut [Box<dyn Agent<G>>],
    rngs: &mut [Pcg64Mcg],
) -> Result<HandPlay, AgentError<G::Action>> {
    play_turns_observed(state, agents, rngs, &mut ())
}

/// [`play_turns`], with `observer` told every action the agents choose
/// (the refused one included) and the state it is applied to.
pub fn play_turns_observed<G: Family, O: Observer<G>>(
    state: &mut G,
    agents: &mut [Box<dyn Agent<G>>],
    rngs: &mut [Pcg64Mcg],
    observer: &mut O,
) -> Result<HandPlay, AgentError<G::Action>> {
    let players = state.players();
    if agents.len() < players || rngs.len() < players {
        // A caller's mistake, not a panic of the run: one agent and one
        // generator per seat (D-2.1, C-2: the number of players).
        return Err(AgentError {
            player: agents.len().min(rngs.len()),
            agent: "none".into(),
            turn: state.turns() + 1,
            action: None,
            error: RuleError::new(
                if G::FAMILY == "classic" { "C-2" } else { "D-2.1" },
                format!(
                    "{players} players need one agent and one generator a seat; given {} agents and {} generators",
                    agents.len(),
                    rngs.len()
                ),
            ),
        });
    }
    for a in agents.iter_mut() {
        a.restart();
    }
    let mut scratch = G::Scratch::default();
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
        if in_turn > MAX_DECISIONS_PER_TURN {
            return Err(AgentError {
                player: p,
                agent: agents[p].name(),
                turn: state.turns() + 1,
                action: None,
                error: RuleError::new(
                    "I-24",
                    format!("the turn did not end within {MAX_DECISIONS_PER_TURN} decisions"),
                ),
            });
        }
        let (action, applied) = G::play_one(
            &mut *agents[p],
            state,
            p,
            &mut scratch,
            &mut rngs[p],
            observer,
        );
        if let Err(error) = applied {
            return Err(AgentError {
                player: p,
                agent: agents[p].name(),
                turn: state.turns() + 1,
                action: Some(action),
                error,
            });
        }
        play.actions += 1;
        for a in agents.iter_mut() {
            a.inform(p, action);
        }
    }
    Ok(play)
}

/// Plays `state` to its end: the agent of seat `p` is `agents[p]`, drawing
/// from `rngs[p]`. Agents are restarted first and told every action.
pub fn play_hand(
    state: &mut GameState,
    agents: &mut [Box<dyn Agent>],
    rngs: &mut [Pcg64Mcg],
) -> Result<HandPlay, AgentError> {
    play_turns(state, agents, rngs)
}

/// Plays a match to its end (D-16): each hand from [`Match::next_hand`],
/// agents' generators from [`seat_rng`] of the hand's seed, `on_hand` called
/// with every finished hand and its record (tax applied).
pub fn play_match(
    m: &mut Match,
    agents: &mut [Box<dyn Agent>],
    mut on_hand: impl FnMut(&GameState, &HandRecord, HandPlay),
) -> Result<(), AgentError> {
    while !m.is_over() {
        let mut hand = m.next_hand();
        let seed = m.hand_seed(m.hands_played());
        let mut rngs: Vec<Pcg64Mcg> = (0..hand.players()).map(|p| seat_rng(seed, p)).collect();
        let play = play_hand(&mut hand, agents, &mut rngs)?;
        let rec = m.record(&hand);
        on_hand(&hand, &rec, play);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::{Moves, Phase, Rules, SeatView};

    struct Stubborn;
    impl Agent for Stubborn {
        fn name(&self) -> String {
            "stubborn".into()
        }
        fn act(&mut self, _v: &SeatView, _m: &mut Moves, _r: &mut Pcg64Mcg) -> Action {
            Action::TakeRest
        }
    }

    #[test]
    fn an_illegal_action_is_an_error_of_the_game_naming_the_rule() {
        let mut g = GameState::new(Rules::default(), 3);
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(Stubborn), Box::new(Stubborn)];
        let mut rngs = vec![seat_rng(3, 0), seat_rng(3, 1)];
        let e = play_hand(&mut g, &mut agents, &mut rngs).unwrap_err();
        assert_eq!(e.action, Some(Action::TakeRest));
        assert_eq!(e.agent, "stubborn");
        assert_eq!(e.error.rule, "D-3.1");
        assert!(e.to_string().contains("illegal action `rest`"), "{e}");
    }

    /// Plays the first listed action, but in the meld phase picks the
    /// first candidate that is not listed.
    struct Unlisted;
    impl Agent for Unlisted {
        fn name(&self) -> String {
            "unlisted".into()
        }
        fn act(&mut self, _v: &SeatView, m: &mut Moves, _r: &mut Pcg64Mcg) -> Action {
            let first_unlisted = m.actions().iter().copied().find(|&a| !m.is_listed(a));
            first_unlisted.unwrap_or_else(|| m.all()[0])
        }
    }

    /// A choice made without the listing is checked in full: a candidate
    /// the listing would not hold is refused with its rule, as an error
    /// of the game.
    #[test]
    fn an_unlisted_choice_is_checked_in_full() {
        let mut refused = 0;
        for seed in 0..20 {
            let mut g = GameState::new(Rules::default(), seed);
            let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(Unlisted), Box::new(Unlisted)];
            let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
            if let Err(e) = play_hand(&mut g, &mut agents, &mut rngs) {
                let a = e.action.expect("an action was refused");
                assert_eq!(g.phase(), Phase::Meld);
                let mut legal = Vec::new();
                g.legal_actions(&mut legal);
                assert!(!legal.contains(&a), "seed {seed}: {a} is listed");
                assert!(g.clone().apply(a).is_err(), "seed {seed}: {a}");
                assert!(!e.error.rule.is_empty());
                refused += 1;
            }
        }
        assert!(refused >= 10, "{refused} hands ended by a refusal");
    }

    /// Counts what it is shown, checking that the state is the one
    /// before the action: the mover is the one to move.
    #[derive(Default)]
    struct Tally {
        seen: u64,
        last: Option<Action>,
    }
    impl Observer<GameState> for Tally {
        fn before(&mut self, state: &GameState, p: usize, action: Action) {
            assert_eq!(state.current_player(), p);
            assert!(!state.is_terminal());
            self.seen += 1;
            self.last = Some(action);
        }
    }

    /// The observer is shown every action applied, with the state before
    /// it, and the refused one that ends the game; it changes no choice.
    #[test]
    fn the_observer_sees_every_action_before_it_is_applied() {
        for seed in 0..3 {
            let agents = || -> Vec<Box<dyn Agent>> {
                vec![
                    crate::AgentSpec::of(crate::GreedyParams::default()).build(),
                    crate::AgentSpec::of(crate::RandomParams::default()).build(),
                ]
            };
            let rngs = || vec![seat_rng(seed, 0), seat_rng(seed, 1)];
            let mut plain = GameState::new(Rules::default(), seed);
            let played = play_hand(&mut plain, &mut agents(), &mut rngs()).unwrap();
            let mut watched = GameState::new(Rules::default(), seed);
            let mut tally = Tally::default();
            let again =
                play_turns_observed(&mut watched, &mut agents(), &mut rngs(), &mut tally).unwrap();
            assert_eq!(again, played);
            assert_eq!(tally.seen, played.actions);
            assert_eq!(watched.scores(), plain.scores());
        }
        let mut g = GameState::new(Rules::default(), 3);
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(Stubborn), Box::new(Stubborn)];
        let mut tally = Tally::default();
        let rngs = &mut [seat_rng(3, 0), seat_rng(3, 1)];
        assert!(play_turns_observed(&mut g, &mut agents, rngs, &mut tally).is_err());
        assert_eq!((tally.seen, tally.last), (1, Some(Action::TakeRest)));
    }

    /// Fewer agents or generators than seats is an error naming the
    /// rule of the number of players, before any action: never a panic.
    #[test]
    fn too_few_agents_is_an_error_not_a_panic() {
        let mut rules = Rules::default();
        rules.set("players", "3").unwrap();
        let mut g = GameState::new(rules, 3);
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(Stubborn), Box::new(Stubborn)];
        let mut rngs = vec![seat_rng(3, 0), seat_rng(3, 1), seat_rng(3, 2)];
        let e = play_hand(&mut g, &mut agents, &mut rngs).unwrap_err();
        assert_eq!((e.player, e.action, e.error.rule), (2, None, "D-2.1"));
        assert!(
            e.to_string().contains("given 2 agents and 3 generators"),
            "{e}"
        );
        assert_eq!(g.turns(), 0);
        let mut agents: Vec<Box<dyn Agent>> =
            vec![Box::new(Stubborn), Box::new(Stubborn), Box::new(Stubborn)];
        let e = play_hand(&mut g, &mut agents, &mut rngs[..1]).unwrap_err();
        assert_eq!((e.player, e.error.rule), (1, "D-2.1"));
    }

    #[test]
    fn seat_generators_differ_by_seat_and_game() {
        use rand::Rng;
        let a = seat_rng(1, 0).next_u64();
        assert_ne!(a, seat_rng(1, 1).next_u64());
        assert_ne!(a, seat_rng(2, 0).next_u64());
        assert_eq!(a, seat_rng(1, 0).next_u64());
    }
}
