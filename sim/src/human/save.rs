//! A saved game of `kanaszta human`: who plays, the rules, and every action
//! of every hand so far (the hand in play last). Resuming plays them again
//! from the deal (or the starting position), the agent deciding its own
//! moves once more, so that its generator and memory are where they were.

use kanaszta_engine::{Action, Rules};
use serde::{Deserialize, Serialize};

/// The format tag of a saved game.
pub const FORMAT: &str = "kanaszta-human/1";

/// A saved game (JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    /// [`FORMAT`].
    pub format: String,
    /// The agent's spec.
    pub vs: String,
    /// The hint agent's spec.
    pub hint: String,
    /// The person's seat.
    pub seat: usize,
    /// The person's name in the CSV.
    pub name: String,
    /// The session's seed.
    pub seed: u64,
    /// A whole match (with the tax) rather than one hand.
    #[serde(rename = "match")]
    pub is_match: bool,
    /// A rated game: no undo, no hints.
    pub rated: bool,
    /// The rules.
    pub rules: Rules,
    /// The starting position (a game begun from one), as position JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
    /// The actions of every hand, in order; the last is the hand in play.
    pub hands: Vec<Vec<Action>>,
}

impl SaveFile {
    /// Parses a saved game, checking its format tag and rules.
    pub fn from_json(text: &str) -> Result<SaveFile, String> {
        let s: SaveFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if s.format != FORMAT {
            return Err(format!(
                "format `{}`: expected \"{FORMAT}\" (a file written by `save` in kanaszta human)",
                s.format
            ));
        }
        s.rules.validate().map_err(|e| format!("rules: {e}"))?;
        if s.hands.is_empty() {
            return Err("`hands` is empty: a saved game holds at least the hand in play".into());
        }
        Ok(s)
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
