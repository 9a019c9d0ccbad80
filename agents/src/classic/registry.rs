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
use crate::spec::{parse_items, Bounds, ParamDoc, SpecError};
use std::any::Any;
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
        impl ClassicParams for $Name {
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
            fn bounds(_key: &str) -> Option<Bounds> {
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
    default: fn() -> ClassicSpec,
}

impl ClassicEntry {
    /// The entry of the player whose parameters are `P`.
    pub const fn of<P: ClassicParams>() -> ClassicEntry {
        ClassicEntry {
            name: P::NAME,
            about: P::SUMMARY,
            docs: P::docs,
            parse: parse_spec::<P>,
            default: default_spec::<P>,
        }
    }
}

fn default_spec<P: ClassicParams>() -> ClassicSpec {
    ClassicSpec(Box::new(P::default()))
}

fn parse_spec<P: ClassicParams>(text: &str, body: &str) -> Result<ClassicSpec, SpecError> {
    let mut p = P::default();
    parse_items(text, body, P::NAME, P::docs(), |k, v| p.set(k, v))?;
    Ok(ClassicSpec(Box::new(p)))
}

/// The classic player names accepted in specs, in the registry's order.
pub fn classic_agent_names() -> impl Iterator<Item = &'static str> {
    CLASSIC_AGENTS.iter().map(|e| e.name)
}

/// [`ClassicParams`] of any classic player, behind one type.
trait AnyClassicParams: Send + Sync {
    fn name(&self) -> &'static str;
    fn docs(&self) -> &'static [ParamDoc];
    fn get(&self, key: &str) -> Option<String>;
    fn default_get(&self, key: &str) -> Option<String>;
    fn bounds(&self, key: &str) -> Option<Bounds>;
    fn set(&mut self, key: &str, value: &str) -> Result<(), String>;
    fn build(&self) -> Box<dyn ClassicAgent>;
    fn clone_box(&self) -> Box<dyn AnyClassicParams>;
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn AnyClassicParams) -> bool;
}

impl<P: ClassicParams> AnyClassicParams for P {
    fn name(&self) -> &'static str {
        P::NAME
    }
    fn docs(&self) -> &'static [ParamDoc] {
        P::docs()
    }
    fn get(&self, key: &str) -> Option<String> {
        ClassicParams::get(self, key)
    }
    fn default_get(&self, key: &str) -> Option<String> {
        ClassicParams::get(&P::default(), key)
    }
    fn bounds(&self, key: &str) -> Option<Bounds> {
        P::bounds(key)
    }
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        ClassicParams::set(self, key, value)
    }
    fn build(&self) -> Box<dyn ClassicAgent> {
        ClassicParams::build(self)
    }
    fn clone_box(&self) -> Box<dyn AnyClassicParams> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn AnyClassicParams) -> bool {
        other.as_any().downcast_ref::<P>() == Some(self)
    }
}

/// A parsed classic player spec: which player, with which parameters.
/// Its text ([`fmt::Display`]) names only the parameters that differ from
/// their defaults, in canonical order, and parses back to itself.
pub struct ClassicSpec(Box<dyn AnyClassicParams>);

impl Clone for ClassicSpec {
    fn clone(&self) -> ClassicSpec {
        ClassicSpec(self.0.clone_box())
    }
}

impl PartialEq for ClassicSpec {
    fn eq(&self, other: &ClassicSpec) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl ClassicSpec {
    /// The spec of the player with parameters `p`.
    pub fn of<P: ClassicParams>(p: P) -> ClassicSpec {
        ClassicSpec(Box::new(p))
    }

    /// The parameters, if the spec is of the player whose parameters are
    /// `P`.
    pub fn params<P: ClassicParams>(&self) -> Option<&P> {
        self.0.as_any().downcast_ref::<P>()
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
        let mut p = self.0.clone_box();
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
        use fmt::Write;
        let mut s = String::from("classic canasta (--rules classic-002 and its kin):\n");
        for e in CLASSIC_AGENTS {
            let d = (e.default)();
            let _ = writeln!(s, "{} — {}", e.name, e.about);
            for doc in (e.docs)() {
                let _ = writeln!(
                    s,
                    "    {:<14} {} (default {}; accepts {})",
                    doc.key,
                    doc.doc,
                    d.get(doc.key).unwrap_or_default(),
                    doc.accepts
                );
            }
        }
        s
    }
}

impl fmt::Display for ClassicSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.0;
        f.write_str(p.name())?;
        let mut first = true;
        for doc in p.docs() {
            let v = p.get(doc.key);
            if v != p.default_get(doc.key) {
                f.write_str(if first { ":" } else { "," })?;
                first = false;
                write!(f, "{}={}", doc.key, v.unwrap_or_default())?;
            }
        }
        Ok(())
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
