//! Loading a position: every field checked, every card accounted for, the
//! state built.

use super::defaults::{
    default_current, default_dead_locked, default_free_offer, default_free_pending, default_opened,
    default_opened_at_start, default_pile_top_fresh,
};
use super::error::bad;
use super::json::{AnchorJson, GroupJson, Origin, PlayerJson, StatsJson, TableJson, TurnJson};
use super::save::{copies_in_old_groups, excess};
use super::*;
use crate::card::Card;
use crate::card_set::CardSet;
use crate::group::{Group, FLAG_NEW, FLAG_RECEIVED};
use crate::rules::Rules;
use crate::state::{
    shuffle, Anchor, GameState, HandEnd, Parts, Phase, Pickup, PlayerStats, Turn, FROM_HAND,
    MAX_PLAYERS, MAX_UNDOS, MAX_WILD_MOVES, PACK,
};
use crate::table::{Table, MAX_GROUPS};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

// ----- loading ---------------------------------------------------------------

/// Why a group is illegal (D-9), for messages.
pub(super) fn illegal_reason(g: &Group) -> &'static str {
    let n = g.len();
    if g.is_wild_only() {
        if n < 3 {
            "a group of wilds only needs at least 3 cards (D-9.2)"
        } else {
            "a group of wilds only holds at most 7 cards (D-9.2)"
        }
    } else if n < 3 {
        "a group needs at least 3 cards (D-9.1)"
    } else if n > 8 {
        "a group holds at most 8 cards (D-9.1)"
    } else if n == 8 && g.wilds() > 0 {
        "a group of 8 holds no wild (D-9.1)"
    } else {
        "wilds must be fewer than naturals (D-9.1)"
    }
}

pub(super) fn parse_group(
    gj: &GroupJson,
    what: &dyn std::fmt::Display,
) -> Result<Group, PositionError> {
    let (cards, flags) = match gj {
        GroupJson::Plain(c) => (c, 0),
        GroupJson::Flagged(o) => (
            &o.cards,
            if o.new { FLAG_NEW } else { 0 } | if o.received { FLAG_RECEIVED } else { 0 },
        ),
    };
    let set = cards.set(what)?;
    let Some(mut g) = Group::from_cards(set) else {
        return Err(bad!(
            what,
            "{what} [{set}] is not a group: a group holds cards of one natural rank (4 to A) plus wilds, or wilds only; threes are never melded (D-9)"
        ));
    };
    if !g.is_legal() {
        return Err(bad!(
            what,
            "{what} [{set}] is illegal: {}",
            illegal_reason(&g)
        ));
    }
    g.set_flags(flags);
    Ok(g)
}

/// A table from its JSON, missing fields taken from `base` (or empty).
pub(super) fn resolve_table(
    tj: Option<&TableJson>,
    base: Option<&Table>,
    who: &dyn std::fmt::Display,
    rules: &Rules,
) -> Result<Table, PositionError> {
    let empty = TableJson::default();
    let tj = tj.unwrap_or(&empty);
    let none = Table::default();
    let b = base.unwrap_or(&none);
    let mut t = Table::default();
    match &tj.groups {
        Some(gs) => {
            if gs.len() > MAX_GROUPS {
                return Err(bad!(
                    format!("{who} groups"),
                    "{who}: {} groups, a table holds at most {MAX_GROUPS}",
                    gs.len()
                ));
            }
            for (i, gj) in gs.iter().enumerate() {
                t.push(parse_group(gj, &format_args!("{who} group {i}"))?);
            }
        }
        None => {
            for g in b.groups() {
                t.push(*g);
            }
        }
    }
    t.red_threes = match &tj.red_threes {
        Some(c) => {
            let what = format_args!("{who} red_threes");
            let s = c.set(&what)?;
            if s.red_three_count() != s.len() {
                return Err(bad!(
                    what,
                    "{what} [{s}]: only red threes (3H, 3D) are laid out as red threes (D-4)"
                ));
            }
            s
        }
        None => b.red_threes,
    };
    t.twins = tj.twins.unwrap_or(b.twins);
    t.heart_aces = tj.heart_aces.unwrap_or(b.heart_aces);
    t.heart_aces_new = tj.heart_aces_new.unwrap_or(b.heart_aces_new);
    if t.heart_aces > 2 {
        return Err(bad!(
            format!("{who} heart_aces"),
            "{who} heart_aces is {}: the pack holds two ♥A (D-1.1)",
            t.heart_aces
        ));
    }
    if t.heart_aces_new > t.heart_aces {
        return Err(bad!(
            format!("{who} heart_aces_new"),
            "{who} heart_aces_new is {} but heart_aces only {}: those laid this turn are among those laid",
            t.heart_aces_new, t.heart_aces
        ));
    }
    if t.heart_aces > 0 && !rules.heart_aces() {
        return Err(bad!(
            format!("{who} heart_aces"),
            "{who} has separately laid ♥A, but they exist only in decorated-2003-02 (D-9.4); the rules say {}",
            serde_json::to_value(rules.version)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        ));
    }
    t.opened = match (tj.opened, base) {
        (Some(o), _) => o,
        (None, Some(b)) => b.opened,
        (None, None) => default_opened(&t),
    };
    Ok(t)
}

/// A turn from its JSON, missing fields taken from `base`. `table` is the
/// mover's table the indices refer to, `pile_len` the pile now.
pub(super) fn resolve_turn(
    tj: Option<&TurnJson>,
    base: &Turn,
    table: &Table,
    pile_len: usize,
    what: &str,
) -> Result<Turn, PositionError> {
    let empty = TurnJson::default();
    let tj = tj.unwrap_or(&empty);
    let mut t = *base;
    t.opened_at_start = tj.opened_at_start.unwrap_or(base.opened_at_start);
    t.free_offer = tj.free_offer.unwrap_or(base.free_offer);
    if let Some(fc) = tj.free_card {
        t.free_card = fc;
    }
    if let Some(pk) = &tj.pickup {
        t.pickup = match pk {
            None => None,
            Some(pj) => {
                if !pj.top.is_natural() {
                    return Err(bad!(
                        format!("{what}.pickup"),
                        "{what}.pickup: the top card {} is not a natural: a pile with a wild or a black three on top is frozen (D-6.3), and a red three never lies on the pile",
                        pj.top
                    ));
                }
                let baseline = match pj.group_baseline {
                    Some(b) => b,
                    None => copies_in_old_groups(table, pj.top) as u8,
                };
                let size = match pj.pile_size {
                    Some(s) => s,
                    None => (pile_len + 1).min(u8::MAX as usize) as u8,
                };
                if size == 0 {
                    return Err(bad!(
                        format!("{what}.pickup.pile_size"),
                        "{what}.pickup.pile_size is 0: the pile taken held at least its top card"
                    ));
                }
                Some(Pickup {
                    top: pj.top,
                    group_baseline: baseline,
                    pile_size: size,
                    rest_taken: pj.rest_taken.unwrap_or(false),
                })
            }
        };
    }
    t.must_go_out = tj.must_go_out.unwrap_or(base.must_go_out);
    t.undos = tj.undos.unwrap_or(base.undos);
    if t.undos > MAX_UNDOS {
        return Err(bad!(
            format!("{what}.undos"),
            "{what}.undos is {}: a meld phase allows at most {MAX_UNDOS} (I-25)",
            t.undos
        ));
    }
    if let Some(list) = &tj.pending {
        if list.len() > MAX_WILD_MOVES {
            return Err(bad!(
                format!("{what}.pending"),
                "{what}.pending: {} entries, at most {MAX_WILD_MOVES} (the wilds of the pack)",
                list.len()
            ));
        }
        t.pend = Turn::default().pend;
        t.pend_len = 0;
        t.pending = CardSet::EMPTY;
        for (i, e) in list.iter().enumerate() {
            let w = format!("{what}.pending[{i}]");
            if !e.wild.is_wild() {
                return Err(bad!(
                    &w,
                    "{w}: {} is not a wild: only wilds are moved between groups (D-11.2)",
                    e.wild
                ));
            }
            let src = e.src.raw(table.len(), &format_args!("{w}.src"))?;
            let ret = match e.ret {
                Some(r) => r.raw(table.len(), &format_args!("{w}.ret"))?,
                None => match e.src {
                    Origin::Group(g) if table.groups()[g as usize].is_new() => FROM_HAND,
                    _ => src,
                },
            };
            if !t.pending.insert(e.wild) {
                return Err(bad!(&w, "{w}: more {} pending than the pack holds", e.wild));
            }
            t.pend[i] = (src, ret, e.wild);
            t.pend_len += 1;
        }
    }
    if let Some(list) = &tj.moves {
        if list.len() > MAX_WILD_MOVES {
            return Err(bad!(
                format!("{what}.moves"),
                "{what}.moves: {} entries, at most {MAX_WILD_MOVES} (each wild moves once a turn)",
                list.len()
            ));
        }
        t.moves = Turn::default().moves;
        t.moves_len = 0;
        for (i, m) in list.iter().enumerate() {
            let w = format!("{what}.moves[{i}]");
            if !m.wild.is_wild() {
                return Err(bad!(&w, "{w}: {} is not a wild", m.wild));
            }
            let to = m.to.raw(table.len(), &format_args!("{w}.to"))?;
            let from = m.from.raw(table.len(), &format_args!("{w}.from"))?;
            t.moves[i] = (to, from, m.wild);
            t.moves_len += 1;
        }
    }
    Ok(t)
}

/// A place cards lie in, for messages.
#[derive(Clone, Copy)]
pub(super) enum Zone {
    Hand(usize),
    Group(usize, usize),
    RedThrees(usize),
    HeartAces(usize),
    Pending,
    Pile,
    Cut,
    Stock,
}

impl std::fmt::Display for Zone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Zone::Hand(p) => write!(f, "player {p} hand"),
            Zone::Group(p, i) => write!(f, "player {p} group {i}"),
            Zone::RedThrees(p) => write!(f, "player {p} red_threes"),
            Zone::HeartAces(p) => write!(f, "player {p} heart_aces"),
            Zone::Pending => f.write_str("turn.pending"),
            Zone::Pile => f.write_str("pile"),
            Zone::Cut => f.write_str("cut"),
            Zone::Stock => f.write_str("stock"),
        }
    }
}

/// The cards of a zone.
pub(super) enum ZoneCards<'a> {
    Set(CardSet),
    List(&'a [Card]),
}

impl ZoneCards<'_> {
    fn each(&self, mut f: impl FnMut(Card)) {
        match self {
            ZoneCards::Set(s) => s.iter().for_each(f),
            ZoneCards::List(l) => l.iter().for_each(|c| f(*c)),
        }
    }
}

/// Counts every card of a position, and names the zones of extra cards.
pub(super) struct Census<'a> {
    counts: [u32; Card::KINDS],
    zones: Vec<(Zone, ZoneCards<'a>)>,
}

impl<'a> Census<'a> {
    fn new() -> Census<'a> {
        Census {
            counts: [0; Card::KINDS],
            zones: Vec::with_capacity(32),
        }
    }

    fn add(&mut self, zone: Zone, cards: ZoneCards<'a>) {
        cards.each(|c| self.counts[c.index() as usize] += 1);
        self.zones.push((zone, cards));
    }

    fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    fn max(k: usize) -> u32 {
        if k == Card::JOKER.index() as usize {
            8
        } else {
            2
        }
    }

    /// Cards over their number of copies, with where they are.
    fn extra(&self) -> Vec<String> {
        let mut out = Vec::new();
        for k in 0..Card::KINDS {
            if self.counts[k] <= Census::max(k) {
                continue;
            }
            let c = Card::from_index(k as u8).unwrap_or(Card::JOKER);
            let mut at = Vec::new();
            for (z, cards) in &self.zones {
                let mut n = 0;
                cards.each(|x| n += u32::from(x == c));
                match n {
                    0 => {}
                    1 => at.push(z.to_string()),
                    n => at.push(format!("{z} ×{n}")),
                }
            }
            out.push(format!(
                "{c} {} times, the pack holds {} ({})",
                self.counts[k],
                Census::max(k),
                at.join(", ")
            ));
        }
        out
    }

    /// The cards of the pack not counted.
    fn missing(&self) -> CardSet {
        let mut s = CardSet::EMPTY;
        for k in 0..Card::KINDS {
            let c = Card::from_index(k as u8).unwrap_or(Card::JOKER);
            for _ in self.counts[k]..Census::max(k) {
                s.insert(c);
            }
        }
        s
    }
}

impl Position {
    /// Builds the state, checking every rule a position must satisfy: the
    /// number of players, card conservation (the 112 cards of the pack, each
    /// exactly once across hands, tables, pending wilds, pile, stock and, in
    /// phase `cut`, the cut cards), legal groups (D-9), no red three in a hand
    /// (D-4), known cards in the hand, indices in range, and the turn
    /// consistent with the phase. Never panics.
    pub fn to_state(&self) -> Result<GameState, PositionError> {
        if let Some(f) = &self.format {
            if f != FORMAT {
                return Err(bad!(
                    "format",
                    "format is \"{f}\": this engine reads \"{FORMAT}\""
                ));
            }
        }
        if let Some(f) = &self.family {
            if f != "decorated" {
                return Err(bad!(
                    "family",
                    "family is \"{f}\": this reads decorated canasta positions, \"family\": \"decorated\" or no family (a classic canasta position, \"family\": \"classic\", is read by legal, check, score and apply)"
                ));
            }
        }
        let rules = self.rules.unwrap_or_default();
        rules.validate().map_err(PositionError::Rules)?;
        let n = rules.players as usize;
        let phase = self.phase;
        let default_players;
        let players: &[PlayerJson] = match &self.players {
            Some(v) => v,
            None => {
                default_players = vec![PlayerJson::default(); n];
                &default_players
            }
        };
        if !(2..=6).contains(&players.len()) {
            return Err(bad!(
                "players",
                "the position lists {} player(s): a hand has 2 to 6 players (D-2.1), as many as the rules' `players` ({n})",
                players.len()
            ));
        }
        if players.len() != n {
            return Err(bad!(
                "players",
                "the position lists {} players but the rules say {n} (D-2.1): list {n} players or set \"rules\": {{\"players\": {}}}",
                players.len(),
                players.len()
            ));
        }
        let starter = self.starter.unwrap_or(0);
        if starter as usize >= n {
            return Err(bad!(
                "starter",
                "starter {starter} is out of range: players are 0 to {}",
                n - 1
            ));
        }
        let current = self
            .current
            .unwrap_or_else(|| default_current(self.phase, self.end, starter));
        if current as usize >= n {
            return Err(bad!(
                "current",
                "current player {current} is out of range: players are 0 to {}",
                n - 1
            ));
        }
        let cur = current as usize;
        let mut rng = match (&self.rng, self.seed) {
            (Some(_), Some(_)) => {
                return Err(bad!(
                    "rng",
                    "both rng and seed are given: seed only seeds a generator when rng is absent"
                ))
            }
            (Some(s), None) => {
                let hex = s.trim().trim_start_matches("0x").trim_start_matches("0X");
                let state = if hex.is_empty() || hex.len() > 32 {
                    None
                } else {
                    u128::from_str_radix(hex, 16).ok()
                };
                match state {
                    Some(v) => Pcg64Mcg::new(v),
                    None => {
                        return Err(bad!(
                            "rng",
                            "rng \"{s}\": expected the generator state as up to 32 hex digits"
                        ))
                    }
                }
            }
            (None, seed) => Pcg64Mcg::seed_from_u64(seed.unwrap_or(0)),
        };
        let mut totals = [0i32; MAX_PLAYERS];
        if let Some(t) = &self.totals {
            if t.len() != n {
                return Err(bad!(
                    "totals",
                    "totals lists {} running totals for {n} players",
                    t.len()
                ));
            }
            totals[..n].copy_from_slice(t);
        }

        // Players.
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        let mut known = [CardSet::EMPTY; MAX_PLAYERS];
        let mut tables = [Table::default(); MAX_PLAYERS];
        let mut free_pending = [true; MAX_PLAYERS];
        let mut owed_red = [0u8; MAX_PLAYERS];
        let mut stats = [PlayerStats::default(); MAX_PLAYERS];
        for (p, pj) in players.iter().enumerate() {
            let who = format!("player {p}");
            hands[p] = match &pj.hand {
                Some(c) => c.set(&format_args!("{who} hand"))?,
                None => CardSet::EMPTY,
            };
            if hands[p].red_three_count() > 0 {
                let reds: Vec<String> = hands[p]
                    .iter()
                    .filter(|c| c.is_red_three())
                    .map(|c| c.to_string())
                    .collect();
                return Err(bad!(
                    format!("{who} hand"),
                    "{who} hand holds a red three ({}): red threes go to the table at once (D-4); list them in the table's red_threes",
                    reds.join(" ")
                ));
            }
            known[p] = match &pj.known {
                Some(c) => c.set(&format_args!("{who} known"))?,
                None => CardSet::EMPTY,
            };
            let not_in_hand = excess(known[p], hands[p]);
            if !not_in_hand.is_empty() {
                return Err(bad!(
                    format!("{who} known"),
                    "{who} known cards [{not_in_hand}] are not in the hand [{}]: known cards are part of the hand",
                    hands[p]
                ));
            }
            tables[p] = resolve_table(
                pj.table.as_ref(),
                None,
                &format_args!("{who} table"),
                &rules,
            )?;
            free_pending[p] = pj.free_pending.unwrap_or(default_free_pending(phase));
            owed_red[p] = pj.owed_red.unwrap_or(0);
            if owed_red[p] > 4 {
                return Err(bad!(
                    format!("{who} owed_red"),
                    "{who} owed_red is {}: there are only 4 red threes",
                    owed_red[p]
                ));
            }
            stats[p] = pj
                .stats
                .as_ref()
                .map(StatsJson::to_stats)
                .unwrap_or_default();
        }

        // Pile, cut, turn.
        let pile = match &self.pile {
            Some(c) => c.list(&"pile")?,
            None => Vec::new(),
        };
        let mut cut = match &self.cut {
            Some(c) => {
                if phase != Phase::Cut {
                    return Err(bad!(
                        "cut",
                        "cut cards are given only in phase cut (D-3.1); after the cut the unkept ones lie at the bottom of the stock"
                    ));
                }
                let v = c.list(&"cut")?;
                if v.len() != 3 {
                    return Err(bad!(
                        "cut",
                        "cut lists {} cards: three cut cards are shown (D-3.1)",
                        v.len()
                    ));
                }
                Some([v[0], v[1], v[2]])
            }
            None => None,
        };
        let turn_base = Turn {
            opened_at_start: default_opened_at_start(phase, self.end, tables[cur].opened),
            ..Turn::default()
        };
        let mut turn = resolve_turn(
            self.turn.as_ref(),
            &turn_base,
            &tables[cur],
            pile.len(),
            "turn",
        )?;

        // Card conservation (D-1.1).
        let stock_given = match &self.stock {
            Some(c) => Some(c.list(&"stock")?),
            None => None,
        };
        let mut census = Census::new();
        for p in 0..n {
            census.add(Zone::Hand(p), ZoneCards::Set(hands[p]));
            for (i, g) in tables[p].groups().iter().enumerate() {
                census.add(Zone::Group(p, i), ZoneCards::Set(g.cards()));
            }
            census.add(Zone::RedThrees(p), ZoneCards::Set(tables[p].red_threes));
            let mut aces = CardSet::EMPTY;
            for _ in 0..tables[p].heart_aces {
                aces.insert(Card::HEART_ACE);
            }
            census.add(Zone::HeartAces(p), ZoneCards::Set(aces));
        }
        census.add(Zone::Pending, ZoneCards::Set(turn.pending));
        census.add(Zone::Pile, ZoneCards::List(&pile));
        if let Some(c) = &cut {
            census.add(Zone::Cut, ZoneCards::List(c));
        }
        if let Some(s) = &stock_given {
            census.add(Zone::Stock, ZoneCards::List(s));
        }
        let extra = census.extra();
        let missing = if stock_given.is_some() {
            census.missing()
        } else {
            CardSet::EMPTY
        };
        if !extra.is_empty() || !missing.is_empty() {
            let mut parts = Vec::new();
            if !missing.is_empty() {
                parts.push(format!("missing [{missing}]"));
            }
            if !extra.is_empty() {
                parts.push(format!("extra: {}", extra.join("; ")));
            }
            let held = if stock_given.is_some() {
                format!(
                    "the position holds {} cards, the pack 112: ",
                    census.total()
                )
            } else {
                String::new()
            };
            return Err(bad!(
                "stock",
                "card conservation broken (D-1.1): {held}{}",
                parts.join("; ")
            ));
        }
        let stock_cards = match stock_given {
            Some(s) => {
                if phase == Phase::Cut && cut.is_none() {
                    return Err(bad!(
                        "cut",
                        "phase cut: give the three shown cut cards in \"cut\", or leave out both cut and stock to shuffle the pack"
                    ));
                }
                s
            }
            None => {
                let mut rest: Vec<Card> = census.missing().iter().collect();
                shuffle(&mut rest, &mut rng);
                if phase == Phase::Cut && cut.is_none() {
                    if rest.len() < 3 {
                        return Err(bad!(
                            "cut",
                            "phase cut: fewer than three cards left for the cut"
                        ));
                    }
                    cut = Some([rest[0], rest[1], rest[2]]);
                    rest.drain(..3);
                }
                rest
            }
        };
        let skb = self.stock_known_bottom.unwrap_or(0);
        if skb as usize > stock_cards.len() || skb > 3 {
            return Err(bad!(
                "stock_known_bottom",
                "stock_known_bottom is {skb}: at most the 3 unkept cut cards (D-3.3) and at most the stock's {} cards",
                stock_cards.len()
            ));
        }

        // The phase and the turn.
        if phase == Phase::Cut {
            for p in 0..n {
                if !hands[p].is_empty() || !tables[p].cards().is_empty() || tables[p].twins > 0 {
                    return Err(bad!(
                        format!("player {p}"),
                        "phase cut comes before the deal (D-3): player {p}'s hand and table must be empty"
                    ));
                }
            }
            if !pile.is_empty() {
                return Err(bad!(
                    "pile",
                    "phase cut comes before the deal (D-3): the pile must be empty"
                ));
            }
        }
        if !matches!(phase, Phase::Meld | Phase::Over) {
            let name = phase_name(phase);
            let bad = [
                ("free_card", turn.free_card.is_some()),
                ("pickup", turn.pickup.is_some()),
                ("must_go_out", turn.must_go_out),
                ("pending", turn.pend_len > 0),
                ("moves", turn.moves_len > 0),
                ("undos", turn.undos > 0),
            ];
            if let Some((f, _)) = bad.iter().find(|(_, b)| *b) {
                return Err(bad!(
                    format!("turn.{f}"),
                    "turn.{f} belongs to phase meld (or over), not to phase {name}"
                ));
            }
        }
        if phase == Phase::Meld {
            if let Some(pk) = turn.pickup {
                if !pk.rest_taken && pk.pile_size as usize != pile.len() + 1 {
                    return Err(bad!(
                        "turn.pickup.pile_size",
                        "turn.pickup.pile_size is {} but the pile holds {} cards besides the top taken: before the rest is taken the pile is the rest",
                        pk.pile_size,
                        pile.len()
                    ));
                }
                let laid = tables[cur]
                    .groups()
                    .iter()
                    .any(|g| g.cards().contains(pk.top));
                if !pk.rest_taken && !hands[cur].contains(pk.top) && !laid {
                    return Err(bad!(
                        "turn.pickup.top",
                        "turn.pickup.top {}: player {current}, the mover, neither holds it nor has laid it; during a pickup the top card taken is the mover's, to lay first (D-6.2)",
                        pk.top
                    ));
                }
                if pk.rest_taken && !pile.is_empty() {
                    return Err(bad!(
                        "turn.pickup.rest_taken",
                        "turn.pickup.rest_taken is true but the pile is not empty: the rest of the pile was taken (D-6.2)"
                    ));
                }
            }
        }
        let pile_top_fresh = self
            .pile_top_fresh
            .unwrap_or_else(|| default_pile_top_fresh(pile.len(), phase, &turn));
        if pile_top_fresh && pile.is_empty() {
            return Err(bad!(
                "pile_top_fresh",
                "pile_top_fresh is true but the pile is empty"
            ));
        }
        match self.turn.as_ref().and_then(|t| t.free_offer) {
            Some(true) => {
                if phase != Phase::Draw {
                    return Err(bad!(
                        "turn.free_offer",
                        "turn.free_offer: the free pickup is offered only in phase draw (D-6.1)"
                    ));
                }
                if pile.is_empty() {
                    return Err(bad!(
                        "turn.free_offer",
                        "turn.free_offer: the free pickup is offered but the pile is empty"
                    ));
                }
            }
            Some(false) => {}
            None => {
                turn.free_offer = default_free_offer(
                    &rules,
                    phase,
                    free_pending[cur],
                    pile_top_fresh,
                    pile.last().copied(),
                )
            }
        }
        match (phase, &self.end) {
            (Phase::Over, None) => {
                return Err(bad!(
                    "end",
                    "phase over needs \"end\": {{\"kind\": \"went_out\", \"player\": …, \"from_hand\": …, \"cleared_table\": …}}, {{\"kind\": \"exhausted\"}}, {{\"kind\": \"stalled\"}} or {{\"kind\": \"deadlocked\"}}"
                ))
            }
            (Phase::Over, Some(HandEnd::WentOut { player, .. })) if *player as usize >= n => {
                return Err(bad!(
                    "end",
                    "end: player {player} is out of range: players are 0 to {}",
                    n - 1
                ))
            }
            (Phase::Over, _) | (_, None) => {}
            (_, Some(_)) => return Err(bad!("end", "end is given only in phase over")),
        }

        // The anchor (phase meld): what reset returns to.
        let no_anchor = AnchorJson::default();
        let anchor = match (&self.anchor, phase) {
            (Some(_), p) if p != Phase::Meld => {
                return Err(bad!(
                    "anchor",
                    "anchor is given only in phase meld: it is what reset returns to (I-25)"
                ))
            }
            (aj, _) => {
                let aj = aj.as_ref().unwrap_or(&no_anchor);
                let hand = match &aj.hand {
                    Some(c) => c.set(&"anchor hand")?,
                    None => hands[cur],
                };
                if hand.red_three_count() > 0 {
                    return Err(bad!("anchor hand", "anchor hand holds a red three (D-4)"));
                }
                let aknown = match &aj.known {
                    Some(c) => c.set(&"anchor known")?,
                    None => known[cur],
                };
                let nk = excess(aknown, hand);
                if !nk.is_empty() {
                    return Err(bad!(
                        "anchor known",
                        "anchor known cards [{nk}] are not in the anchor hand [{hand}]"
                    ));
                }
                let table = resolve_table(
                    aj.table.as_ref(),
                    Some(&tables[cur]),
                    &"anchor table",
                    &rules,
                )?;
                let aturn =
                    resolve_turn(aj.turn.as_ref(), &turn, &table, pile.len(), "anchor turn")?;
                let a = Anchor {
                    hand,
                    known: aknown,
                    table,
                    turn: aturn,
                };
                if phase == Phase::Meld {
                    let then = a
                        .hand
                        .checked_add(a.table.cards())
                        .and_then(|s| s.checked_add(a.turn.pending));
                    let now = hands[cur]
                        .checked_add(tables[cur].cards())
                        .and_then(|s| s.checked_add(turn.pending));
                    match (then, now) {
                        (Some(t), Some(nw)) if t == nw => {}
                        (Some(t), Some(nw)) => {
                            return Err(bad!(
                                "anchor",
                                "anchor: the mover's hand, table and pending wilds hold [{nw}] now, but [{t}] at the anchor; a meld phase only moves cards among them (missing at the anchor [{}], extra [{}])",
                                excess(nw, t),
                                excess(t, nw)
                            ))
                        }
                        _ => {
                            return Err(bad!(
                                "anchor",
                                "anchor: a card appears more often than the pack holds"
                            ))
                        }
                    }
                }
                a
            }
        };

        // Assemble.
        let mut stock = [Card::JOKER; PACK];
        stock[..stock_cards.len()].copy_from_slice(&stock_cards);
        let mut pile_arr = [Card::JOKER; PACK];
        pile_arr[..pile.len()].copy_from_slice(&pile);
        let parts = Parts {
            rules,
            rng,
            starter,
            current,
            phase,
            hands,
            tables,
            known,
            stock,
            stock_len: stock_cards.len() as u8,
            stock_known_bottom: skb,
            pile: pile_arr,
            pile_len: pile.len() as u8,
            pile_top_fresh,
            cut: cut.unwrap_or([Card::JOKER; 3]),
            free_pending,
            owed_red,
            turns: self.turns.unwrap_or(0),
            totals,
            turn,
            anchor,
            end: self.end,
            stats,
            dead: 0,
        };
        let g = GameState::from_parts(parts.clone());
        // I-32: who was found dead-locked.
        let mut marks = 0u8;
        let given = self.players.as_deref().unwrap_or(&[]);
        for p in 0..n {
            let dead = match given.get(p).and_then(|pj| pj.dead_locked) {
                // The mover of a meld phase holds the card of his turn too:
                // his mark is from his last discard.
                Some(true) if !(g.dead_locked(p) || phase == Phase::Meld && p == current as usize) => {
                    return Err(bad!(
                        format!("player {p} dead_locked"),
                        "player {p} dead_locked is true, but he is not dead-locked (I-32: one card in hand, no wild that can move, no card outside the tables that lets him go out)"
                    ))
                }
                Some(d) => d,
                None => default_dead_locked(&g, p),
            };
            marks |= (dead as u8) << p;
        }
        let g = GameState::from_parts(Parts {
            dead: marks,
            ..parts
        });
        if g.end() == Some(HandEnd::Deadlocked) {
            if let Some(p) = (0..n).find(|&p| !g.dead_locked(p)) {
                return Err(bad!(
                    "end",
                    "end deadlocked: player {p} is not dead-locked (I-32: the hand ends so only when every player is)"
                ));
            }
        }
        // D-13.1: a player who went out discarded his last card, and had a
        // canasta to do so; the scores of D-14 trust it.
        if let Some(HandEnd::WentOut { player, .. }) = g.end() {
            let p = player as usize;
            if p >= n {
                return Err(bad!(
                    "end.player",
                    "end went_out: player {p} is out of range: players are 0 to {}",
                    n - 1
                ));
            }
            if !g.hand(p).is_empty() {
                return Err(bad!(
                    "end",
                    "end went_out: player {p} still holds {} cards [{}]: a player goes out by discarding his last card (D-13.1)",
                    g.hand(p).len(),
                    g.hand(p)
                ));
            }
            if !g.table(p).has_canasta() {
                return Err(bad!(
                    "end",
                    "end went_out: player {p} has no canasta: going out needs at least one (D-13.1)"
                ));
            }
            check_going_out(&g, p)?;
        }
        // I-4, I-5: the other ends are facts of the stock and the turn count.
        match g.end() {
            Some(HandEnd::Exhausted) if !(g.stock().is_empty() && g.pile().is_empty()) => {
                let hint = if self.stock.is_none() {
                    " (the stock was left out, so it is the rest of the pack: give \"stock\": \"\" and place every card)"
                } else {
                    ""
                };
                return Err(bad!(
                    "end",
                    "end exhausted: the stock holds {} cards and the pile {}, but a hand is exhausted only when a card must be drawn and both are empty (I-4){hint}",
                    g.stock().len(),
                    g.pile().len()
                ));
            }
            Some(HandEnd::Stalled) if g.turns() < g.rules().turn_cap => {
                return Err(bad!(
                    "end",
                    "end stalled: turns is {}, but a hand stalls only when the turns reach the cap, turn_cap = {} (I-5)",
                    g.turns(),
                    g.rules().turn_cap
                ));
            }
            _ => {}
        }
        // D-13.1: a player whose last card is gone has gone out, and the
        // hand is over: a turn starts with a card in hand (a mover of the
        // draw with none would draw one he may neither meld nor discard,
        // D-13.2). The cut comes before the deal (D-3); in the meld phase
        // the hand may be empty for a while.
        if matches!(phase, Phase::FirstDiscard | Phase::Draw) && g.hand(cur).is_empty() {
            return Err(bad!(
                format!("player {current} hand"),
                "player {current}, the player to move, holds no cards in phase {}: while the hand goes on the mover holds at least one (a player whose last card is gone has gone out and the hand is over, D-13.1)",
                phase_name(phase)
            ));
        }
        g.check_invariants().map_err(PositionError::Invariant)?;
        Ok(g)
    }
}

/// D-14.1, D-14.2: the end record of player `p` going out agrees with the
/// turn record (whose turn it is, whether he had opened at its start, his
/// pickup) and his table, as the discard that went out would have set it.
fn check_going_out(g: &GameState, p: usize) -> Result<(), PositionError> {
    let Some(HandEnd::WentOut {
        from_hand,
        cleared_table,
        ..
    }) = g.end()
    else {
        return Ok(());
    };
    if g.current_player() != p {
        return Err(bad!(
            "current",
            "end went_out: player {p} went out, so his discard was the last move and the turn record is his: current must be {p} (it defaults to him), not {}",
            g.current_player()
        ));
    }
    if !g.table(p).opened {
        return Err(bad!(
            format!("player {p} table.opened"),
            "player {p} table.opened is false, but he went out: going out lays a canasta, so his table is opened (D-8, D-13.1)"
        ));
    }
    let opened_at_start = g.to_parts().turn.opened_at_start;
    if from_hand == opened_at_start {
        return Err(bad!(
            "end.from_hand",
            "end went_out: from_hand is {from_hand} but turn.opened_at_start is {opened_at_start}: going out from hand is going out in the opening turn, so from_hand is true exactly when the player had not opened when his turn began (D-14.1; turn.opened_at_start defaults to the opposite of from_hand)"
        ));
    }
    let pile = g.pickup().map(|pk| pk.pile_size);
    let clears = from_hand && pile.is_some_and(|n| n >= 10);
    if cleared_table != clears {
        let why = match (from_hand, pile) {
            (false, _) => "clearing the table needs going out from hand".to_string(),
            (true, None) => "the turn record has no penalized pickup (turn.pickup), and clearing the table needs one (I-29); give turn.pickup with its pile_size".to_string(),
            (true, Some(n)) if n < 10 => format!(
                "the pile taken (turn.pickup.pile_size) held {n} cards, and clearing the table needs at least 10 (I-14: the top card included)"
            ),
            (true, Some(n)) => format!(
                "he went out from hand with a penalized pickup of a pile of {n} cards (turn.pickup.pile_size), which clears the table"
            ),
        };
        return Err(bad!(
            "end.cleared_table",
            "end went_out: cleared_table is {cleared_table}, but {why} (D-14.2)"
        ));
    }
    Ok(())
}

/// A phase as the position format writes it (`draw`, `first_discard`).
fn phase_name(phase: Phase) -> String {
    serde_json::to_value(phase)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
