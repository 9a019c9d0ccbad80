//! [`PositionError`]: why a position is refused, naming the field.

use crate::error::InvariantError;
use crate::rules::RulesError;
use std::fmt;

/// Why position JSON is refused. Every variant names the field that was
/// wrong (a path such as `player 0 hand` or `turn.pending[1].src`) and says
/// what is accepted; where a rule of RULES.md makes the position impossible,
/// the message names it (`D-1.1`, `D-4`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// Not JSON, or not the shape of a position: serde's message, with its
    /// line and column.
    Json(String),
    /// A value that does not parse or breaks the pack: `path` names the
    /// field, `message` says what was wrong and what is accepted.
    Field {
        /// The field, e.g. `player 0 hand`.
        path: String,
        /// What was wrong and what is accepted.
        message: String,
    },
    /// Fields that contradict each other or a rule; `message` is the
    /// sentence (it starts from the field), `field` names the field alone.
    Invalid {
        /// The field at which the contradiction was found, e.g. `starter`.
        field: String,
        /// What was wrong and what is accepted.
        message: String,
    },
    /// The `rules` of the position are refused.
    Rules(RulesError),
    /// The state built breaks an invariant of the engine.
    Invariant(InvariantError),
}

impl PositionError {
    /// An [`PositionError::Invalid`] error at `field`.
    pub(super) fn invalid(field: impl fmt::Display, message: String) -> PositionError {
        PositionError::Invalid {
            field: field.to_string(),
            message,
        }
    }

    /// The field that was wrong (`rules` for the rules, empty for JSON
    /// that does not parse and for broken invariants).
    pub fn field(&self) -> &str {
        match self {
            PositionError::Field { path, .. } => path,
            PositionError::Invalid { field, .. } => field,
            PositionError::Rules(_) => "rules",
            PositionError::Json(_) | PositionError::Invariant(_) => "",
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Json(e) => write!(f, "bad position JSON: {e}"),
            PositionError::Field { path, message } => write!(f, "{path}: {message}"),
            PositionError::Invalid { message, .. } => f.write_str(message),
            PositionError::Rules(e) => write!(f, "rules: {e}"),
            PositionError::Invariant(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PositionError::Rules(e) => Some(e),
            _ => None,
        }
    }
}

/// A [`PositionError::Invalid`] at a field, with a formatted message (the
/// caller has `PositionError` in scope).
macro_rules! bad {
    ($field:expr, $($arg:tt)*) => {
        PositionError::invalid($field, format!($($arg)*))
    };
}
pub(super) use bad;
