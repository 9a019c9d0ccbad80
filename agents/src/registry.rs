//! The agents known by name to every command (`kanaszta play --a NAME`,
//! `kanaszta agents`, the specs of runs): one line each. A new agent is
//! one file — its [`Agent`](crate::Agent) and its parameters declared with
//! [`agent_params!`](crate::agent_params) — and one line here.

use crate::spec::{help_of, parse_params, AgentSpec, Params, SpecError};
use std::str::FromStr;

/// The example agent of `agents/examples/careful.rs`: a complete agent in
/// one file, compiled here so that `kanaszta play --a careful` plays it.
#[path = "../examples/careful.rs"]
pub mod careful;

/// Every agent known by name, in the order `kanaszta agents` lists them.
pub static AGENTS: &[Entry] = &[
    Entry::of::<crate::RandomParams>(),
    Entry::of::<crate::GreedyParams>(),
    Entry::of::<crate::RulesParams>(),
    Entry::of::<crate::IsmctsParams>(),
    Entry::of::<crate::PimcParams>(),
    Entry::of::<careful::CarefulParams>(),
];

/// An agent known by name ([`AGENTS`]).
#[derive(Clone, Copy)]
pub struct Entry {
    /// The name in specs.
    pub name: &'static str,
    parse: fn(&str, &str) -> Result<AgentSpec, SpecError>,
    help: fn(&mut String, usize),
}

impl Entry {
    /// The entry of the agent whose parameters are `P`.
    pub const fn of<P: Params>() -> Entry {
        Entry {
            name: P::NAME,
            parse: parse_spec::<P>,
            help: help_of::<dyn crate::Agent, P>,
        }
    }
}

fn parse_spec<P: Params>(text: &str, body: &str) -> Result<AgentSpec, SpecError> {
    Ok(AgentSpec::of(parse_params::<dyn crate::Agent, P>(
        text, body,
    )?))
}

/// The agent names accepted in specs, in the registry's order.
pub fn agent_names() -> impl Iterator<Item = &'static str> {
    AGENTS.iter().map(|e| e.name)
}

impl AgentSpec {
    /// Every agent with its parameters, defaults and accepted values: the
    /// text of `kanaszta agents`.
    pub fn help() -> String {
        let mut s = String::new();
        for e in AGENTS {
            (e.help)(&mut s, 10);
        }
        s
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        let t = text.trim();
        let (name, body) = t.split_once(':').unwrap_or((t, ""));
        let name = name.trim().to_ascii_lowercase();
        match AGENTS.iter().find(|e| e.name == name) {
            Some(e) => (e.parse)(text, body),
            None => Err(SpecError::UnknownAgent {
                spec: text.to_string(),
                name,
                accepted: agent_names().collect(),
            }),
        }
    }
}
