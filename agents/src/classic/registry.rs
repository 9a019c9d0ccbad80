//! The classic players known by name: under classic rules `--a NAME` and
//! `--b NAME` name these, beside [`crate::AGENTS`] for decorated canasta.
//! A new classic player is one file under `classic/` and one line here.

use super::greedy::ClassicGreedy;
use super::{ClassicAgent, ClassicRandom};
use std::fmt;
use std::str::FromStr;

/// A classic player known by name.
#[derive(Clone, Copy)]
pub struct ClassicEntry {
    /// The name in specs.
    pub name: &'static str,
    /// One line on how it plays.
    pub about: &'static str,
    build: fn() -> Box<dyn ClassicAgent>,
}

/// Every classic player known by name, in the order help lists them.
pub static CLASSIC_AGENTS: &[ClassicEntry] = &[
    ClassicEntry {
        name: "random",
        about: "uniform among the legal actions",
        build: || Box::new(ClassicRandom),
    },
    ClassicEntry {
        name: "greedy",
        about: "melds what scores now, takes the pile with naturals, goes out when it can, discards its least useful card",
        build: || Box::new(ClassicGreedy),
    },
    ClassicEntry {
        name: "rules",
        about: "a careful club player: opens when the minimum is in reach, freezes the pile against a collector, melds onto the partner's melds, discards what the next opponent cannot use, asks to go out when ahead",
        build: || super::rules::ClassicRulesParams::default().build(),
    },
];

/// The classic player names accepted in specs, in the registry's order.
pub fn classic_agent_names() -> impl Iterator<Item = &'static str> {
    CLASSIC_AGENTS.iter().map(|e| e.name)
}

/// A parsed classic player spec: a registered name (classic players take
/// no parameters yet).
#[derive(Clone, Copy)]
pub struct ClassicSpec {
    entry: &'static ClassicEntry,
}

impl ClassicSpec {
    /// A fresh player.
    pub fn build(&self) -> Box<dyn ClassicAgent> {
        (self.entry.build)()
    }

    /// The name.
    pub fn name(&self) -> &'static str {
        self.entry.name
    }

    /// Every classic player with its line: the classic part of
    /// `kanaszta agents`.
    pub fn help() -> String {
        let mut s = String::from("classic canasta (--rules classic-002 and its kin):\n");
        for e in CLASSIC_AGENTS {
            s.push_str(&format!("  {:<8} {}\n", e.name, e.about));
        }
        s
    }
}

impl fmt::Display for ClassicSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.entry.name)
    }
}

impl fmt::Debug for ClassicSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ClassicSpec({})", self.entry.name)
    }
}

/// A classic spec that names no classic player, or gives parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClassicSpecError {
    /// No classic player of this name.
    Unknown {
        /// The spec as given.
        spec: String,
    },
    /// Parameters given to a classic player.
    Params {
        /// The spec as given.
        spec: String,
    },
}

impl fmt::Display for ClassicSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let accepted: Vec<&str> = classic_agent_names().collect();
        match self {
            ClassicSpecError::Unknown { spec } => write!(
                f,
                "unknown classic agent `{spec}`; accepted under classic rules: {}",
                accepted.join(", ")
            ),
            ClassicSpecError::Params { spec } => write!(
                f,
                "classic agent spec `{spec}`: classic agents take no parameters yet; accepted: {}",
                accepted.join(", ")
            ),
        }
    }
}

impl std::error::Error for ClassicSpecError {}

impl FromStr for ClassicSpec {
    type Err = ClassicSpecError;

    fn from_str(text: &str) -> Result<ClassicSpec, ClassicSpecError> {
        let t = text.trim();
        let (name, body) = t.split_once(':').unwrap_or((t, ""));
        let name = name.trim().to_ascii_lowercase();
        let entry = CLASSIC_AGENTS
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| ClassicSpecError::Unknown {
                spec: text.to_string(),
            })?;
        if !body.trim().is_empty() {
            return Err(ClassicSpecError::Params {
                spec: text.to_string(),
            });
        }
        Ok(ClassicSpec { entry })
    }
}
