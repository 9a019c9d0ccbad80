//! Pictures of a game and of a run: one self-contained HTML page each
//! (inline CSS, JavaScript and SVG; no network, no external font). The
//! data is embedded as JSON in the page and its script draws from it.
//!
//! - [`decorated`] and [`classic`]: a replayed game, one snapshot a step
//!   (`kanaszta replay … --html FILE`);
//! - [`run`]: a run directory's summary and charts (`kanaszta report DIR
//!   --html FILE`).

pub mod classic;
pub mod decorated;
pub mod run;

use crate::error::CliError;
use kanaszta_engine::CardSet;
use serde_json::{json, Value};
use std::path::Path;

/// The style sheet of every page.
const STYLE: &str = include_str!("style.css");
/// The script that draws a replayed game.
const REPLAY_JS: &str = include_str!("replay.js");
/// The script that draws a run's summary.
const RUN_JS: &str = include_str!("run.js");

/// What a page draws: a replayed game or a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageKind {
    /// A game, step by step.
    Replay,
    /// A run directory's summary.
    Run,
}

/// The cards of a set in notation (`AH`, `2C`, `JK`), each copy once.
pub fn cards(set: CardSet) -> Value {
    Value::Array(set.iter().map(|c| json!(c.to_string())).collect())
}

/// The JSON text as it may stand inside a `<script>` element: `</` would
/// end the element, so it is written `<\/` (the same string to JSON).
fn script_json(data: &Value) -> String {
    data.to_string().replace("</", "<\\/")
}

/// Text as HTML (for the title).
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The whole page: `data` embedded as JSON (element `#data`), the script
/// of `kind` drawing it into `#app`.
pub fn page(kind: PageKind, title: &str, data: &Value) -> String {
    let script = match kind {
        PageKind::Replay => REPLAY_JS,
        PageKind::Run => RUN_JS,
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <div id=\"app\"><noscript>This page draws with JavaScript.</noscript></div>\n\
         <script type=\"application/json\" id=\"data\">{}</script>\n\
         <script>\n{script}</script>\n</body>\n</html>\n",
        escape(title),
        script_json(data)
    )
}

/// The JSON embedded in a page made by [`page`] (for tests and tools).
pub fn embedded_json(html: &str) -> Option<Value> {
    let start = html.find("<script type=\"application/json\" id=\"data\">")?;
    let rest = &html[start..];
    let open = rest.find('>')? + 1;
    let close = rest.find("</script>")?;
    serde_json::from_str(&rest[open..close]).ok()
}

/// `--seat P`: a seat of the game (`None`: every hand shown).
pub fn check_seat(seat: Option<u32>, players: usize) -> Result<Option<usize>, CliError> {
    match seat {
        Some(p) if p as usize >= players => Err(CliError::Input(format!(
            "--seat {p}: the game has seats 0 to {}",
            players.saturating_sub(1)
        ))),
        s => Ok(s.map(|p| p as usize)),
    }
}

/// Writes a page to `path`.
pub fn write(path: &Path, html: &str) -> Result<(), CliError> {
    std::fs::write(path, html).map_err(|e| CliError::io("write page", path.display(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text that would end the script element stays inside it, and the
    /// embedded JSON reads back as written.
    #[test]
    fn the_embedded_json_survives_a_closing_tag_in_its_text() {
        let data = json!({"note": "</script><b>x</b>", "n": [1, 2]});
        let html = page(PageKind::Replay, "a <title>", &data);
        assert_eq!(
            html.matches("</script>").count(),
            2,
            "the two elements' own"
        );
        assert!(html.contains("<title>a &lt;title&gt;</title>"));
        assert_eq!(embedded_json(&html), Some(data));
    }
}
