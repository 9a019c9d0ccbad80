//! Saving a state as a position: every field that differs from its default.

use super::defaults::{
    default_dead_locked, default_free_offer, default_free_pending, default_opened,
    default_opened_at_start, default_pile_top_fresh,
};
use super::json::{
    AnchorJson, Cards, GroupJson, GroupObj, MoveJson, Origin, PendJson, PickupJson, PlayerJson,
    StatsJson, TableJson, TurnJson,
};
use super::*;
use crate::card::Card;
use crate::card_set::CardSet;
use crate::group::{Group, FLAG_NEW, FLAG_RECEIVED};
use crate::rules::Rules;
use crate::state::{GameState, Phase, Turn};
use crate::table::Table;

/// Copies of `c` in the groups of `t` not laid this turn.
pub(super) fn copies_in_old_groups(t: &Table, c: Card) -> u32 {
    t.groups()
        .iter()
        .filter(|g| !g.is_new())
        .map(|g| g.count(c))
        .sum()
}

/// `a − b` as multisets, clipped at zero.
pub(super) fn excess(a: CardSet, b: CardSet) -> CardSet {
    let mut out = CardSet::EMPTY;
    for c in a.kinds() {
        for _ in b.count(c)..a.count(c) {
            out.insert(c);
        }
    }
    out
}

// ----- saving ----------------------------------------------------------------

pub(super) fn group_json(g: &Group) -> GroupJson {
    let cards = Cards::from_set(g.cards());
    if g.flags() == 0 {
        GroupJson::Plain(cards)
    } else {
        GroupJson::Flagged(GroupObj {
            cards,
            new: g.flags() & FLAG_NEW != 0,
            received: g.flags() & FLAG_RECEIVED != 0,
        })
    }
}

/// The fields of `t` that differ from `base` (or, without a base, from an
/// empty table); `None` if nothing differs.
pub(super) fn table_json(t: &Table, base: Option<&Table>) -> Option<TableJson> {
    let empty = Table::default();
    let b = base.unwrap_or(&empty);
    let opened_default = base.map_or_else(|| default_opened(t), |b| b.opened);
    let tj = TableJson {
        groups: (t.groups() != b.groups()).then(|| t.groups().iter().map(group_json).collect()),
        red_threes: (t.red_threes != b.red_threes).then(|| Cards::from_set(t.red_threes)),
        twins: (t.twins != b.twins).then_some(t.twins),
        heart_aces: (t.heart_aces != b.heart_aces).then_some(t.heart_aces),
        heart_aces_new: (t.heart_aces_new != b.heart_aces_new).then_some(t.heart_aces_new),
        opened: (t.opened != opened_default).then_some(t.opened),
    };
    (tj != TableJson::default()).then_some(tj)
}

/// The fields of `t` that differ from `base`; `None` if nothing differs.
pub(super) fn turn_json(t: &Turn, base: &Turn) -> Option<TurnJson> {
    let pend = &t.pend[..t.pend_len as usize];
    let moves = &t.moves[..t.moves_len as usize];
    let tj = TurnJson {
        opened_at_start: (t.opened_at_start != base.opened_at_start).then_some(t.opened_at_start),
        free_offer: (t.free_offer != base.free_offer).then_some(t.free_offer),
        free_card: (t.free_card != base.free_card).then_some(t.free_card),
        pickup: (t.pickup != base.pickup).then(|| {
            t.pickup.map(|pk| PickupJson {
                top: pk.top,
                group_baseline: Some(pk.group_baseline),
                pile_size: Some(pk.pile_size),
                rest_taken: Some(pk.rest_taken),
            })
        }),
        must_go_out: (t.must_go_out != base.must_go_out).then_some(t.must_go_out),
        pending: (pend != &base.pend[..base.pend_len as usize]).then(|| {
            pend.iter()
                .map(|&(src, ret, wild)| PendJson {
                    wild,
                    src: Origin::from_raw(src),
                    ret: Some(Origin::from_raw(ret)),
                })
                .collect()
        }),
        moves: (moves != &base.moves[..base.moves_len as usize]).then(|| {
            moves
                .iter()
                .map(|&(to, from, wild)| MoveJson {
                    wild,
                    to: Origin::from_raw(to),
                    from: Origin::from_raw(from),
                })
                .collect()
        }),
        undos: (t.undos != base.undos).then_some(t.undos),
    };
    (tj != TurnJson::default()).then_some(tj)
}

impl Position {
    /// The state's position. Saving writes the generator's state, so the
    /// loaded state continues exactly as the saved one would.
    pub fn from_state(g: &GameState) -> Position {
        let s = g.to_parts();
        let n = g.players();
        let cur = s.current as usize;
        let phase = s.phase;
        let players = (0..n)
            .map(|p| {
                let stats = StatsJson::from_stats(&s.stats[p]);
                PlayerJson {
                    hand: (!s.hands[p].is_empty()).then(|| Cards::from_set(s.hands[p])),
                    known: (!s.known[p].is_empty()).then(|| Cards::from_set(s.known[p])),
                    table: table_json(&s.tables[p], None),
                    free_pending: (s.free_pending[p] != default_free_pending(phase))
                        .then_some(s.free_pending[p]),
                    owed_red: (s.owed_red[p] != 0).then_some(s.owed_red[p]),
                    stats: (stats != StatsJson::default()).then_some(stats),
                    dead_locked: (g.found_dead_locked(p) != default_dead_locked(g, p))
                        .then_some(g.found_dead_locked(p)),
                }
            })
            .collect();
        let fresh_default = default_pile_top_fresh(g.pile().len(), phase, &s.turn);
        let turn_base = Turn {
            opened_at_start: default_opened_at_start(phase, s.end, s.tables[cur].opened),
            free_offer: default_free_offer(
                &s.rules,
                phase,
                s.free_pending[cur],
                s.pile_top_fresh,
                g.pile_top(),
            ),
            ..Turn::default()
        };
        let anchor = if phase == Phase::Meld {
            let a = &s.anchor;
            let aj = AnchorJson {
                hand: (a.hand != s.hands[cur]).then(|| Cards::from_set(a.hand)),
                known: (a.known != s.known[cur]).then(|| Cards::from_set(a.known)),
                table: table_json(&a.table, Some(&s.tables[cur])),
                turn: turn_json(&a.turn, &s.turn),
            };
            (aj != AnchorJson::default()).then_some(aj)
        } else {
            None
        };
        Position {
            format: Some(FORMAT.to_string()),
            family: None,
            rules: (s.rules != Rules::default()).then_some(s.rules),
            rng: Some(format!("{:032x}", s.rng.state())),
            seed: None,
            phase,
            starter: Some(s.starter),
            current: Some(s.current),
            turns: Some(s.turns),
            totals: s.totals[..n]
                .iter()
                .any(|t| *t != 0)
                .then(|| s.totals[..n].to_vec()),
            players: Some(players),
            pile: (!g.pile().is_empty()).then(|| Cards::from_list(g.pile())),
            pile_top_fresh: (s.pile_top_fresh != fresh_default).then_some(s.pile_top_fresh),
            stock: Some(Cards::from_list(g.stock())),
            stock_known_bottom: (s.stock_known_bottom != 0).then_some(s.stock_known_bottom),
            cut: (phase == Phase::Cut).then(|| Cards::from_list(&s.cut)),
            turn: turn_json(&s.turn, &turn_base),
            anchor,
            end: s.end,
        }
    }
}
