//! [`AnyGame`]: a hand of either rule family behind one concrete type, for
//! callers that cannot be generic (a binding, a learner's loop, a
//! command): made from a preset name, cloned, listed and played by
//! action, by text or by id, seen and encoded from a seat, determinized,
//! scored. Each call dispatches once to the family's own [`Game`],
//! [`ActionIds`] and [`Encode`], which stay the fast path.
//!
//! ```
//! use kanaszta_engine::AnyGame;
//! let mut g = AnyGame::new("classic-003", 4, 7).unwrap();
//! let mut mask = vec![false; g.action_ids()];
//! let mut obs = vec![0.0f32; g.obs_len()];
//! while !g.is_terminal() {
//!     g.encode(g.current_player(), &mut obs).unwrap();
//!     g.legal_mask(&mut mask).unwrap();
//!     let id = mask.iter().rposition(|&m| m).unwrap() as u32;
//!     g.apply_id(id).unwrap();
//! }
//! assert_eq!(g.scores().len(), 2); // two partnerships
//! let e = AnyGame::new("decorated-2003-02", 2, 7).unwrap().apply_text("discard 3S");
//! assert!(e.unwrap_err().to_string().starts_with("D-3.1"));
//! ```

use crate::action::Action;
use crate::classic::{ClassicAction, ClassicRules, ClassicState, CLASSIC_PRESETS};
use crate::encode::Encode;
use crate::error::RuleError;
use crate::game::Game;
use crate::ids::ActionIds;
use crate::rules::{Rules, PRESETS};
use crate::state::GameState;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::fmt;

/// A hand of either family.
#[derive(Debug)]
pub struct AnyGame {
    game: Hand,
    /// Scratch for the listing, kept across calls so that listing
    /// allocates nothing once warm (a clone starts with none).
    decorated: Vec<Action>,
    classic: Vec<ClassicAction>,
    /// Whether the scratch holds the listing of the hand as it is now:
    /// set by [`AnyGame::legal_ids`] and [`AnyGame::legal_mask`], cleared
    /// by a successful [`AnyGame::apply`].
    listed: bool,
}

// Both states are kilobytes of plain arrays; boxing the larger would add
// an allocation to every clone, which a search makes by the thousand.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum Hand {
    Decorated(GameState),
    Classic(ClassicState),
}

/// An action of either family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyAction {
    /// A decorated action.
    Decorated(Action),
    /// A classic action.
    Classic(ClassicAction),
}

impl fmt::Display for AnyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyAction::Decorated(a) => a.fmt(f),
            AnyAction::Classic(a) => a.fmt(f),
        }
    }
}

/// Why an [`AnyGame`] call was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnyError {
    /// The preset, a setting or the number of players is not accepted.
    Rules(String),
    /// Action text that does not parse; the message lists the notation.
    Parse(String),
    /// An id that names no action in this state.
    Id(String),
    /// An action of the other family, or a seat out of range.
    Argument(String),
    /// An action the rules refuse, naming the rule.
    Illegal(RuleError),
}

impl fmt::Display for AnyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyError::Rules(m) | AnyError::Parse(m) | AnyError::Id(m) | AnyError::Argument(m) => {
                f.write_str(m)
            }
            AnyError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnyError {}

impl From<RuleError> for AnyError {
    fn from(e: RuleError) -> AnyError {
        AnyError::Illegal(e)
    }
}

/// A side's hand score with its parts, named as the family's score
/// type names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyScore {
    /// The hand score (before any tax or match total).
    pub total: i32,
    /// The parts: points by item.
    pub parts: Vec<(&'static str, i32)>,
}

impl Clone for AnyGame {
    fn clone(&self) -> AnyGame {
        AnyGame::from_hand(self.game.clone())
    }
}

impl From<GameState> for AnyGame {
    fn from(g: GameState) -> AnyGame {
        AnyGame::from_hand(Hand::Decorated(g))
    }
}

impl From<ClassicState> for AnyGame {
    fn from(g: ClassicState) -> AnyGame {
        AnyGame::from_hand(Hand::Classic(g))
    }
}

/// Calls `$body` with `$g` bound to the family's state.
macro_rules! each {
    ($self:expr, $g:ident => $body:expr) => {
        match &$self.game {
            Hand::Decorated($g) => $body,
            Hand::Classic($g) => $body,
        }
    };
}

impl AnyGame {
    fn from_hand(game: Hand) -> AnyGame {
        AnyGame {
            game,
            decorated: Vec::new(),
            classic: Vec::new(),
            listed: false,
        }
    }

    /// A new hand of `players` players under the preset `preset` (a
    /// decorated preset of [`PRESETS`] or `decorated`, a classic one of
    /// [`CLASSIC_PRESETS`] or `classic`), dealt from `seed`.
    pub fn new(preset: &str, players: usize, seed: u64) -> Result<AnyGame, AnyError> {
        AnyGame::with_settings(preset, players, &[], seed)
    }

    /// As [`AnyGame::new`], with rule switches set by name after the
    /// preset (`("tax", "off")`, as the family's `Rules::set` takes them).
    pub fn with_settings(
        preset: &str,
        players: usize,
        settings: &[(&str, &str)],
        seed: u64,
    ) -> Result<AnyGame, AnyError> {
        let bad = |e: &dyn fmt::Display| AnyError::Rules(e.to_string());
        let n = players.to_string();
        if preset == "decorated" || PRESETS.contains(&preset) {
            let mut r = Rules::preset(if preset == "decorated" {
                "default"
            } else {
                preset
            })
            .map_err(|e| bad(&e))?;
            r.set("players", &n).map_err(|e| bad(&e))?;
            for (k, v) in settings {
                r.set(k, v).map_err(|e| bad(&e))?;
            }
            r.validate().map_err(|e| bad(&e))?;
            Ok(GameState::new(r, seed).into())
        } else if preset == "classic" || CLASSIC_PRESETS.contains(&preset) {
            let mut r = ClassicRules::preset(preset).map_err(|e| bad(&e))?;
            r.set("players", &n).map_err(|e| bad(&e))?;
            for (k, v) in settings {
                r.set(k, v).map_err(|e| bad(&e))?;
            }
            r.validate().map_err(|e| bad(&e))?;
            Ok(ClassicState::new(r, seed, 0, [0; 6]).into())
        } else {
            Err(AnyError::Rules(format!(
                "unknown preset `{preset}`; presets are decorated, {}, classic, {}",
                PRESETS.join(", "),
                CLASSIC_PRESETS.join(", ")
            )))
        }
    }

    /// The family's name: `decorated` or `classic`.
    pub fn family(&self) -> &'static str {
        match self.game {
            Hand::Decorated(_) => GameState::FAMILY,
            Hand::Classic(_) => ClassicState::FAMILY,
        }
    }
    /// The decorated state, if the hand is decorated.
    pub fn decorated(&self) -> Option<&GameState> {
        match &self.game {
            Hand::Decorated(g) => Some(g),
            Hand::Classic(_) => None,
        }
    }
    /// The classic state, if the hand is classic.
    pub fn classic(&self) -> Option<&ClassicState> {
        match &self.game {
            Hand::Classic(g) => Some(g),
            Hand::Decorated(_) => None,
        }
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        each!(self, g => Game::players(g))
    }
    /// Number of sides (players alone, or partnerships).
    pub fn sides(&self) -> usize {
        each!(self, g => Game::sides(g))
    }
    /// The side of a seat.
    pub fn side_of(&self, seat: usize) -> usize {
        each!(self, g => Game::side_of(g, seat))
    }
    /// The player to act.
    pub fn current_player(&self) -> usize {
        each!(self, g => Game::current_player(g))
    }
    /// Whether the hand is over.
    pub fn is_terminal(&self) -> bool {
        each!(self, g => Game::is_terminal(g))
    }
    /// Turns completed.
    pub fn turns(&self) -> u32 {
        each!(self, g => Game::turns(g))
    }
    /// Size of the family's action id space ([`ActionIds::ACTION_IDS`]).
    pub fn action_ids(&self) -> usize {
        match self.game {
            Hand::Decorated(_) => GameState::ACTION_IDS,
            Hand::Classic(_) => ClassicState::ACTION_IDS,
        }
    }
    /// Length of the family's encoding ([`Encode::OBS_LEN`]).
    pub fn obs_len(&self) -> usize {
        match self.game {
            Hand::Decorated(_) => GameState::OBS_LEN,
            Hand::Classic(_) => ClassicState::OBS_LEN,
        }
    }

    /// The legal actions, in the family's order.
    pub fn legal_actions(&self) -> Vec<AnyAction> {
        match &self.game {
            Hand::Decorated(g) => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                v.into_iter().map(AnyAction::Decorated).collect()
            }
            Hand::Classic(g) => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                v.into_iter().map(AnyAction::Classic).collect()
            }
        }
    }
    /// The legal actions in the text notation `apply_text` takes.
    pub fn legal_text(&self) -> Vec<String> {
        self.legal_actions().iter().map(|a| a.to_string()).collect()
    }
    /// The legal actions' ids into `ids` (cleared first), in the
    /// listing's order. The listing is kept until the next action, so
    /// that [`AnyGame::apply`] of a listed action skips its checks.
    pub fn legal_ids(&mut self, ids: &mut Vec<u32>) {
        ids.clear();
        self.listed = true;
        match &self.game {
            Hand::Decorated(g) => {
                g.legal_actions(&mut self.decorated);
                ids.extend(self.decorated.iter().filter_map(GameState::action_id));
            }
            Hand::Classic(g) => {
                g.legal_actions(&mut self.classic);
                ids.extend(self.classic.iter().filter_map(ClassicState::action_id));
            }
        }
    }
    /// The legal-action mask over the id space ([`ActionIds::legal_mask`]);
    /// `mask` is at least [`AnyGame::action_ids`] long. The listing is
    /// kept as by [`AnyGame::legal_ids`].
    pub fn legal_mask(&mut self, mask: &mut [bool]) -> Result<(), AnyError> {
        if mask.len() < self.action_ids() {
            return Err(AnyError::Argument(format!(
                "the mask holds {} entries; {} has {} action ids",
                mask.len(),
                self.family(),
                self.action_ids()
            )));
        }
        match &self.game {
            Hand::Decorated(g) => g.legal_mask(&mut self.decorated, mask),
            Hand::Classic(g) => g.legal_mask(&mut self.classic, mask),
        }
        self.listed = true;
        Ok(())
    }
    /// The id of an action of this hand's family.
    pub fn action_id(&self, action: AnyAction) -> Option<u32> {
        match (action, &self.game) {
            (AnyAction::Decorated(a), Hand::Decorated(_)) => GameState::action_id(&a),
            (AnyAction::Classic(a), Hand::Classic(_)) => ClassicState::action_id(&a),
            _ => None,
        }
    }
    /// The action `id` names in this state.
    pub fn action_from_id(&self, id: u32) -> Result<AnyAction, AnyError> {
        let a = match &self.game {
            Hand::Decorated(g) => g.action_from_id(id).map(AnyAction::Decorated),
            Hand::Classic(g) => g.action_from_id(id).map(AnyAction::Classic),
        };
        a.ok_or_else(|| {
            AnyError::Id(format!(
                "action id {id} names no {} action here (ids are 0..{}; a step on a group needs the mover to have that group)",
                self.family(),
                self.action_ids()
            ))
        })
    }
    /// Parses action text of this hand's family.
    pub fn parse(&self, text: &str) -> Result<AnyAction, AnyError> {
        match &self.game {
            Hand::Decorated(_) => text
                .parse::<Action>()
                .map(AnyAction::Decorated)
                .map_err(|e| AnyError::Parse(e.to_string())),
            Hand::Classic(_) => text
                .parse::<ClassicAction>()
                .map(AnyAction::Classic)
                .map_err(|e| AnyError::Parse(e.to_string())),
        }
    }

    /// Applies an action; on an error the hand is unchanged. An action
    /// of the listing [`AnyGame::legal_ids`] or [`AnyGame::legal_mask`]
    /// made of the hand as it is goes through the family's
    /// `apply_listed`, which skips the completion check (I-9) the listing
    /// has made; the result is the same.
    pub fn apply(&mut self, action: AnyAction) -> Result<(), AnyError> {
        let listed = std::mem::take(&mut self.listed);
        let r = match (action, &mut self.game) {
            (AnyAction::Decorated(a), Hand::Decorated(g)) => {
                if listed && self.decorated.contains(&a) {
                    return Ok(g.apply_listed(a)?);
                }
                g.apply(a)
            }
            (AnyAction::Classic(a), Hand::Classic(g)) => {
                if listed && self.classic.contains(&a) {
                    return Ok(g.apply_listed(a)?);
                }
                g.apply(a)
            }
            (a, _) => {
                self.listed = listed;
                return Err(AnyError::Argument(format!(
                    "`{a}` is an action of the other family; this hand is {}",
                    self.family()
                )));
            }
        };
        if r.is_err() {
            // `apply` refused it and changed nothing: the listing holds.
            self.listed = listed;
        }
        Ok(r?)
    }
    /// Applies the action `id` names.
    pub fn apply_id(&mut self, id: u32) -> Result<(), AnyError> {
        let a = self.action_from_id(id)?;
        self.apply(a)
    }
    /// Applies an action given in text (`draw`, `lay 8D 8S 2C`, …).
    pub fn apply_text(&mut self, text: &str) -> Result<(), AnyError> {
        let a = self.parse(text)?;
        self.apply(a)
    }

    fn check_seat(&self, seat: usize) -> Result<(), AnyError> {
        if seat < self.players() {
            Ok(())
        } else {
            Err(AnyError::Argument(format!(
                "no seat {seat}: seats are 0..{}",
                self.players()
            )))
        }
    }

    /// Writes seat `seat`'s view into `out` ([`Encode::encode`]; `out`
    /// is at least [`AnyGame::obs_len`] long).
    pub fn encode(&self, seat: usize, out: &mut [f32]) -> Result<(), AnyError> {
        self.check_seat(seat)?;
        if out.len() < self.obs_len() {
            return Err(AnyError::Argument(format!(
                "the buffer holds {} numbers; the {} encoding has {}",
                out.len(),
                self.family(),
                self.obs_len()
            )));
        }
        match &self.game {
            Hand::Decorated(g) => GameState::encode(&g.view(seat), out),
            Hand::Classic(g) => ClassicState::encode(&g.view(seat), out),
        }
        Ok(())
    }
    /// [`AnyGame::encode`] into an `out` whose first
    /// [`AnyGame::obs_len`] entries are zero already (a new zeroed
    /// array), without zeroing them again.
    pub fn encode_zeroed(&self, seat: usize, out: &mut [f32]) -> Result<(), AnyError> {
        self.check_seat(seat)?;
        if out.len() < self.obs_len() {
            return self.encode(seat, out);
        }
        match &self.game {
            Hand::Decorated(g) => GameState::encode_zeroed(&g.view(seat), out),
            Hand::Classic(g) => ClassicState::encode_zeroed(&g.view(seat), out),
        }
        Ok(())
    }
    /// What seat `seat` sees, as text (the view's debug form: the seat's
    /// side only).
    pub fn view_text(&self, seat: usize) -> Result<String, AnyError> {
        self.check_seat(seat)?;
        Ok(each!(self, g => format!("{:?}", g.view(seat))))
    }
    /// A hand consistent with what `seat` sees, the unseen cards dealt at
    /// random from `seed`: the only way from a view to a full hand.
    pub fn determinize(&self, seat: usize, seed: u64) -> Result<AnyGame, AnyError> {
        self.check_seat(seat)?;
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        Ok(match &self.game {
            Hand::Decorated(g) => g.view(seat).determinize(&mut rng).into(),
            Hand::Classic(g) => g.view(seat).determinize(&mut rng).into(),
        })
    }

    /// Each side's hand score as it stands (final once terminal).
    pub fn scores(&self) -> Vec<i32> {
        (0..self.sides())
            .map(|s| each!(self, g => Game::side_score(g, s)))
            .collect()
    }
    /// A side's hand score with its parts.
    pub fn score(&self, side: usize) -> Result<AnyScore, AnyError> {
        if side >= self.sides() {
            return Err(AnyError::Argument(format!(
                "no side {side}: sides are 0..{}",
                self.sides()
            )));
        }
        Ok(match &self.game {
            Hand::Decorated(g) => {
                let s = g.score_of(side);
                AnyScore {
                    total: s.total,
                    parts: vec![
                        ("red_three_points", s.red_three_points),
                        ("twin_points", s.twin_points),
                        ("canasta_points", s.canasta_points),
                        ("heart_ace_points", s.heart_ace_points),
                        ("going_out_points", s.going_out_points),
                        ("from_hand_points", s.from_hand_points),
                        ("cleared_table_points", s.cleared_table_points),
                        ("melded", s.melded),
                        ("in_hand", s.in_hand),
                    ],
                }
            }
            Hand::Classic(g) => {
                let s = g.side_score(side);
                AnyScore {
                    total: s.total,
                    parts: vec![
                        ("melds", s.melds),
                        ("canastas", s.canastas),
                        ("red_threes", s.red_threes),
                        ("going_out", s.going_out),
                        ("in_hand", s.in_hand),
                        ("failed_yes", s.failed_yes),
                    ],
                }
            }
        })
    }
}
