//! [`RuleError`]: why an action is refused, naming the rule it breaks.

use std::borrow::Cow;
use std::fmt;

/// An illegal action or an impossible position: the rule identifier of
/// RULES.md (`D-6.3`, `I-9`, …) and a sentence saying what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuleError {
    /// Rule identifier, e.g. `D-6.3`.
    pub rule: &'static str,
    /// What was wrong (empty for refusals found by legality probes, which
    /// skip formatting so that listing legal actions does not allocate).
    pub message: Cow<'static, str>,
}

impl RuleError {
    /// A new error.
    pub fn new(rule: &'static str, message: impl Into<Cow<'static, str>>) -> RuleError {
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
pub(crate) fn refuse<T>(rule: &'static str, message: &'static str) -> Result<T, RuleError> {
    Err(RuleError::new(rule, message))
}

/// `Err(RuleError)` with a formatted message, formatted only when `quiet` is
/// false.
#[macro_export]
#[doc(hidden)]
macro_rules! refuse_fmt {
    ($quiet:expr, $rule:expr, $($arg:tt)*) => {
        if $quiet {
            Err($crate::RuleError::new($rule, ""))
        } else {
            Err($crate::RuleError::new($rule, format!($($arg)*)))
        }
    };
}
