//! `kanaszta human`: a person plays against an agent in the terminal. The
//! game is the state machine of [`crate::human`]; this module reads the
//! person's lines (a terminal or a pipe) and writes what it says.

use super::parse_agent;
use crate::cli::RulesArgs;
use crate::error::CliError;
use crate::human::save::SaveFile;
use crate::human::screen::Style;
use crate::human::{Await, Config, Pace, Session};
use crate::input;
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};

use std::path::PathBuf;
use std::process::ExitCode;

/// Longest input line read (longer lines are refused, not read whole).
const LINE_LIMIT: u64 = 4096;

/// Options of `kanaszta human`.
#[derive(Args, Debug, Clone)]
pub struct HumanArgs {
    /// The agent to play against (see `kanaszta agents`).
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    vs: String,
    /// The agent `hint` asks (`hint AGENT` asks another).
    #[arg(long, default_value = "ismcts", value_name = "AGENT")]
    hint: String,
    /// Your seat: 0 or 1.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seat: usize,
    /// Seed of the deal and of the agent (default: from the clock; shown at the start).
    #[arg(long)]
    seed: Option<u64>,
    /// Play a whole match (to the target, with the tax) instead of one hand.
    #[arg(long = "match", id = "is_match")]
    is_match: bool,
    /// A rated game: no undo, no hints.
    #[arg(long)]
    rated: bool,
    /// Play one hand from a position (the engine's JSON position format).
    #[arg(long, value_name = "FILE", conflicts_with = "is_match")]
    position: Option<String>,
    /// Resume a game saved with `save` (or left at the end of the input).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["vs", "seat", "seed", "is_match", "rated", "position"])]
    resume: Option<PathBuf>,
    /// Directory for hands.csv (each finished hand appended, the columns of
    /// `kanaszta play`) and save.json.
    #[arg(long, default_value = "kanaszta-human", value_name = "DIR")]
    out: PathBuf,
    /// Your name in the CSV's agent column.
    #[arg(long, default_value = "human")]
    name: String,
    /// When the agent's moves wait for Enter: none, turn or move (default:
    /// turn in a terminal, none with --lines).
    #[arg(long, value_parser = Pace::parse)]
    pace: Option<Pace>,
    /// Line mode: plain text, no waiting, for pipes and scripts.
    #[arg(long)]
    lines: bool,
    /// Plain `8D` text without colour or suit symbols.
    #[arg(long)]
    plain: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `kanaszta human`.
pub fn run(a: HumanArgs) -> Result<ExitCode, CliError> {
    let terminal = std::io::stdout().is_terminal() && !a.lines;
    let style = if terminal && !a.plain {
        Style {
            unicode: utf8_locale(),
            color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    } else {
        Style::default()
    };
    let pace = a
        .pace
        .unwrap_or(if terminal { Pace::Turn } else { Pace::None });
    let position = match &a.position {
        Some(p) => {
            let text = input::read_text(p, "position", input::JSON_LIMIT)?;
            // Checked here to name the file; the session loads it again.
            kanaszta_engine::Position::from_json(&text)
                .and_then(|pos| pos.to_state())
                .map_err(|e| CliError::Input(format!("{p}: {e}")))?;
            Some(text)
        }
        None => None,
    };
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
    });
    let cfg = Config {
        vs: parse_agent(&a.vs)?,
        hint: parse_agent(&a.hint)?,
        seat: a.seat,
        name: a.name.clone(),
        seed,
        is_match: a.is_match,
        rated: a.rated,
        pace,
        style,
        rules: a.rules.build()?,
        position,
        out: Some(a.out.clone()),
    };
    let mut session = match &a.resume {
        Some(path) => {
            let text =
                input::read_text(&path.display().to_string(), "saved game", input::JSON_LIMIT)?;
            let save = SaveFile::from_json(&text)
                .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
            Session::resume(&save, cfg)?
        }
        None => Session::new(cfg)?,
    };
    let echo = !terminal;
    let mut text = String::new();
    session.start(&mut text);
    let stdin = std::io::stdin();
    let mut stdin = stdin.lock();
    loop {
        if session.waiting() == Await::Done {
            write_out(&text)?;
            return Ok(ExitCode::from(session.exit_code()));
        }
        text.push_str(session.prompt());
        write_out(&text)?;
        text.clear();
        let mut line = Vec::new();
        let n = std::io::Read::take(&mut stdin, LINE_LIMIT)
            .read_until(b'\n', &mut line)
            .map_err(|e| CliError::io("read", "standard input", e))?;
        if n == 0 {
            let code = session.end_of_input(&mut text);
            write_out(&text)?;
            return Ok(ExitCode::from(code));
        }
        if !line.ends_with(b"\n") && n as u64 == LINE_LIMIT {
            // Skip the rest of an overlong line.
            let mut rest = Vec::new();
            let _ = stdin.read_until(b'\n', &mut rest);
            text.push_str(&format!(
                "\na line of more than {LINE_LIMIT} bytes is not a move; type help for the commands\n"
            ));
            continue;
        }
        let line = String::from_utf8_lossy(&line).into_owned();
        if echo {
            text.push_str(line.trim_end());
            text.push('\n');
        }
        session.input(&line, &mut text);
    }
}

/// Whether the locale says UTF-8 (for the suit symbols).
fn utf8_locale() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        .next()
        .is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

fn write_out(text: &str) -> Result<(), CliError> {
    let mut o = std::io::stdout().lock();
    crate::error::quiet_pipe(
        o.write_all(text.as_bytes())
            .and_then(|()| o.flush())
            .map_err(CliError::from),
    )
}
