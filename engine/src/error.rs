//! [`RuleError`]: why an action is refused, naming the rule it breaks.

use std::fmt;

/// An illegal action or an impossible position: the rule identifier of
/// RULES.md (`D-6.3`, `I-9`, …) and a sentence saying what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuleError {
    /// Rule identifier, e.g. `D-6.3`.
    pub rule: &'static str,
    /// What was wrong.
    pub message: String,
}

impl RuleError {
    /// A new error.
    pub fn new(rule: &'static str, message: impl Into<String>) -> RuleError {
        RuleError {
            rule,
            message: message.into(),
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)
    }
}

impl std::error::Error for RuleError {}

/// Shorthand for `Err(RuleError::new(..))`.
pub(crate) fn refuse<T>(rule: &'static str, message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::new(rule, message))
}
