//! `pimc`: placeholder while the agent is written; plays like `greedy`.

use crate::greedy::GreedyAgent;
use crate::spec::{ParamDoc, Params};
use crate::Agent;
use kanaszta_engine::{Action, SeatView};
use rand_pcg::Pcg64Mcg;

/// Parameters of [`PimcAgent`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PimcParams {}

impl Params for PimcParams {
    const NAME: &'static str = "pimc";
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
pub struct PimcAgent {
    inner: GreedyAgent,
}

impl PimcAgent {
    /// A new agent.
    pub fn new(_params: PimcParams) -> PimcAgent {
        PimcAgent::default()
    }
}

impl Agent for PimcAgent {
    fn name(&self) -> String {
        PimcParams::NAME.into()
    }
    fn restart(&mut self) {
        self.inner.restart();
    }
    fn act(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        self.inner.act(view, legal, rng)
    }
}
