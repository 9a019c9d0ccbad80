//! `rules`: placeholder while the agent is written; plays like `greedy`.

use crate::greedy::GreedyAgent;
use crate::spec::{ParamDoc, Params};
use crate::Agent;
use kanaszta_engine::{Action, SeatView};
use rand_pcg::Pcg64Mcg;

/// Parameters of [`RulesAgent`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RulesParams {}

impl Params for RulesParams {
    const NAME: &'static str = "rules";
    const SUMMARY: &'static str = "placeholder";
    fn docs() -> &'static [ParamDoc] {
        &[]
    }
    fn set(&mut self, key: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown key `{key}`"))
    }
    fn get(&self, _key: &str) -> Option<String> {
        None
    }
}

/// Placeholder agent.
#[derive(Default)]
pub struct RulesAgent {
    inner: GreedyAgent,
}

impl RulesAgent {
    /// A new agent.
    pub fn new(_params: RulesParams) -> RulesAgent {
        RulesAgent::default()
    }
}

impl Agent for RulesAgent {
    fn name(&self) -> String {
        RulesParams::NAME.into()
    }
    fn restart(&mut self) {
        self.inner.restart();
    }
    fn act(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        self.inner.act(view, legal, rng)
    }
}
