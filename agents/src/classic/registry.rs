//! The classic players known by name: under classic rules `--a SPEC` and
//! `--b SPEC` name these, beside [`crate::AGENTS`] for decorated canasta,
//! as `NAME` or `NAME:key=value,key=value`.
//!
//! ```
//! use kanaszta_agents::classic::registry::ClassicSpec;
//! let s: ClassicSpec = "ismcts:iters=50,rollout=rules".parse().unwrap();
//! assert_eq!(s.to_string(), "ismcts:iters=50,rollout=rules");
//! assert_eq!("pimc:worlds=8".parse::<ClassicSpec>().unwrap().to_string(), "pimc");
//! let e = "ismcts:depth=3".parse::<ClassicSpec>().unwrap_err().to_string();
//! assert!(e.contains("no parameter `depth`") && e.contains("iters=1..10000000"), "{e}");
//! ```
//!
//! A new classic player is one file under `classic/`, its parameters
//! declared with [`agent_params!`](crate::agent_params)'s classic form
//! (which implements [`ClassicParams`]), and one line here.

use super::greedy::ClassicGreedy;
use super::rules::ClassicRulesParams;
use super::search::{ClassicIsmctsParams, ClassicPimcParams};
use super::{ClassicAgent, ClassicRandom};
pub use crate::spec::ClassicParams;
use crate::spec::{
    help_of, parse_items, parse_params, Bounds, Erased, ParamDoc, Params, SpecError,
};
use std::fmt;
use std::str::FromStr;

/// The parameters of [`ClassicRandom`]: none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassicRandomParams;

/// The parameters of [`ClassicGreedy`]: none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassicGreedyParams;

macro_rules! no_params {
    ($Name:ty, $name:expr, $summary:expr, $build:expr) => {
        impl Params<dyn ClassicAgent> for $Name {
            const NAME: &'static str = $name;
            const SUMMARY: &'static str = $summary;
            fn docs() -> &'static [ParamDoc] {
                &[]
            }
            fn set(&mut self, key: &str, _value: &str) -> Result<(), String> {
                Err(format!("unknown key `{key}`"))
            }
            fn get(&self, _key: &str) -> Option<String> {
                None
            }
            fn build(&self) -> Box<dyn ClassicAgent> {
                Box::new($build)
            }
        }
    };
}
no_params!(
    ClassicRandomParams,
    "random",
    "uniform among the legal actions",
    ClassicRandom
);
no_params!(
    ClassicGreedyParams,
    "greedy",
    "melds what scores now, takes the pile with naturals, goes out when it can, discards its least useful card",
    ClassicGreedy
);

/// Every classic player known by name, in the order help lists them.
pub static CLASSIC_AGENTS: &[ClassicEntry] = &[
    ClassicEntry::of::<ClassicRandomParams>(),
    ClassicEntry::of::<ClassicGreedyParams>(),
    ClassicEntry::of::<ClassicRulesParams>(),
    ClassicEntry::of::<ClassicIsmctsParams>(),
    ClassicEntry::of::<ClassicPimcParams>(),
];

/// A classic player known by name ([`CLASSIC_AGENTS`]).
#[derive(Clone, Copy)]
pub struct ClassicEntry {
    /// The name in specs.
    pub name: &'static str,
    /// One line on how it plays.
    pub about: &'static str,
    /// Its parameters.
    pub docs: fn() -> &'static [ParamDoc],
    parse: fn(&str, &str) -> Result<ClassicSpec, SpecError>,
    help: fn(&mut String, usize),
}

impl ClassicEntry {
    /// The entry of the player whose parameters are `P`.
    pub const fn of<P: ClassicParams>() -> ClassicEntry {
        ClassicEntry {
            name: P::NAME,
            about: P::SUMMARY,
            docs: P::docs,
            parse: parse_spec::<P>,
            help: help_of::<dyn ClassicAgent, P>,
        }
    }
}

fn parse_spec<P: ClassicParams>(text: &str, body: &str) -> Result<ClassicSpec, SpecError> {
    Ok(ClassicSpec::of(parse_params::<dyn ClassicAgent, P>(
        text, body,
    )?))
}

/// The classic player names accepted in specs, in the registry's order.
pub fn classic_agent_names() -> impl Iterator<Item = &'static str> {
    CLASSIC_AGENTS.iter().map(|e| e.name)
}

/// A parsed classic player spec: which player, with which parameters.
/// Its text ([`fmt::Display`]) names only the parameters that differ from
/// their defaults, in canonical order, and parses back to itself.
#[derive(Clone, PartialEq)]
pub struct ClassicSpec(Erased<dyn ClassicAgent>);

impl ClassicSpec {
    /// The spec of the player with parameters `p`.
    pub fn of<P: ClassicParams>(p: P) -> ClassicSpec {
        ClassicSpec(Erased::of(p))
    }

    /// The parameters, if the spec is of the player whose parameters are
    /// `P`.
    pub fn params<P: ClassicParams>(&self) -> Option<&P> {
        self.0.params()
    }

    /// A fresh player.
    pub fn build(&self) -> Box<dyn ClassicAgent> {
        self.0.build()
    }

    /// The name.
    pub fn name(&self) -> &'static str {
        self.0.name()
    }

    /// The value of parameter `key` as text (`None`: no such parameter).
    pub fn get(&self, key: &str) -> Option<String> {
        self.0.get(key)
    }

    /// The declared range of number parameter `key`.
    pub fn bounds(&self, key: &str) -> Option<Bounds> {
        self.0.bounds(key)
    }

    /// The documented parameters, in canonical order.
    pub fn docs(&self) -> &'static [ParamDoc] {
        self.0.docs()
    }

    /// This spec with parameter `key` set to `value`; the error says what
    /// the key accepts.
    pub fn with(&self, key: &str, value: &str) -> Result<ClassicSpec, ClassicSpecError> {
        let text = self.to_string();
        let mut p = self.0.clone();
        let docs = self.0.docs();
        parse_items(
            &text,
            &format!("{key}={value}"),
            self.name(),
            docs,
            |k, v| p.set(k, v),
        )
        .map_err(ClassicSpecError::Param)?;
        Ok(ClassicSpec(p))
    }

    /// Every classic player with its parameters, defaults and accepted
    /// values: the classic part of `kanaszta agents`.
    pub fn help() -> String {
        let mut s = String::from("classic canasta (--rules classic-002 and its kin):\n");
        for e in CLASSIC_AGENTS {
            (e.help)(&mut s, 14);
        }
        s
    }
}

impl fmt::Display for ClassicSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Debug for ClassicSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ClassicSpec({self})")
    }
}

/// A classic spec that names no classic player, or whose parameters are
/// refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClassicSpecError {
    /// No classic player of this name.
    Unknown {
        /// The spec as given.
        spec: String,
    },
    /// A parameter refused: not `key=value`, a key the player does not
    /// have, a key given twice or a value out of range, each saying what
    /// is accepted.
    Param(SpecError),
}

impl fmt::Display for ClassicSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassicSpecError::Unknown { spec } => {
                let accepted: Vec<&str> = classic_agent_names().collect();
                write!(
                    f,
                    "unknown classic agent `{spec}`; accepted under classic rules: {} (e.g. `ismcts:iters=200,rollout=rules`; `kanaszta agents` lists every parameter)",
                    accepted.join(", ")
                )
            }
            ClassicSpecError::Param(e) => write!(f, "classic {e}"),
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
        (entry.parse)(text, body).map_err(ClassicSpecError::Param)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_classic_player_parses_bare_and_builds() {
        for name in classic_agent_names() {
            let s: ClassicSpec = name.parse().unwrap();
            assert_eq!(s.to_string(), name);
            assert_eq!(s.build().name(), name);
        }
    }
}
