//! Agent specs as users type them: `NAME` or `NAME:key=value,key=value`.
//!
//! ```
//! use kanaszta_agents::AgentSpec;
//! let spec: AgentSpec = "ismcts:iters=500,rollout=greedy".parse().unwrap();
//! assert_eq!(spec.to_string(), "ismcts:iters=500,rollout=greedy");
//! assert_eq!("greedy".parse::<AgentSpec>().unwrap().to_string(), "greedy");
//! let err = "grody".parse::<AgentSpec>().unwrap_err().to_string();
//! assert!(err.contains("random, greedy, rules, ismcts, pimc"));
//! ```
//!
//! The canonical text of a spec ([`std::fmt::Display`]) names only the
//! parameters that differ from their defaults, in a fixed order, so equal
//! agents print equally and every printed spec parses back to itself.

use crate::greedy::{GreedyAgent, GreedyParams};
use crate::ismcts::{IsmctsAgent, IsmctsParams};
use crate::pimc::{PimcAgent, PimcParams};
use crate::random::{RandomAgent, RandomParams};
use crate::rules::{RulesAgent, RulesParams};
use crate::Agent;
use std::fmt;
use std::str::FromStr;

/// One documented parameter of an agent.
#[derive(Clone, Copy, Debug)]
pub struct ParamDoc {
    /// The key users type.
    pub key: &'static str,
    /// What values it takes.
    pub accepts: &'static str,
    /// What it does.
    pub doc: &'static str,
}

/// The parameters of one kind of agent: settable by key from text, readable
/// by key as text.
pub trait Params: Default + Clone + PartialEq + fmt::Debug {
    /// The agent's name in specs.
    const NAME: &'static str;
    /// One line on what the agent does.
    const SUMMARY: &'static str;
    /// Every parameter, in canonical order.
    fn docs() -> &'static [ParamDoc];
    /// Sets one parameter; the error says what the key accepts.
    fn set(&mut self, key: &str, value: &str) -> Result<(), String>;
    /// Reads one parameter as text (`None` for an unknown key).
    fn get(&self, key: &str) -> Option<String>;
}

/// A parsed agent spec: which agent, with which parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// `random`
    Random(RandomParams),
    /// `greedy`
    Greedy(GreedyParams),
    /// `rules`
    Rules(RulesParams),
    /// `ismcts`
    Ismcts(IsmctsParams),
    /// `pimc`
    Pimc(PimcParams),
}

/// The agent names accepted in specs.
pub const AGENT_NAMES: [&str; 5] = ["random", "greedy", "rules", "ismcts", "pimc"];

/// Why a spec was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

fn parse_params<P: Params>(text: &str, body: &str) -> Result<P, SpecError> {
    let mut p = P::default();
    let mut seen: Vec<&str> = Vec::new();
    for item in body.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((key, value)) = item.split_once('=') else {
            return Err(SpecError(format!(
                "agent spec `{text}`: `{item}` is not key=value; {} accepts {}",
                P::NAME,
                keys_of::<P>()
            )));
        };
        let (key, value) = (key.trim(), value.trim());
        if !P::docs().iter().any(|d| d.key == key) {
            return Err(SpecError(format!(
                "agent spec `{text}`: {} has no parameter `{key}`; accepted: {}",
                P::NAME,
                keys_of::<P>()
            )));
        }
        if seen.contains(&key) {
            return Err(SpecError(format!(
                "agent spec `{text}`: `{key}` is given twice"
            )));
        }
        seen.push(key);
        p.set(key, value).map_err(|e| {
            SpecError(format!(
                "agent spec `{text}`: bad value `{value}` for {}'s `{key}`: {e}",
                P::NAME
            ))
        })?;
    }
    Ok(p)
}

fn keys_of<P: Params>() -> String {
    let keys: Vec<String> = P::docs()
        .iter()
        .map(|d| format!("{}={}", d.key, d.accepts))
        .collect();
    if keys.is_empty() {
        "no parameters".into()
    } else {
        keys.join(", ")
    }
}

fn write_params<P: Params>(p: &P, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(P::NAME)?;
    let d = P::default();
    let mut first = true;
    for doc in P::docs() {
        let v = p.get(doc.key);
        if v != d.get(doc.key) {
            f.write_str(if first { ":" } else { "," })?;
            first = false;
            write!(f, "{}={}", doc.key, v.unwrap_or_default())?;
        }
    }
    Ok(())
}

fn help_of<P: Params>(out: &mut String) {
    use fmt::Write;
    let d = P::default();
    let _ = writeln!(out, "{} — {}", P::NAME, P::SUMMARY);
    for doc in P::docs() {
        let _ = writeln!(
            out,
            "    {:<10} {} (default {}; accepts {})",
            doc.key,
            doc.doc,
            d.get(doc.key).unwrap_or_default(),
            doc.accepts
        );
    }
}

impl AgentSpec {
    /// The agent's name (`random`, `greedy`, …).
    pub fn name(&self) -> &'static str {
        match self {
            AgentSpec::Random(_) => RandomParams::NAME,
            AgentSpec::Greedy(_) => GreedyParams::NAME,
            AgentSpec::Rules(_) => RulesParams::NAME,
            AgentSpec::Ismcts(_) => IsmctsParams::NAME,
            AgentSpec::Pimc(_) => PimcParams::NAME,
        }
    }

    /// A new agent of this spec.
    pub fn build(&self) -> Box<dyn Agent> {
        match self {
            AgentSpec::Random(p) => Box::new(RandomAgent::new(p.clone())),
            AgentSpec::Greedy(p) => Box::new(GreedyAgent::new(p.clone())),
            AgentSpec::Rules(p) => Box::new(RulesAgent::new(p.clone())),
            AgentSpec::Ismcts(p) => Box::new(IsmctsAgent::new(p.clone())),
            AgentSpec::Pimc(p) => Box::new(PimcAgent::new(p.clone())),
        }
    }

    /// Every agent with its parameters, defaults and accepted values: the
    /// text of `kanaszta agents`.
    pub fn help() -> String {
        let mut s = String::new();
        help_of::<RandomParams>(&mut s);
        help_of::<GreedyParams>(&mut s);
        help_of::<RulesParams>(&mut s);
        help_of::<IsmctsParams>(&mut s);
        help_of::<PimcParams>(&mut s);
        s
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        let t = text.trim();
        let (name, body) = t.split_once(':').unwrap_or((t, ""));
        let name = name.trim().to_ascii_lowercase();
        Ok(match name.as_str() {
            "random" => AgentSpec::Random(parse_params(text, body)?),
            "greedy" => AgentSpec::Greedy(parse_params(text, body)?),
            "rules" => AgentSpec::Rules(parse_params(text, body)?),
            "ismcts" => AgentSpec::Ismcts(parse_params(text, body)?),
            "pimc" => AgentSpec::Pimc(parse_params(text, body)?),
            _ => {
                return Err(SpecError(format!(
                    "unknown agent `{}` in spec `{text}`; accepted: {} (e.g. `ismcts:iters=1000,c=0.7,rollout=greedy`; `kanaszta agents` lists every parameter)",
                    name,
                    AGENT_NAMES.join(", ")
                )))
            }
        })
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random(p) => write_params(p, f),
            AgentSpec::Greedy(p) => write_params(p, f),
            AgentSpec::Rules(p) => write_params(p, f),
            AgentSpec::Ismcts(p) => write_params(p, f),
            AgentSpec::Pimc(p) => write_params(p, f),
        }
    }
}

/// Parses an on/off parameter (`on`, `off`; also `1`, `0`, `true`, `false`).
pub fn parse_switch(value: &str) -> Result<bool, String> {
    match value {
        "on" | "1" | "true" => Ok(true),
        "off" | "0" | "false" => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

/// An on/off parameter as text.
pub fn switch_text(on: bool) -> String {
    if on { "on" } else { "off" }.into()
}

/// Parses a number parameter in `lo..=hi`.
pub fn parse_in<T>(value: &str, lo: T, hi: T) -> Result<T, String>
where
    T: FromStr + PartialOrd + fmt::Display + Copy,
{
    match value.parse::<T>() {
        Ok(v) if v >= lo && v <= hi => Ok(v),
        _ => Err(format!("expected a number from {lo} to {hi}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_name_parses_and_prints_bare() {
        for name in AGENT_NAMES {
            let s: AgentSpec = name.parse().unwrap();
            assert_eq!(s.to_string(), name);
            assert_eq!(s.name(), name);
            assert_eq!(s.build().name(), name);
        }
    }

    #[test]
    fn unknown_agent_lists_the_accepted_names() {
        let e = "minimax".parse::<AgentSpec>().unwrap_err().0;
        assert!(e.contains("unknown agent `minimax`"), "{e}");
        assert!(e.contains("random, greedy, rules, ismcts, pimc"), "{e}");
    }

    #[test]
    fn unknown_key_lists_the_accepted_keys() {
        let e = "random:speed=3".parse::<AgentSpec>().unwrap_err().0;
        assert!(e.contains("no parameter `speed`"), "{e}");
        assert!(e.contains("discard="), "{e}");
        let e = "greedy:7".parse::<AgentSpec>().unwrap_err().0;
        assert!(e.contains("not key=value"), "{e}");
    }

    #[test]
    fn bad_value_says_what_is_accepted() {
        let e = "random:discard=2".parse::<AgentSpec>().unwrap_err().0;
        assert!(e.contains("bad value `2`"), "{e}");
        assert!(e.contains("from 0 to 1"), "{e}");
        let e = "random:discard=0.1,discard=0.2"
            .parse::<AgentSpec>()
            .unwrap_err()
            .0;
        assert!(e.contains("given twice"), "{e}");
    }

    #[test]
    fn specs_round_trip_through_their_text() {
        for text in [
            "random:discard=0.5",
            "random:discard=0.5,patience=10",
            "greedy",
            "rules",
            "ismcts",
            "pimc",
        ] {
            let s: AgentSpec = text.parse().unwrap();
            let again: AgentSpec = s.to_string().parse().unwrap();
            assert_eq!(s, again, "{text}");
            assert_eq!(s.to_string(), text);
        }
        // Defaults written out are dropped from the canonical text.
        let s: AgentSpec = "random:discard=0.3".parse().unwrap();
        assert_eq!(s.to_string(), "random");
        // Case and spaces are forgiven in the name and around items.
        let s: AgentSpec = " Random: patience = 12 ".parse().unwrap();
        assert_eq!(s.to_string(), "random:patience=12");
    }

    #[test]
    fn help_documents_every_parameter_with_its_default() {
        let h = AgentSpec::help();
        for name in AGENT_NAMES {
            assert!(h.contains(&format!("{name} — ")), "{h}");
        }
        assert!(h.contains("discard") && h.contains("default 0.3"), "{h}");
    }
}
