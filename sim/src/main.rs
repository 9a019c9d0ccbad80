//! `kanaszta`: the command-line front end of the toolkit.

use clap::{Parser, Subcommand};
use kanaszta_agents::{Agent, RandomAgent};
use kanaszta_engine::{tax, Action, CardSet, GameState, HandEnd, Position, Rules};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::io::Write;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "kanaszta",
    version,
    about = "Decorated canasta (Díszített kanaszta) between AI agents"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(clap::Args, Debug, Clone, Default)]
struct RulesArgs {
    /// Rules: a preset name (decorated-2003-02, decorated-2003-01) or a JSON file.
    #[arg(long, default_value = "decorated-2003-02")]
    rules: String,
    /// Change one rule switch, e.g. --set tax=off --set opening=90 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

impl RulesArgs {
    fn build(&self) -> Result<Rules, String> {
        let mut r = match Rules::preset(&self.rules) {
            Ok(r) => r,
            Err(preset_err) => {
                if std::path::Path::new(&self.rules).exists() {
                    let text = std::fs::read_to_string(&self.rules)
                        .map_err(|e| format!("cannot read rules file {}: {e}", self.rules))?;
                    Rules::from_json(&text).map_err(|e| format!("{}: {e}", self.rules))?
                } else {
                    return Err(format!("{preset_err}, or a path to a rules JSON file"));
                }
            }
        };
        r.apply_settings(self.set.iter().map(String::as_str))?;
        Ok(r)
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play one seeded hand between two random agents, printed move by move.
    Demo {
        /// Seed of the deal and of the agents.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// List the legal actions of the player to move in a position (JSON file, `-` for stdin).
    Legal {
        /// The position file (the engine's JSON position format).
        position: String,
    },
    /// Is ACTION legal in the position, and if not which rule forbids it?
    /// Exit status 0 when legal, 3 when illegal.
    Check {
        /// The position file (the engine's JSON position format).
        position: String,
        /// The action in text notation, e.g. "take" or "lay 8D 8S 2C".
        action: String,
    },
    /// The scoring breakdown (D-14) of a position's hand, raw and taxed (D-15).
    Score {
        /// The position file (the engine's JSON position format).
        position: String,
    },
    /// Print the rule switches and their values.
    Rules {
        #[command(flatten)]
        rules: RulesArgs,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kanaszta: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command.unwrap_or(Command::Demo {
        seed: 1,
        rules: RulesArgs {
            rules: "decorated-2003-02".into(),
            set: Vec::new(),
        },
    }) {
        Command::Demo { seed, rules } => {
            let rules = rules.build()?;
            quiet_pipe(demo(&mut std::io::stdout().lock(), rules, seed))
        }
        Command::Legal { position } => {
            let g = load_position(&position)?;
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            let mut out = std::io::stdout().lock();
            quiet_pipe((|| {
                if g.is_terminal() {
                    writeln!(out, "the hand is over: no legal action")?;
                }
                for a in &legal {
                    writeln!(out, "{a}")?;
                }
                Ok(())
            })())
        }
        Command::Check { position, action } => {
            let g = load_position(&position)?;
            let a: Action = action.parse().map_err(|e| format!("{e}"))?;
            let mut t = g.clone();
            match t.apply(a) {
                Ok(()) => {
                    println!("legal: {a}");
                    Ok(())
                }
                Err(e) => {
                    println!("illegal: {a}: {e}");
                    std::process::exit(3);
                }
            }
        }
        Command::Score { position } => {
            let g = load_position(&position)?;
            let mut out = std::io::stdout().lock();
            quiet_pipe(score(&mut out, &g))
        }
        Command::Rules { rules } => {
            let rules = rules.build()?;
            let mut out = std::io::stdout().lock();
            quiet_pipe((|| {
                for (k, v) in rules.settings() {
                    writeln!(out, "{k}={v}")?;
                }
                Ok(())
            })())
        }
    }
}

/// Reads a position file (`-`: standard input) in the engine's JSON format.
fn load_position(path: &str) -> Result<GameState, String> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        s
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read position {path}: {e}"))?
    };
    let pos = Position::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    pos.to_state().map_err(|e| format!("{path}: {e}"))
}

fn score(out: &mut impl Write, g: &GameState) -> Result<(), Fail> {
    if !g.is_terminal() {
        writeln!(
            out,
            "the hand is not over: scores as if it ended now, nobody going out"
        )?;
    }
    writeln!(
        out,
        "player,red_threes,twins,canastas,heart_aces,going_out,from_hand,cleared_table,base,melded,in_hand,card_value,raw,total_before,taxed"
    )?;
    for (p, s) in g.scores().iter().enumerate() {
        let before = g.totals()[p];
        writeln!(
            out,
            "{p},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            s.red_three_points,
            s.twin_points,
            s.canasta_points,
            s.heart_ace_points,
            s.going_out_points,
            s.from_hand_points,
            s.cleared_table_points,
            s.base,
            s.melded,
            s.in_hand,
            s.card_value,
            s.total,
            before,
            tax(s.total, before, g.rules())
        )?;
    }
    Ok(())
}

/// Output errors: a closed pipe (`kanaszta demo | head`) is a normal end.
fn quiet_pipe(r: Result<(), Fail>) -> Result<(), String> {
    match r {
        Ok(()) => Ok(()),
        Err(Fail::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(Fail::Io(e)) => Err(format!("cannot write output: {e}")),
        Err(Fail::Msg(m)) => Err(m),
    }
}

/// An error of a command: a message for the user, or an output error.
enum Fail {
    Msg(String),
    Io(std::io::Error),
}

impl From<std::io::Error> for Fail {
    fn from(e: std::io::Error) -> Fail {
        Fail::Io(e)
    }
}

impl From<String> for Fail {
    fn from(m: String) -> Fail {
        Fail::Msg(m)
    }
}

fn demo(out: &mut impl Write, rules: Rules, seed: u64) -> Result<(), Fail> {
    let mut g = GameState::new(rules, seed);
    let n = g.players();
    let mut agents: Vec<RandomAgent> = (0..n).map(|_| RandomAgent::default()).collect();
    let mut rngs: Vec<Pcg64Mcg> = (0..n)
        .map(|p| Pcg64Mcg::seed_from_u64(seed.wrapping_mul(31).wrapping_add(p as u64)))
        .collect();
    let version = rules
        .settings()
        .into_iter()
        .find(|(k, _)| k == "version")
        .map(|(_, v)| v)
        .unwrap_or_default();
    writeln!(
        out,
        "kanaszta demo: seed {seed}, {n} players, {version}, random agents, starter P{}",
        g.starter()
    )?;
    let cut = g.cut_cards();
    writeln!(out, "cut shows {} {} {}", cut[0], cut[1], cut[2])?;
    let mut legal = Vec::new();
    while !g.is_terminal() {
        let p = g.current_player();
        g.legal_actions(&mut legal);
        let view = g.view(p);
        let a = agents[p].act(&view, &legal, &mut rngs[p]);
        let before = g.hand(p);
        g.apply(a)
            .map_err(|e| format!("agent of P{p} chose `{a}`: {e}"))?;
        let gained = g.hand(p).checked_sub(before).unwrap_or(CardSet::EMPTY);
        let extra = match a {
            Action::Draw | Action::FreePickup | Action::TakePile | Action::TakeRest => {
                format!("  (+{gained})")
            }
            Action::KeepCut { .. } => format!("  (P{p} holds {})", g.hand(p)),
            _ => String::new(),
        };
        writeln!(out, "turn {:>3}  P{p}  {a}{extra}", g.turns())?;
        if matches!(a, Action::Discard(_)) && !g.is_terminal() {
            let t = g.table(p);
            writeln!(
                out,
                "           P{p} hand [{}]  table: {} groups, {} canastas, {} red threes, {} twins",
                g.hand(p),
                t.len(),
                t.canastas(),
                t.red_threes.len(),
                t.twins
            )?;
        }
    }
    match g.end() {
        Some(HandEnd::WentOut {
            player,
            from_hand,
            cleared_table,
        }) => writeln!(
            out,
            "P{player} went out{}{}",
            if from_hand { " from hand" } else { "" },
            if cleared_table {
                ", clearing the table"
            } else {
                ""
            }
        )?,
        Some(HandEnd::Exhausted) => writeln!(out, "the hand is exhausted (stock and pile empty)")?,
        Some(HandEnd::Stalled) => writeln!(out, "the hand stalled at the turn cap")?,
        None => {}
    }
    for (p, s) in g.scores().iter().enumerate() {
        writeln!(
            out,
            "P{p}: base {} (red threes {}, twins {}, canastas {}, heart aces {}, going out {}) + cards {} (melded {}, in hand {}) = {}",
            s.base,
            s.red_three_points,
            s.twin_points,
            s.canasta_points,
            s.heart_ace_points,
            s.going_out_points + s.from_hand_points + s.cleared_table_points,
            s.card_value,
            s.melded,
            s.in_hand,
            s.total
        )?;
    }
    Ok(())
}
