//! A saved game of `kanaszta human`: who plays, the rules, and every action
//! of every hand so far (the hand in play last). Resuming plays them again
//! from the deal (or the starting position), the agent deciding its own
//! moves once more, so that its generator and memory are where they were.

use kanaszta_engine::{Action, Rules, RulesError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
    pub fn from_json(text: &str) -> Result<SaveFile, SaveError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim().is_empty() {
            return Err(SaveError::Empty);
        }
        let v: serde_json::Value = serde_json::from_str(text).map_err(SaveError::NotJson)?;
        let Some(obj) = v.as_object() else {
            return Err(SaveError::NotObject);
        };
        match obj.get("format") {
            Some(serde_json::Value::String(f)) if f == FORMAT => {}
            Some(f) => return Err(SaveError::Format(f.clone())),
            None if obj.contains_key("phase") || obj.contains_key("players") => {
                return Err(SaveError::Position)
            }
            None => return Err(SaveError::NoFormat),
        }
        let s: SaveFile = serde_json::from_value(v).map_err(SaveError::Fields)?;
        s.rules.validate().map_err(SaveError::Rules)?;
        if s.hands.is_empty() {
            return Err(SaveError::NoHands);
        }
        Ok(s)
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// Why a saved game (of either family) is refused: what was wrong and what
/// is accepted.
#[derive(Debug)]
#[non_exhaustive]
pub enum SaveError {
    /// No text.
    Empty,
    /// Not JSON.
    NotJson(serde_json::Error),
    /// JSON, but not an object.
    NotObject,
    /// Another format tag.
    Format(serde_json::Value),
    /// A position, not a saved game.
    Position,
    /// No format tag.
    NoFormat,
    /// A field of a saved game refused.
    Fields(serde_json::Error),
    /// A field of a saved classic game refused.
    ClassicFields(serde_json::Error),
    /// The rules refused.
    Rules(RulesError),
    /// No hand.
    NoHands,
    /// A game from a position holding this many hands, not one.
    PositionHands(usize),
    /// A seat the rules do not have.
    Seat {
        /// The seat saved.
        seat: usize,
        /// The players of the rules.
        players: u8,
    },
}

/// What a saved game is, for messages.
fn expected() -> String {
    format!(
        "expected a game saved by `save` in kanaszta human (a JSON object with \
         \"format\": \"{FORMAT}\")"
    )
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::Empty => write!(f, "empty: {}", expected()),
            SaveError::NotJson(e) => write!(f, "not JSON ({e}): {}", expected()),
            SaveError::NotObject => write!(f, "not a JSON object: {}", expected()),
            SaveError::Format(v) => write!(
                f,
                "format {v}: expected \"{FORMAT}\" (a file written by `save` in kanaszta \
                 human)"
            ),
            SaveError::Position => f.write_str(
                "a position, not a saved game: play one hand from it with --position FILE \
                 (--resume takes a game saved by `save` in kanaszta human)",
            ),
            SaveError::NoFormat => write!(f, "no `format`: {}", expected()),
            SaveError::Fields(e) => write!(f, "saved game: {e}"),
            SaveError::ClassicFields(e) => write!(f, "saved classic game: {e}"),
            SaveError::Rules(e) => write!(f, "rules: {e}"),
            SaveError::NoHands => {
                f.write_str("`hands` is empty: a saved game holds at least the hand in play")
            }
            SaveError::PositionHands(n) => write!(
                f,
                "`hands` holds {n}, but a game from a position is one hand"
            ),
            SaveError::Seat { seat, players } => write!(
                f,
                "`seat` {seat}: the rules seat players 0 to {}",
                players - 1
            ),
        }
    }
}

impl std::error::Error for SaveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SaveError::NotJson(e) | SaveError::Fields(e) | SaveError::ClassicFields(e) => Some(e),
            SaveError::Rules(e) => Some(e),
            _ => None,
        }
    }
}

/// Where `save [FILE]` writes, or `None` with the reason told in `out`:
/// nothing once the game is over (`over`); else FILE, or `save.json` in
/// the game's `--out` directory.
pub fn save_target(
    over: bool,
    path: Option<PathBuf>,
    out_dir: Option<&Path>,
    out: &mut String,
) -> Option<PathBuf> {
    use std::fmt::Write as _;
    if over {
        let _ = writeln!(out, "the game is over: nothing to save");
        return None;
    }
    let path = path.or_else(|| out_dir.map(|d| d.join("save.json")));
    if path.is_none() {
        let _ = writeln!(out, "save: give a file, e.g. save game.json");
    }
    path
}

/// The side file `what` of a save at `path`: `DIR/save.json` gives
/// `DIR/save.WHAT.json`.
pub fn side_path(path: &Path, what: &str) -> PathBuf {
    PathBuf::from(format!("{}.{what}.json", path.with_extension("").display()))
}

/// Writes a save of either family, making its directory first: `game` to
/// `path`, `position` (the position in play with every hidden card) to its
/// `position` side file and `log` (the hand's game log, if there is one)
/// to its `log` side file.
pub fn write_files(
    path: &Path,
    game: &str,
    position: &str,
    log: Option<&str>,
) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, game)?;
    std::fs::write(side_path(path, "position"), position)?;
    if let Some(log) = log {
        std::fs::write(side_path(path, "log"), log)?;
    }
    Ok(())
}

/// What a save written by [`write_files`] says: where the game is, the
/// command that resumes it (`out`: the directory of the game's rows) and
/// what its side files hold.
pub fn saved_text(path: &Path, out: Option<&Path>, log: bool) -> String {
    format!(
        "saved to {}; resume with `kanaszta human --resume {}{}` ({} holds the position with \
         every hidden card{})",
        path.display(),
        path.display(),
        out.map(|d| format!(" --out {}", d.display()))
            .unwrap_or_default(),
        side_path(path, "position").display(),
        if log {
            format!(", {} the hand's game log", side_path(path, "log").display())
        } else {
            String::new()
        }
    )
}
