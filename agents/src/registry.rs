//! The agents known by name to every command (`kanaszta play --a NAME`,
//! `kanaszta agents`, the specs of runs), for both rule families: one
//! line each, saying which families the agent plays. A new agent is one
//! file — its [`Agent<G>`](crate::Agent) for each family it plays and its
//! parameters declared with [`agent_params!`](crate::agent_params) — and
//! one line here.
//!
//! ```
//! use kanaszta_agents::AgentSpec;
//! use kanaszta_engine::classic::ClassicState;
//! let s: AgentSpec<ClassicState> = "ismcts:iters=50,rollout=greedy".parse().unwrap();
//! assert_eq!(s.to_string(), "ismcts:iters=50,rollout=greedy");
//! let e = "careful".parse::<AgentSpec<ClassicState>>().unwrap_err().to_string();
//! assert!(e.contains("careful plays decorated canasta only"), "{e}");
//! assert!(e.contains("random, greedy, rules, ismcts, pimc"), "{e}");
//! ```

use crate::classic::rules::ClassicRulesParams;
use crate::classic::search::{ClassicIsmctsParams, ClassicPimcParams};
use crate::classic::{ClassicGreedyParams, ClassicRandomParams};
use crate::spec::{help_of, parse_params, AgentSpec, ParamDoc, Params, SpecError};
use crate::Family;
use kanaszta_engine::classic::ClassicState;
use kanaszta_engine::{Game, GameState};
use std::any::Any;
use std::str::FromStr;

/// The example agent of `agents/examples/careful.rs`: a complete agent in
/// one file, compiled here so that `kanaszta play --a careful` plays it.
#[path = "../examples/careful.rs"]
pub mod careful;

/// Every agent known by name, in the order `kanaszta agents` lists them,
/// each with the families it plays.
pub static AGENTS: &[Entry] = &[
    Entry::both::<crate::RandomParams, ClassicRandomParams>(),
    Entry::both::<crate::GreedyParams, ClassicGreedyParams>(),
    Entry::both::<crate::RulesParams, ClassicRulesParams>(),
    Entry::both::<crate::IsmctsParams, ClassicIsmctsParams>(),
    Entry::both::<crate::PimcParams, ClassicPimcParams>(),
    Entry::both::<crate::value::ValueParams, crate::value::ClassicValueParams>(),
    Entry::decorated::<careful::CarefulParams>(),
];

/// An agent known by name ([`AGENTS`]): what it is for each family it
/// plays.
#[derive(Clone, Copy)]
pub struct Entry {
    /// The name in specs.
    pub name: &'static str,
    /// Decorated canasta's agent, if it plays decorated canasta.
    pub decorated: Option<Plays<GameState>>,
    /// Classic canasta's agent, if it plays classic canasta.
    pub classic: Option<Plays<ClassicState>>,
}

/// One family's agent of a registry [`Entry`]: how it plays and what
/// parameters it takes.
pub struct Plays<G: Family> {
    /// One line on how it plays.
    pub about: &'static str,
    /// Its parameters.
    pub docs: fn() -> &'static [ParamDoc],
    /// Its default spec.
    pub default: fn() -> AgentSpec<G>,
    parse: fn(&str, &str) -> Result<AgentSpec<G>, SpecError>,
    help: fn(&mut String, usize),
}

impl<G: Family> Clone for Plays<G> {
    fn clone(&self) -> Plays<G> {
        *self
    }
}

impl<G: Family> Copy for Plays<G> {}

impl<G: Family> Plays<G> {
    const fn of<P: Params<G>>() -> Plays<G> {
        Plays {
            about: P::SUMMARY,
            docs: P::docs,
            default: default_spec::<G, P>,
            parse: parse_spec::<G, P>,
            help: help_of::<G, P>,
        }
    }
}

impl Entry {
    /// The entry of an agent of decorated canasta only, whose parameters
    /// are `P`.
    pub const fn decorated<P: Params<GameState>>() -> Entry {
        Entry {
            name: P::NAME,
            decorated: Some(Plays::of::<P>()),
            classic: None,
        }
    }

    /// The entry of an agent of both families, whose parameters are `D`
    /// in decorated canasta and `C` in classic canasta (both of one name).
    pub const fn both<D: Params<GameState>, C: Params<ClassicState>>() -> Entry {
        Entry {
            name: D::NAME,
            decorated: Some(Plays::of::<D>()),
            classic: Some(Plays::of::<C>()),
        }
    }

    /// The family `G`'s agent, if this one plays `G`.
    pub fn plays<G: Family>(&self) -> Option<&Plays<G>> {
        let decorated: &dyn Any = &self.decorated;
        let classic: &dyn Any = &self.classic;
        decorated
            .downcast_ref::<Option<Plays<G>>>()
            .or_else(|| classic.downcast_ref::<Option<Plays<G>>>())
            .and_then(Option::as_ref)
    }

    /// The families it plays (`decorated`, `classic`), in that order.
    pub fn families(&self) -> Vec<&'static str> {
        let mut f = Vec::new();
        if self.decorated.is_some() {
            f.push(<GameState as Game>::FAMILY);
        }
        if self.classic.is_some() {
            f.push(<ClassicState as Game>::FAMILY);
        }
        f
    }
}

fn parse_spec<G: Family, P: Params<G>>(text: &str, body: &str) -> Result<AgentSpec<G>, SpecError> {
    Ok(AgentSpec::of(parse_params::<G, P>(text, body)?))
}

fn default_spec<G: Family, P: Params<G>>() -> AgentSpec<G> {
    AgentSpec::of(P::default())
}

/// Every agent name accepted in specs, in the registry's order.
pub fn agent_names() -> impl Iterator<Item = &'static str> {
    AGENTS.iter().map(|e| e.name)
}

/// The agent names accepted in specs of the family `G`, in the
/// registry's order.
pub fn agent_names_for<G: Family>() -> impl Iterator<Item = &'static str> {
    AGENTS
        .iter()
        .filter(|e| e.plays::<G>().is_some())
        .map(|e| e.name)
}

impl<G: Family> AgentSpec<G> {
    /// Every agent of the family `G` with its parameters, defaults and
    /// accepted values: the family's part of `kanaszta agents`.
    pub fn family_help() -> String {
        let (mut s, width) = if G::FAMILY == <GameState as Game>::FAMILY {
            (String::new(), 10)
        } else {
            (
                format!("{} (--rules {}-002 and its kin):\n", G::TITLE, G::FAMILY),
                14,
            )
        };
        for p in AGENTS.iter().filter_map(|e| e.plays::<G>()) {
            (p.help)(&mut s, width);
        }
        s
    }
}

impl AgentSpec {
    /// The text of `kanaszta agents`: every agent of decorated canasta
    /// with its parameters, defaults and accepted values, then those of
    /// classic canasta, then the families each agent plays.
    pub fn help() -> String {
        help()
    }
}

/// The text of `kanaszta agents` ([`AgentSpec::help`]).
pub fn help() -> String {
    use std::fmt::Write;
    let mut text = AgentSpec::<GameState>::family_help();
    text.push('\n');
    text.push_str(&AgentSpec::<ClassicState>::family_help());
    text.push_str("\nthe rule families each agent plays:\n");
    for e in AGENTS {
        let _ = writeln!(text, "    {:<10} {}", e.name, e.families().join(", "));
    }
    text
}

impl<G: Family> FromStr for AgentSpec<G> {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec<G>, SpecError> {
        let t = text.trim();
        let (name, body) = t.split_once(':').unwrap_or((t, ""));
        let name = name.trim().to_ascii_lowercase();
        match AGENTS.iter().find(|e| e.name == name) {
            Some(e) => match e.plays::<G>() {
                Some(p) => (p.parse)(text, body),
                None => Err(SpecError::NotForFamily {
                    spec: text.to_string(),
                    agent: e.name,
                    family: G::FAMILY,
                    plays: e.families(),
                    accepted: agent_names_for::<G>().collect(),
                }),
            },
            None => Err(SpecError::UnknownAgent {
                spec: text.to_string(),
                name,
                family: G::FAMILY,
                accepted: agent_names_for::<G>().collect(),
            }),
        }
    }
}
