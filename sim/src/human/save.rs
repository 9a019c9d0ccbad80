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
        let expected = || {
            format!(
                "expected a game saved by `save` in kanaszta human (a JSON object with \
                 \"format\": \"{FORMAT}\")"
            )
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim().is_empty() {
            return Err(format!("empty: {}", expected()));
        }
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON ({e}): {}", expected()))?;
        let Some(obj) = v.as_object() else {
            return Err(format!("not a JSON object: {}", expected()));
        };
        match obj.get("format") {
            Some(serde_json::Value::String(f)) if f == FORMAT => {}
            Some(f) => {
                return Err(format!(
                    "format {f}: expected \"{FORMAT}\" (a file written by `save` in kanaszta \
                     human)"
                ))
            }
            None if obj.contains_key("phase") || obj.contains_key("players") => {
                return Err(
                    "a position, not a saved game: play one hand from it with --position FILE \
                     (--resume takes a game saved by `save` in kanaszta human)"
                        .into(),
                )
            }
            None => return Err(format!("no `format`: {}", expected())),
        }
        let s: SaveFile = serde_json::from_value(v).map_err(|e| format!("saved game: {e}"))?;
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
