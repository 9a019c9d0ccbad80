//! [`Moves`]: what the mover may do, for a player to choose from — the
//! one way an agent sees its actions. Outside the meld phase the moves are
//! the listing itself; in the meld phase they are the listing's
//! candidates, each checked (I-9, I-26) only when the player asks, so that
//! a player with an order of preference checks only the actions it gets
//! to, and one that wants them all asks for [`Moves::all`].

use super::legal::CandidateCheck;
use super::{GameState, Phase};
use crate::action::Action;
use crate::group::Group;
use crate::table::Table;

/// The buffers behind [`Moves`], reused from decision to decision so that
/// choosing allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub struct MoveBuf {
    /// The candidates (or the listing outside the meld phase).
    candidates: Vec<Action>,
    /// The candidates found listed so far, in the order found.
    found: Vec<Action>,
    /// The whole listing, once asked for.
    all: Vec<Action>,
}

impl MoveBuf {
    /// Empty buffers.
    pub fn new() -> MoveBuf {
        MoveBuf {
            candidates: Vec::with_capacity(64),
            found: Vec::with_capacity(16),
            all: Vec::with_capacity(64),
        }
    }
}

/// What the mover of a state may do ([`GameState::moves`]). The actions
/// ([`Moves::actions`]) are in the order of [`GameState::legal_actions`]
/// and hold every listed action; in the meld phase they may hold more
/// (candidates not yet checked), and [`Moves::is_listed`] tells which are
/// listed, checking one at a time. An action chosen outside the listing is
/// refused by the game with the rule it breaks.
///
/// Only the mover's own hand, table and turn and the public cards decide
/// the answers, so moves made on a determinization of the mover's view (a
/// world) answer as the real state's would.
pub struct Moves<'a> {
    actions: &'a [Action],
    /// Where the ends (the discards and the reset) begin: they come after
    /// every meld step.
    ends: usize,
    check: CandidateCheck<'a>,
    found: &'a mut Vec<Action>,
    all: &'a mut Vec<Action>,
    /// The actions are the listing itself.
    complete: bool,
    /// `all` holds the listing (asked for once).
    all_made: bool,
}

impl GameState {
    /// What the mover may do, in `buf`: outside the meld phase the
    /// listing of [`GameState::legal_actions`]; in the meld phase its
    /// candidates, each checked when asked.
    pub fn moves<'a>(&'a self, buf: &'a mut MoveBuf) -> Moves<'a> {
        let MoveBuf {
            candidates,
            found,
            all,
        } = buf;
        let complete = self.phase != Phase::Meld;
        if complete {
            self.legal_actions(candidates);
        } else {
            self.candidate_actions(candidates);
        }
        found.clear();
        Moves {
            actions: candidates,
            ends: ends_start(candidates),
            check: self.candidate_check(),
            found,
            all,
            complete,
            all_made: false,
        }
    }
}

impl<'a> Moves<'a> {
    /// The listing `legal` of [`GameState::legal_actions`], made already,
    /// of `world`, or of a state whose mover's hand, table and turn are
    /// those of `world` (such as the real state of which `world` is a
    /// determinization): steps are tried on `world`. `buf` holds nothing
    /// of it but scratch space.
    pub fn of_listing(world: &'a GameState, legal: &'a [Action], buf: &'a mut MoveBuf) -> Self {
        let MoveBuf { found, all, .. } = buf;
        found.clear();
        Moves {
            actions: legal,
            ends: ends_start(legal),
            check: world.candidate_check(),
            found,
            all,
            complete: true,
            all_made: false,
        }
    }

    /// The actions, in the listing's order: every listed one, and in the
    /// meld phase possibly candidates that are not listed.
    pub fn actions(&self) -> &'a [Action] {
        self.actions
    }

    /// Whether [`Moves::actions`] is the listing itself (every action
    /// listed, as outside the meld phase).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The meld steps among the actions (every action before the
    /// discards and the reset), in order.
    pub fn steps(&self) -> &'a [Action] {
        &self.actions[..self.ends]
    }

    /// The discards and the reset among the actions, in order: they come
    /// after every meld step.
    pub fn ends(&self) -> &'a [Action] {
        &self.actions[self.ends..]
    }

    /// Whether [`GameState::legal_actions`] lists `a`, an action of
    /// [`Moves::actions`] (one that is not may get a "yes" the listing would
    /// not give: larger lays, say, which [`GameState::apply`] accepts; ask
    /// [`Moves::lists`] for the listing's `contains`).
    pub fn is_listed(&mut self, a: Action) -> bool {
        if self.complete {
            return self.actions.contains(&a);
        }
        if self.all_made {
            return self.all.contains(&a);
        }
        // The ones found listed are kept: asked again, they are not
        // checked again.
        if self.found.contains(&a) {
            return true;
        }
        let ok = self.check.is_listed(a);
        if ok {
            self.found.push(a);
        }
        ok
    }

    /// Whether `a` is listed: one of [`Moves::actions`] and listed.
    pub fn lists(&mut self, a: Action) -> bool {
        self.actions.contains(&a) && self.is_listed(a)
    }

    /// Whether the action `a` is surely not listed, by a cheap test: a
    /// player scoring candidates before checking them may leave these out.
    /// `false` decides nothing.
    pub fn surely_unlisted(&mut self, a: Action) -> bool {
        !self.complete && self.check.surely_unlisted(a)
    }

    /// The whole listing, in order: [`GameState::legal_actions`] (every
    /// action checked, the first time it is asked in the meld phase).
    pub fn all(&mut self) -> &[Action] {
        if self.complete {
            return self.actions;
        }
        if !self.all_made {
            self.all.clear();
            for &a in self.actions {
                let ok = self.found.contains(&a) || self.check.is_listed(a);
                if ok {
                    self.all.push(a);
                }
            }
            self.all_made = true;
        }
        self.all
    }

    /// How many discards the listing holds, without the listing made: in
    /// the meld phase one check answers for every kind of card in hand but
    /// the one taken for free (I-21), so it costs one discard check, and no
    /// meld step is checked.
    pub fn listed_discards(&self) -> u32 {
        if self.complete || self.all_made {
            let listed = if self.complete {
                self.actions
            } else {
                &self.all[..]
            };
            return listed
                .iter()
                .filter(|a| matches!(a, Action::Discard(_)))
                .count() as u32;
        }
        self.check.listed_discards()
    }

    /// The one listed action, if exactly one is; found by checking the
    /// cheap actions first (discards and the reset) and the rest of the
    /// pile (listed whenever it may be taken, and asked for first by the
    /// players), then the take-backs (a group laid this turn taken back
    /// nearly always leaves a way out, where a step that empties the hand
    /// leaves none and takes a going-out test to refuse), and no more than
    /// it takes to see a second.
    pub fn only_listed(&mut self) -> Option<Action> {
        if self.complete || self.all_made {
            let all = self.all();
            return (all.len() == 1).then(|| all[0]);
        }
        let mut only = None;
        let pass = |a: &Action| match a {
            Action::Discard(_) | Action::Reset | Action::TakeRest => 0,
            Action::TakeBack { .. } | Action::TakeBackHeartAce => 1,
            _ => 2,
        };
        // The discards are counted at once (they are the hand's kinds):
        // two listed settle it, and with none listed none is checked.
        let check_discards = match self.check.listed_discards() {
            0 => false,
            1 => true,
            _ => return None,
        };
        // A pass runs only if it has candidates. The ends (discards and
        // the reset) come after the steps and belong to the first pass.
        let (steps, ends) = (self.steps(), self.ends());
        let passes = steps.iter().fold(0u8, |m, a| m | 1 << pass(a)) | (!ends.is_empty()) as u8;
        for this_pass in 0..3 {
            if passes & (1 << this_pass) == 0 {
                continue;
            }
            let all = if this_pass == 0 { self.actions } else { steps };
            for &a in all {
                if pass(&a) != this_pass || (!check_discards && matches!(a, Action::Discard(_))) {
                    continue;
                }
                if self.is_listed(a) {
                    if only.is_some() {
                        return None;
                    }
                    only = Some(a);
                }
            }
        }
        only
    }

    /// For an extend from the hand with no wild pending, the group before
    /// and after it (`Some(None)` if the step is refused): an extend
    /// changes that one group of the table and nothing else of it, so this
    /// is what [`Moves::read_table_after`] would find changed, without the
    /// step made on a copy. `None` for any other action or state.
    pub fn extend_from_hand(&self, a: Action) -> Option<Option<(Group, Group)>> {
        self.check.extend_from_hand(a)
    }

    /// `read` of the mover's table after the meld step `a` alone, read in
    /// place: the step's own rules are checked, not whether the turn can
    /// then be completed (that is [`Moves::is_listed`]). `None` if the step
    /// is refused, or `a` is a discard or the reset, or the phase is not
    /// the meld phase.
    pub fn read_table_after<R>(&mut self, a: Action, read: impl FnOnce(&Table) -> R) -> Option<R> {
        self.check.read_table_after(a, read)
    }
}

/// Where the ends of a meld phase (the discards and the reset) begin in
/// `actions`, candidates or a listing: the engine lists them after every
/// meld step.
fn ends_start(actions: &[Action]) -> usize {
    let mut n = actions.len();
    while n > 0 && matches!(actions[n - 1], Action::Discard(_) | Action::Reset) {
        n -= 1;
    }
    debug_assert!(!actions[..n]
        .iter()
        .any(|a| matches!(a, Action::Discard(_) | Action::Reset)));
    n
}
