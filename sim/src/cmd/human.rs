//! `kanaszta human`: a person plays against an agent in the terminal. The
//! game is the state machine of [`crate::human`]; this module reads the
//! person's lines (a terminal or a pipe) and writes what it says. Under
//! `--rules classic-…` (or from a classic position, or resuming a saved
//! classic game) the game is [`crate::human::classic`]'s, read and
//! written the same way.

use super::parse_agent;
use crate::classic::ClassicHandRow;
use crate::error::CliError;
use crate::human::classic::{ClassicConfig, ClassicSaveFile, ClassicSession};
use crate::human::save::SaveFile;
use crate::human::screen::Style;
use crate::human::{Await, Config, Pace, Session, Terminal};
use crate::input;
use crate::position::AnyPosition;
use crate::rows::HandRow;
use crate::run::family::{family_rules, Classic, Decorated, FamilyRules, RunFamily};
use crate::run::options::RulesArgs;
use crate::signals;
use clap::Args;
use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::Rules;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Longest input line read (longer lines are refused, not read whole).
const LINE_LIMIT: u64 = 4096;

/// Options of `kanaszta human`.
#[derive(Args, Debug, Clone)]
pub struct HumanArgs {
    /// The agent to play against (see `kanaszta agents`); classic canasta:
    /// the agent in every other seat, a partner's included.
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    vs: String,
    /// The agent `hint` asks (`hint AGENT` asks another).
    #[arg(long, default_value = "ismcts", value_name = "AGENT")]
    hint: String,
    /// Your seat: 0 or 1 (classic canasta: 0 to the players less one).
    #[arg(long, default_value_t = 0, value_name = "S")]
    seat: usize,
    /// Seed of the deal and of the agent (default: from the clock; shown at the start).
    #[arg(long)]
    seed: Option<u64>,
    /// Play a whole match (to the target, with the tax; classic canasta: to
    /// the target, C-24) instead of one hand.
    #[arg(long = "match", id = "is_match")]
    is_match: bool,
    /// A rated game: no undo, no hints.
    #[arg(long)]
    rated: bool,
    /// Play one hand from a position (the JSON position format of
    /// `kanaszta legal`; a classic canasta position plays classic
    /// canasta under its own rules).
    #[arg(long, value_name = "FILE", conflicts_with = "is_match")]
    position: Option<String>,
    /// Resume a game saved with `save` (or left at the end of the input).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["vs", "seat", "seed", "is_match", "rated", "position"])]
    resume: Option<PathBuf>,
    /// Directory for hands.csv (each finished hand appended, the columns of
    /// `kanaszta play` under the same rules) and save.json.
    /// The directory is checked before the game: one that cannot take them
    /// is refused.
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
    let Some(path) = &a.resume else {
        let position = match &a.position {
            Some(p) => {
                let text = crate::position::read(p)?;
                // A classic position plays classic canasta, under its own
                // rules.
                if let AnyPosition::Classic(g) = crate::position::load_text(p, &text)? {
                    // --rules and --set are not applied to it: refused
                    // unless they say the position's own rules.
                    if a.rules.is_given() && a.rules.classic()? != Some(*g.rules()) {
                        let mut given = Vec::new();
                        if a.rules.name() != "decorated-2003-02" {
                            given.push(format!("--rules {}", a.rules.name()));
                        }
                        given.extend(a.rules.settings().iter().map(|s| format!("--set {s}")));
                        return Err(CliError::Input(format!(
                            "--position {p}: a classic canasta position plays under its own \
                             rules (its `rules` field), which {} would change; leave --rules \
                             and --set out, or write the switches into the position's `rules`, \
                             e.g. \"rules\": {{\"preset\": \"classic-002\", \"target\": 3000}} \
                             (sim/POSITIONS.md)",
                            given.join(" ")
                        )));
                    }
                    return start::<Classic>(&a, *g.rules(), Some(text), pace, style, terminal);
                }
                Some(text)
            }
            None => None,
        };
        return match family_rules(&a.rules)? {
            FamilyRules::Decorated(r) => start::<Decorated>(&a, r, position, pace, style, terminal),
            FamilyRules::Classic(r) => start::<Classic>(&a, r, position, pace, style, terminal),
        };
    };
    // A saved game: its own rules, of the family its file names.
    let cfg = decorated_config(&a, a.rules.build()?, None, pace, style)?;
    let text = input::read_text(&path.display().to_string(), "saved game", input::JSON_LIMIT)?;
    if ClassicSaveFile::is_classic(&text) {
        let save = ClassicSaveFile::from_json(&text)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        let classic = ClassicSession::resume(&save, Some(a.out.clone()))?;
        check_out(&a.out, &Classic::header())?;
        return play_out(classic, !terminal);
    }
    let save = SaveFile::from_json(&text)
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
    let session = Session::resume(&save, cfg)?;
    check_out(&a.out, &Decorated::header())?;
    play_out(session, !terminal)
}

/// A new game of family `F` under `rules` (from the text of `--position`
/// if given), played at the terminal.
fn start<F: HumanFamily>(
    a: &HumanArgs,
    rules: F::Rules,
    position: Option<String>,
    pace: Pace,
    style: Style,
    terminal: bool,
) -> Result<ExitCode, CliError> {
    let session = F::session(a, rules, position, pace, style)?;
    check_out(&a.out, &F::header())?;
    play_out(session, !terminal)
}

/// What `human` needs of a family: a new game at the terminal, and the
/// columns of its hands.csv.
trait HumanFamily: RunFamily {
    /// The game at the terminal.
    type Session: Terminal;
    /// A new game of `a` under `rules`, from `position` (its text) if given.
    fn session(
        a: &HumanArgs,
        rules: Self::Rules,
        position: Option<String>,
        pace: Pace,
        style: Style,
    ) -> Result<Self::Session, CliError>;
    /// The columns of the family's hands.csv (of `kanaszta play`).
    fn header() -> Vec<String>;
}

impl HumanFamily for Decorated {
    type Session = Session;
    fn session(
        a: &HumanArgs,
        rules: Rules,
        position: Option<String>,
        pace: Pace,
        style: Style,
    ) -> Result<Session, CliError> {
        Session::new(decorated_config(a, rules, position, pace, style)?)
    }
    fn header() -> Vec<String> {
        HandRow::header()
    }
}

impl HumanFamily for Classic {
    type Session = ClassicSession;
    fn session(
        a: &HumanArgs,
        rules: ClassicRules,
        position: Option<String>,
        _pace: Pace,
        _style: Style,
    ) -> Result<ClassicSession, CliError> {
        if let (Some(p), Some(text)) = (&a.position, &position) {
            if !crate::position::is_classic_text(text) {
                return Err(CliError::Input(format!(
                    "--position {p}: a decorated canasta position, but --rules names classic \
                     canasta; a classic position says `\"family\": \"classic\"` or names a \
                     classic preset in `rules` (sim/POSITIONS.md), and plays under its own \
                     rules without --rules; leave --rules out to play this one as decorated \
                     canasta"
                )));
            }
            // Checked here to name the file; the session loads it again.
            crate::position::load_classic(p, text)?;
        }
        let seed = a.seed.unwrap_or_else(clock_seed);
        let cfg = ClassicConfig {
            vs: super::play::parse_classic_agent(&a.vs)?,
            hint: super::play::parse_classic_agent(&a.hint)?,
            seat: a.seat,
            name: a.name.clone(),
            seed,
            is_match: a.is_match,
            rated: a.rated,
            rules,
            position,
            out: Some(a.out.clone()),
        };
        ClassicSession::new(cfg)
    }
    fn header() -> Vec<String> {
        ClassicHandRow::header()
    }
}

/// The decorated game of `a` under `rules` (`--position`'s text
/// `position` checked).
fn decorated_config(
    a: &HumanArgs,
    rules: Rules,
    position: Option<String>,
    pace: Pace,
    style: Style,
) -> Result<Config, CliError> {
    let position = match (&a.position, position) {
        (Some(p), Some(text)) => {
            // Checked here to name the file; the session loads it again.
            kanaszta_engine::Position::from_json(&text)
                .and_then(|pos| pos.to_state())
                .map_err(|e| CliError::Input(format!("{p}: {e}")))?;
            Some(text)
        }
        _ => None,
    };
    let seed = a.seed.unwrap_or_else(clock_seed);
    Ok(Config {
        vs: parse_agent(&a.vs)?,
        hint: parse_agent(&a.hint)?,
        seat: a.seat,
        name: a.name.clone(),
        seed,
        is_match: a.is_match,
        rated: a.rated,
        pace,
        style,
        rules,
        position,
        out: Some(a.out.clone()),
    })
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
}

/// Plays the game with the person's lines until it is over, saved or
/// stopped; `echo` repeats each line read (a pipe).
fn play_out(mut session: impl Terminal, echo: bool) -> Result<ExitCode, CliError> {
    let mut text = String::new();
    session.start(&mut text);
    let lines = read_lines();
    loop {
        if session.waiting() == Await::Done {
            write_out(&text)?;
            return Ok(ExitCode::from(session.exit_code()));
        }
        text.push_str(session.prompt());
        write_out(&text)?;
        text.clear();
        match lines.recv().unwrap_or(Input::End) {
            Input::Line(bytes) => {
                let line = printable(&bytes);
                if echo {
                    text.push_str(line.trim_end());
                    text.push('\n');
                }
                session.input(&line, &mut text);
            }
            Input::Overlong => text.push_str(&format!(
                "\na line of more than {LINE_LIMIT} bytes is not a move; type help for the commands\n"
            )),
            Input::Endless => {
                text.push_str(&format!(
                    "\nthe input holds more than {} MiB without a line break: not a person's \
                     moves (binary data?); it is read no further\n",
                    SKIP_LIMIT >> 20
                ));
                session.end_of_input(&mut text);
                write_out(&text)?;
                return Ok(ExitCode::from(1));
            }
            Input::End => {
                let code = session.end_of_input(&mut text);
                write_out(&text)?;
                return Ok(ExitCode::from(code));
            }
            Input::Failed(e) => {
                text.push_str(&format!("\ncannot read standard input: {e}\n"));
                session.end_of_input(&mut text);
                write_out(&text)?;
                return Ok(ExitCode::from(1));
            }
            Input::Signal(sig) => {
                session.interrupted(signals::name(sig), &mut text);
                write_out(&text)?;
                return Ok(ExitCode::from(signals::exit_status(sig)));
            }
        }
    }
}

/// Most bytes of an overlong line skipped in search of its end; more, and
/// the input is not a person's typing (e.g. `< /dev/zero`).
const SKIP_LIMIT: u64 = 1 << 20;

/// What the game is told next: a line of the person's, or why there is
/// none.
enum Input {
    /// A line (its end included), at most [`LINE_LIMIT`] bytes.
    Line(Vec<u8>),
    /// A line longer than [`LINE_LIMIT`] bytes, skipped.
    Overlong,
    /// More than [`SKIP_LIMIT`] bytes without a line break.
    Endless,
    /// The end of the input.
    End,
    /// Standard input could not be read.
    Failed(std::io::Error),
    /// SIGINT, SIGTERM or SIGHUP (the terminal closed).
    Signal(i32),
}

/// The person's lines and the stopping signals, in the order they come:
/// a thread reads standard input a bounded line at a time (never holding
/// more than [`LINE_LIMIT`] bytes of a line), another waits for signals.
/// A second signal quits at once.
fn read_lines() -> std::sync::mpsc::Receiver<Input> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    let signal_tx = tx.clone();
    if let Ok(mut sigs) = signal_hook::iterator::Signals::new(signals::STOPPING) {
        std::thread::spawn(move || {
            let mut first = true;
            for sig in sigs.forever() {
                if !first {
                    eprintln!(
                        "kanaszta: {} again: quitting at once, without saving",
                        signals::name(sig)
                    );
                    std::process::exit(signals::exit_status(sig).into());
                }
                first = false;
                // The game saves itself at its next step; the person is
                // never waited for.
                let _ = signal_tx.send(Input::Signal(sig));
            }
        });
    }
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut stdin = stdin.lock();
        loop {
            let next = read_line(&mut stdin);
            let last = matches!(next, Input::End | Input::Endless | Input::Failed(_));
            if tx.send(next).is_err() || last {
                return;
            }
        }
    });
    rx
}

/// One line of at most [`LINE_LIMIT`] bytes; a longer one is skipped to
/// its end, at most [`SKIP_LIMIT`] bytes, without being kept.
fn read_line(input: &mut impl BufRead) -> Input {
    let mut line = Vec::new();
    let n = match std::io::Read::take(&mut *input, LINE_LIMIT).read_until(b'\n', &mut line) {
        Ok(n) => n,
        Err(e) => return Input::Failed(e),
    };
    if n == 0 {
        return Input::End;
    }
    if line.ends_with(b"\n") || (n as u64) < LINE_LIMIT {
        return Input::Line(line);
    }
    let mut skipped = 0u64;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) => return Input::Failed(e),
        };
        if buf.is_empty() {
            return Input::Overlong;
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return Input::Overlong;
        }
        let k = buf.len();
        input.consume(k);
        skipped += k as u64;
        if skipped > SKIP_LIMIT {
            return Input::Endless;
        }
    }
}

/// A line as text fit to echo and to quote in a message: bytes that are
/// not UTF-8 as `\xFF`, control characters (the terminal's escapes
/// among them) as `\u{1b}`; tabs and the line's end are kept.
fn printable(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() && !matches!(c, '\t' | '\n' | '\r') {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// Refuses an `--out` the game's rows or its save could not be written
/// to, before the game starts: a directory that cannot be made or written,
/// a hands.csv that is a directory, cannot be appended to or has other
/// columns than `header` (`kanaszta play`'s of the family), a save.json
/// that is a directory.
fn check_out(dir: &Path, header: &[String]) -> Result<(), CliError> {
    let refuse = |what: String| {
        CliError::Input(format!(
            "--out {}: {what}; the game's rows (hands.csv) and its save (save.json) go \
             there: give another --out, a directory you can write holding no hands.csv or \
             one written by kanaszta human or play",
            dir.display()
        ))
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| refuse(format!("cannot create the directory: {e}")))?;
    let hands = dir.join("hands.csv");
    match std::fs::metadata(&hands) {
        Ok(m) if m.is_dir() => return Err(refuse("hands.csv is a directory".into())),
        Ok(_) => {
            let header = header.join(",");
            let mut first = Vec::new();
            std::fs::File::open(&hands)
                .and_then(|f| {
                    std::io::BufReader::new(f)
                        .take(header.len() as u64 + 2)
                        .read_until(b'\n', &mut first)
                })
                .map_err(|e| refuse(format!("cannot read hands.csv: {e}")))?;
            let first = first.strip_suffix(b"\n").unwrap_or(&first);
            if !first.is_empty() && first != header.as_bytes() {
                return Err(refuse(format!(
                    "hands.csv has other columns than kanaszta play's hands.csv (its first \
                     line: `{}`)",
                    input::clip(&printable(first))
                )));
            }
            std::fs::OpenOptions::new()
                .append(true)
                .open(&hands)
                .map_err(|e| refuse(format!("cannot append to hands.csv: {e}")))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(refuse(format!("cannot read hands.csv: {e}"))),
    }
    if dir.join("save.json").is_dir() {
        return Err(refuse("save.json is a directory".into()));
    }
    // Whether a file can be made there (a read-only directory).
    let probe = dir.join(format!(".kanaszta-human-{}.probe", std::process::id()));
    std::fs::File::create(&probe).map_err(|e| refuse(format!("cannot write there: {e}")))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
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
