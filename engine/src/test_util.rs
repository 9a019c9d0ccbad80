//! Helpers of the engine's unit tests.

use crate::card_set::CardSet;
use crate::group::Group;
use crate::table::Table;

/// The cards of `s`, e.g. `"8D 8S 2C"`.
pub(crate) fn cs(s: &str) -> CardSet {
    CardSet::parse(s).unwrap()
}

/// A table of the groups written as card lists.
pub(crate) fn table(groups: &[&str]) -> Table {
    let mut t = Table::default();
    for g in groups {
        t.push(Group::from_cards(cs(g)).unwrap()).unwrap();
    }
    t
}
