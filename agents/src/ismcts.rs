//! `ismcts`: placeholder while the agent is written; plays like `greedy`.

use crate::greedy::GreedyAgent;
use crate::spec::{ParamDoc, Params};
use crate::Agent;
use kanaszta_engine::{Action, SeatView};
use rand_pcg::Pcg64Mcg;

/// Parameters of [`IsmctsAgent`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IsmctsParams {}

impl Params for IsmctsParams {
    const NAME: &'static str = "ismcts";
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
pub struct IsmctsAgent {
    inner: GreedyAgent,
}

impl IsmctsAgent {
    /// A new agent.
    pub fn new(_params: IsmctsParams) -> IsmctsAgent {
        IsmctsAgent::default()
    }
}

impl Agent for IsmctsAgent {
    fn name(&self) -> String {
        IsmctsParams::NAME.into()
    }
    fn restart(&mut self) {
        self.inner.restart();
    }
    fn act(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        self.inner.act(view, legal, rng)
    }
}
