//! [`GameLog`]: rules, seed and actions: a hand that replays exactly.

use crate::action::Action;
use crate::error::RuleError;
use crate::rules::{Rules, RulesError};
use crate::state::GameState;
use serde::{Deserialize, Serialize};

/// A replayable record of one hand: `(rules, seed, starter, totals, actions)`.
///
/// ```
/// use kanaszta_engine::{GameLog, GameState, Rules};
/// let mut g = GameState::new(Rules::default(), 3);
/// let mut log = GameLog::new(&g, 3);
/// let mut legal = Vec::new();
/// for _ in 0..5 {
///     g.legal_actions(&mut legal);
///     g.apply(legal[0]).unwrap();
///     log.actions.push(legal[0]);
/// }
/// assert_eq!(log.replay().unwrap(), g);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLog {
    /// The rules.
    pub rules: Rules,
    /// The seed of the hand's generator.
    pub seed: u64,
    /// The starter.
    pub starter: u8,
    /// Running totals before the hand.
    pub totals: Vec<i32>,
    /// Every action, in order, in text notation.
    pub actions: Vec<Action>,
}

impl GameLog {
    /// An empty log for a freshly dealt `state` made from `seed`.
    pub fn new(state: &GameState, seed: u64) -> GameLog {
        GameLog {
            rules: *state.rules(),
            seed,
            starter: state.starter() as u8,
            totals: state.totals().to_vec(),
            actions: Vec::new(),
        }
    }

    /// The initial state.
    pub fn initial(&self) -> GameState {
        GameState::new_hand(self.rules, self.seed, self.starter, &self.totals)
    }

    /// Replays every action; the error says which action failed and why.
    pub fn replay(&self) -> Result<GameState, (usize, RuleError)> {
        let mut g = self.initial();
        for (i, a) in self.actions.iter().enumerate() {
            g.apply(*a).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Parses JSON text.
    pub fn from_json(text: &str) -> Result<GameLog, LogError> {
        let log: GameLog = serde_json::from_str(text).map_err(|e| LogError::Json(e.to_string()))?;
        log.rules.validate().map_err(LogError::Rules)?;
        Ok(log)
    }
}

/// Why a game log is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LogError {
    /// Not JSON, or not the shape of a log: serde's message, with its line
    /// and column.
    Json(String),
    /// The log's rules are refused.
    Rules(RulesError),
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogError::Json(e) => write!(f, "bad game log: {e}"),
            LogError::Rules(e) => write!(f, "rules: {e}"),
        }
    }
}

impl std::error::Error for LogError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LogError::Rules(e) => Some(e),
            LogError::Json(_) => None,
        }
    }
}
