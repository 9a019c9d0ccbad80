//! The turn's flow: the start of a turn (C-18, C-22 red threes), the draw
//! (C-8, C-23), pickups (C-7, C-13 … C-16), meld steps (C-4, C-16, C-20,
//! C-21, I-25), the end of a turn and of the hand (C-10, C-11, C-17,
//! C-19, C-23, I-5).

use super::action::{ClassicAction, Counts, Kind, MeldKey};
use super::rules::{Ask, BlackThreeTop, ClassicRules, ClosedPile, PickupRule, WildTop};
use super::state::*;
use crate::card_set::CardSet;
use crate::error::RuleError;

impl ClassicState {
    pub(crate) fn side(&self) -> usize {
        self.rules.side_of(self.mover as usize)
    }

    /// Begins player `p`'s turn: red threes in his hand are laid and
    /// replaced (C-8, C-22).
    pub(crate) fn begin_turn(&mut self, p: usize) {
        self.current = p as u8;
        self.mover = p as u8;
        self.phase = ClassicPhase::Draw;
        let side = self.rules.side_of(p);
        self.turn = Turn {
            opening: !self.tables[side].has_melds(),
            ..Turn::default()
        };
        self.lay_red_threes(p);
        self.turn.anchor = self.tables[side];
    }

    /// C-8, C-22: player `p`'s red threes are laid and replaced from the
    /// stock; each replacement may be a red three again, laid in turn; an
    /// empty stock leaves the hand short, every red three laid.
    pub(crate) fn lay_red_threes(&mut self, p: usize) {
        let side = self.rules.side_of(p);
        while self.hands[p].red_three_count() > 0 {
            let r = self.hands[p]
                .iter()
                .find(|c| c.is_red_three())
                .expect("counted");
            self.hands[p].remove(r);
            self.tables[side].red_threes.insert(r);
            if let Some(c) = self.pop_stock() {
                self.hands[p].insert(c);
            }
        }
    }

    /// C-22: red threes still in a hand when the hand ends were dealt to a
    /// player whose first turn never came; they score as laid (C-8, C-9).
    fn lay_dealt_red_threes(&mut self) {
        for p in 0..self.players() {
            let h = self.hands[p];
            if h.red_three_count() == 0 {
                continue;
            }
            let side = self.rules.side_of(p);
            for c in h.iter().filter(|c| c.is_red_three()) {
                self.hands[p].remove(c);
                self.tables[side].red_threes.insert(c);
            }
        }
    }

    /// One action, without the completion test (I-9): the rules of the step
    /// itself.
    pub(crate) fn step(&mut self, a: ClassicAction) -> Result<(), RuleError> {
        match self.phase {
            ClassicPhase::Over => Err(rule("C-11", "the hand is over")),
            ClassicPhase::Answer => match a {
                ClassicAction::Answer(yes) => {
                    self.answer_check(yes)?;
                    self.turn.answer = Some(yes);
                    self.current = self.mover;
                    self.phase = ClassicPhase::Draw;
                    Ok(())
                }
                _ => Err(rule("C-18", "the partner answers \"yes\" or \"no\"")),
            },
            ClassicPhase::Draw => self.step_draw(a),
            ClassicPhase::Meld => self.step_meld(a),
        }
    }

    /// C-18: whether the partner may answer so.
    pub(crate) fn answer_check(&self, yes: bool) -> Result<(), RuleError> {
        if !yes && self.rules.ask == Ask::Compulsory && !self.partner_could_lay() {
            return Err(rule(
                "C-18",
                "under 004 the partner may answer \"no\" only if he could lay cards on his next turn",
            ));
        }
        Ok(())
    }

    fn step_draw(&mut self, a: ClassicAction) -> Result<(), RuleError> {
        let p = self.mover as usize;
        match a {
            ClassicAction::Ask => {
                if !self.rules.partnerships() {
                    return Err(rule(
                        "C-18",
                        "only a player with a partner may ask to go out",
                    ));
                }
                if self.turn.asked {
                    return Err(rule("C-18", "he has asked already this turn"));
                }
                self.turn.asked = true;
                self.current = ((p + 2) % 4) as u8;
                self.phase = ClassicPhase::Answer;
                Ok(())
            }
            ClassicAction::Draw => {
                if self.stock_len == 0 {
                    return Err(rule(
                        "C-11",
                        "the stock is empty: take the pile or end the hand",
                    ));
                }
                self.draw_one();
                self.turn.drew = true;
                self.turned_open = false;
                self.enter_meld();
                Ok(())
            }
            ClassicAction::TakeTurned => {
                if !self.turned_open || self.turns != 0 || self.pile_len == 0 {
                    return Err(rule(
                        "C-22",
                        "only the first player's first turn may take the turned card alone (004)",
                    ));
                }
                match self.pile_top().and_then(Kind::of) {
                    None => {
                        return Err(rule(
                            "C-22",
                            "a turned red three is covered, never taken (004)",
                        ))
                    }
                    Some(Kind::BLACK_THREE) => {
                        return Err(rule(
                            "C-15",
                            "a turned black three blocks the first player: he draws (C-22)",
                        ))
                    }
                    Some(_) => {}
                }
                self.pile_len -= 1;
                let c = self.pile[self.pile_len as usize];
                self.hands[p].insert(c);
                self.known[p].insert(c);
                self.recompute_frozen();
                self.turn.drew = true;
                self.turned_open = false;
                self.enter_meld();
                Ok(())
            }
            ClassicAction::TakePile { key, with } => {
                if self.rules.turned_covered && self.turns == 0 {
                    return Err(rule(
                        "C-22",
                        "under 004 the first player may take the turned card alone (turned), never the pile beneath it, not even with a natural pair",
                    ));
                }
                self.pickup_check(key, with)?;
                self.take_top(key, with);
                self.turned_open = false;
                self.enter_meld();
                Ok(())
            }
            ClassicAction::EndHand => {
                if self.stock_len > 0 {
                    return Err(rule(
                        "C-23",
                        "the hand ends this way only when the stock is empty",
                    ));
                }
                if self.turn.answer == Some(true) {
                    // C-18: a turn after "yes" that does not go out, also
                    // one that ends the hand at its start.
                    self.failed_yes[self.side()] += 1;
                }
                self.end_hand(ClassicEnd::StockOut);
                Ok(())
            }
            _ => Err(rule(
                "D-5.1",
                "a turn begins with a draw or by taking the pile (or, with a partner, by asking)",
            )),
        }
    }

    /// Draws until a card that is not a red three, laying red threes
    /// (C-8); the last stock card a red three ends the hand after this
    /// turn's melds (C-23).
    fn draw_one(&mut self) {
        let p = self.mover as usize;
        let side = self.side();
        while let Some(c) = self.pop_stock() {
            if c.is_red_three() {
                self.tables[side].red_threes.insert(c);
                if self.stock_len == 0 {
                    self.turn.last_red_three = true;
                }
                continue;
            }
            self.hands[p].insert(c);
            return;
        }
    }

    /// The meld phase begins: the anchor of the reset, and C-18's decision
    /// whether a "yes" binds him to go out.
    fn enter_meld(&mut self) {
        self.phase = ClassicPhase::Meld;
        self.turn.anchor = self.tables[self.side()];
        if self.turn.answer == Some(true) {
            self.turn.must_go_out = false;
            self.turn.must_go_out = self.can_go_out();
        }
    }

    pub(crate) fn recompute_frozen(&mut self) {
        let mut f = false;
        for c in self.pile() {
            f |= self.freezes(*c);
        }
        self.frozen = f;
    }

    /// C-7, C-13 … C-16: whether the pile may be taken this way.
    pub(crate) fn pickup_check(&self, key: MeldKey, with: Counts) -> Result<(), RuleError> {
        let r = &self.rules;
        let p = self.mover as usize;
        let side = self.side();
        let table = &self.tables[side];
        let top = match self.pile_top() {
            Some(c) => c,
            None => return Err(rule("C-7", "the pile is empty")),
        };
        let hand = self.hands[p];
        let has = |k: Kind, n: u8| k.count_in(hand) >= n as u32;
        if !has(Kind::TWO, with.twos) || !has(Kind::JOKER, with.jokers) {
            return Err(rule("C-7", "the hand does not hold those wilds"));
        }
        let melded = table.has_melds();
        let closed = self.frozen || (r.closed_pile == ClosedPile::UnmeldedWildRed && !melded);
        let pair = with.naturals == 2 && with.wilds() == 0;
        let nat_wild = with.naturals == 1 && with.wilds() == 1;
        let top_kind = match Kind::of(top) {
            Some(k) => k,
            None => {
                return Err(rule(
                    "C-7",
                    "a red three on top of the pile cannot be taken",
                ))
            }
        };
        let key_kind = match key {
            MeldKey::Rank(k) => k,
            MeldKey::BlackThrees => Kind::BLACK_THREE,
            MeldKey::Wilds => {
                return Err(rule(
                    "C-21",
                    "the pile's top card never starts a wild canasta",
                ))
            }
        };
        if !has(key_kind, with.naturals) {
            return Err(rule("C-7", "the hand does not hold those naturals"));
        }
        if top_kind.is_wild() {
            match r.wild_top {
                WildTop::Forbidden => {
                    return Err(rule(
                        "C-13",
                        "the pile cannot be taken while a wild is on top (003)",
                    ))
                }
                WildTop::Under => {
                    return Err(rule(
                        "C-13",
                        "a wild lies under the pile, never on top to be taken (004)",
                    ))
                }
                WildTop::Pair => {
                    if !pair {
                        return Err(rule(
                            "C-13",
                            "a pile with a wild on top is taken only with a natural pair from the hand",
                        ));
                    }
                }
            }
        } else {
            if top_kind != key_kind {
                return Err(rule("C-7", "the top card goes to the meld of its own rank"));
            }
            if top_kind == Kind::BLACK_THREE && r.black_three_top == BlackThreeTop::Blocked {
                return Err(rule("C-15", "a black three on top blocks the next player"));
            }
            if pair {
                // C-7, C-14: always allowed.
            } else if nat_wild {
                if closed {
                    return Err(rule(
                        "C-14",
                        "a closed pile is taken only with a natural pair of the top card's rank",
                    ));
                }
            } else if with.is_empty() {
                if r.pickup == PickupRule::PairWild {
                    return Err(rule(
                        "C-7",
                        "under 004 the top card never goes onto a meld alone",
                    ));
                }
                if closed {
                    return Err(rule(
                        "C-14",
                        "a closed pile is taken only with a natural pair of the top card's rank",
                    ));
                }
                if table.meld(key).is_empty() {
                    return Err(rule("C-7", "the side has no meld of the top card's rank"));
                }
            } else {
                return Err(rule(
                    "C-7",
                    "the pile is taken with a natural pair, a natural and a wild, or the top card onto a meld",
                ));
            }
        }
        // Where the cards go (C-4, C-16, C-20).
        let top_wild = top.is_wild() as u32;
        let add_n = with.naturals as u32 + 1 - top_wild;
        let add_w = with.wilds() + top_wild;
        match key {
            MeldKey::BlackThrees => {
                if !table.black_threes.is_empty() {
                    return Err(rule("C-16", "a side lays one black-three meld"));
                }
                if !r.black_three_meld_ok(add_n, add_w) {
                    return Err(rule("C-16", "not a black-three meld under these rules"));
                }
            }
            MeldKey::Rank(k) => {
                let m = table.melds[k.index()];
                let (n, w) = (k.count_in(m), m.wild_count());
                if !r.meld_ok(n + add_n, w + add_w) {
                    return Err(rule("C-4", "the meld would break the wild limit"));
                }
                if r.completed_naturals_only && m.len() >= 7 && add_w > 0 {
                    return Err(rule(
                        "C-20",
                        "under 004 only naturals join a completed canasta",
                    ));
                }
            }
            MeldKey::Wilds => unreachable!("refused above"),
        }
        Ok(())
    }

    /// Takes the top card and lays it with `with` (checked).
    fn take_top(&mut self, key: MeldKey, with: Counts) {
        let p = self.mover as usize;
        let side = self.side();
        self.pile_len -= 1;
        let top = self.pile[self.pile_len as usize];
        let bit = self.tables[side].key_bit(key);
        let was_new = self.tables[side].meld(key).is_empty();
        let mut dest = self.tables[side].meld(key);
        dest.insert(top);
        let kk = match key {
            MeldKey::Rank(k) => k,
            _ => Kind::BLACK_THREE,
        };
        let mut hand = self.hands[p];
        kk.move_cards(with.naturals as u32, &mut hand, &mut dest);
        Kind::TWO.move_cards(with.twos as u32, &mut hand, &mut dest);
        Kind::JOKER.move_cards(with.jokers as u32, &mut hand, &mut dest);
        self.hands[p] = hand;
        self.known[p] = self.known[p].min(hand);
        self.set_meld(side, key, dest);
        if was_new {
            self.turn.new_mask |= bit;
        }
        self.turn.committed_mask |= bit;
        if key == MeldKey::BlackThrees {
            self.turn.black_three_pickup = true;
        }
        self.turn.pickup = Some(ClassicPickup {
            top,
            key,
            rest_pending: true,
        });
    }

    pub(crate) fn set_meld(&mut self, side: usize, key: MeldKey, cards: CardSet) {
        let t = &mut self.tables[side];
        match key {
            MeldKey::Rank(k) => t.melds[k.index()] = cards,
            MeldKey::BlackThrees => t.black_threes = cards,
            MeldKey::Wilds => {
                if t.wild_canastas[0].is_empty() {
                    t.wild_canastas[0] = cards;
                } else {
                    t.wild_canastas[1] = cards;
                }
            }
        }
    }

    /// The value laid this turn that counts for the opening minimum (C-17):
    /// the whole side's table, since the side had none before.
    pub(crate) fn opening_value(&self) -> i32 {
        self.tables[self.side()].melded_value()
    }

    /// C-17 (004): a complete canasta laid this turn from the hand (not
    /// holding the pile's top card).
    pub(crate) fn waiver(&self) -> bool {
        if !self.rules.minimum_waived {
            return false;
        }
        let t = &self.tables[self.side()];
        let top_bit = self.turn.pickup.map(|pk| t.key_bit(pk.key)).unwrap_or(0);
        (0..11).any(|k| {
            self.turn.new_mask & (1 << k) != 0 && top_bit & (1 << k) == 0 && t.melds[k].len() >= 7
        }) || self.turn.new_mask & (3 << 12) != 0
    }

    /// C-17: the minimum is met (or not needed) by what lies on the table.
    pub(crate) fn minimum_met(&self) -> bool {
        !self.turn.opening
            || !self.tables[self.side()].has_melds()
            || self.opening_value() >= self.minimum(self.side())
            || self.waiver()
    }

    fn step_meld(&mut self, a: ClassicAction) -> Result<(), RuleError> {
        let p = self.mover as usize;
        let side = self.side();
        let rest_pending = matches!(self.turn.pickup, Some(pk) if pk.rest_pending);
        match a {
            ClassicAction::TakeRest => {
                if !rest_pending {
                    return Err(rule("C-14", "there is no pile to take the rest of"));
                }
                // I-25: what is laid before the rest is committed now.
                self.melds_whole_check()?;
                if self.turn.opening && !self.minimum_met() {
                    return Err(rule(
                        "C-17",
                        "the top card and what is laid before the rest is taken fall short of the opening minimum",
                    ));
                }
                for i in 0..self.pile_len as usize {
                    let c = self.pile[i];
                    if c.is_red_three() {
                        // C-8: laid, not replaced.
                        self.tables[side].red_threes.insert(c);
                    } else {
                        self.hands[p].insert(c);
                        self.known[p].insert(c);
                    }
                }
                self.pile_len = 0;
                self.frozen = false;
                if let Some(pk) = self.turn.pickup.as_mut() {
                    pk.rest_pending = false;
                }
                self.turn.committed_mask |= self.turn.new_mask;
                self.turn.opening = false;
                self.turn.anchor = self.tables[side];
                Ok(())
            }
            ClassicAction::Lay { key, cards } => self.lay(key, cards),
            ClassicAction::Extend { rank, kind } => self.extend(rank, kind),
            ClassicAction::TakeBack { key } => {
                let t = self.tables[side];
                // A wild canasta: the last one laid.
                let (bit, cards) = match key {
                    MeldKey::Wilds if !t.wild_canastas[1].is_empty() => {
                        (1u16 << 13, t.wild_canastas[1])
                    }
                    MeldKey::Wilds => (1u16 << 12, t.wild_canastas[0]),
                    _ => (t.key_bit(key), t.meld(key)),
                };
                if cards.is_empty()
                    || self.turn.new_mask & bit == 0
                    || self.turn.committed_mask & bit != 0
                {
                    return Err(rule(
                        "I-25",
                        "only a meld laid this turn (not with the pile's top card) is taken back",
                    ));
                }
                if self.turn.undos >= CLASSIC_MAX_UNDOS {
                    return Err(rule("I-25", "no undo left this meld phase"));
                }
                self.hands[p] = self.hands[p].checked_add(cards).expect("cards of the pack");
                let t = &mut self.tables[side];
                match key {
                    MeldKey::Wilds if bit == 1 << 13 => t.wild_canastas[1] = CardSet::EMPTY,
                    MeldKey::Wilds => t.wild_canastas[0] = CardSet::EMPTY,
                    MeldKey::Rank(k) => t.melds[k.index()] = CardSet::EMPTY,
                    MeldKey::BlackThrees => t.black_threes = CardSet::EMPTY,
                }
                self.turn.new_mask &= !bit;
                self.turn.undos += 1;
                Ok(())
            }
            ClassicAction::Reset => {
                if self.turn.undos >= CLASSIC_MAX_UNDOS {
                    return Err(rule("I-25", "no undo left this meld phase"));
                }
                let now = self.tables[side];
                let anchor = self.turn.anchor;
                let back = now
                    .melded()
                    .checked_sub(anchor.melded())
                    .expect("the meld phase only adds to the table");
                if back.is_empty() {
                    return Err(rule("I-25", "nothing to undo"));
                }
                self.hands[p] = self.hands[p].checked_add(back).expect("cards of the pack");
                let reds = self.tables[side].red_threes;
                self.tables[side] = anchor;
                self.tables[side].red_threes = reds;
                // Melds created since the anchor are gone; those in it are
                // committed.
                self.turn.new_mask &= self.turn.committed_mask;
                self.turn.undos += 1;
                Ok(())
            }
            ClassicAction::Discard(kind) => self.discard(kind, true),
            ClassicAction::End => {
                if !self.hands[p].is_empty() && !self.turn.last_red_three {
                    return Err(rule(
                        "C-10",
                        "a turn ends without a discard only by going out with an empty hand (or after a last red three, C-23)",
                    ));
                }
                self.end_check(self.hands[p].is_empty())?;
                self.finish_turn();
                Ok(())
            }
            _ => Err(rule("D-5.1", "in the meld phase: meld, then discard")),
        }
    }

    /// The discard of a card of `kind` (C-7, C-13, C-23), ending the turn;
    /// with `check_end`, only if the turn may end so (C-10, C-14 …
    /// C-18): a discard the listing holds has passed that check.
    pub(crate) fn discard(&mut self, kind: Kind, check_end: bool) -> Result<(), RuleError> {
        let p = self.mover as usize;
        if kind.count_in(self.hands[p]) == 0 {
            return Err(rule("D-5.1", "the hand does not hold that card"));
        }
        if self.turn.last_red_three {
            return Err(rule(
                "C-23",
                "after a red three drawn as the last stock card there is no discard",
            ));
        }
        let mut hand = self.hands[p];
        let mut out = CardSet::EMPTY;
        kind.move_cards(1, &mut hand, &mut out);
        let card = out.iter().next().expect("one card");
        if check_end {
            self.end_check(hand.is_empty())?;
        }
        self.hands[p] = hand;
        self.known[p] = self.known[p].min(hand);
        if card.is_wild() && self.rules.wild_top == WildTop::Under {
            // C-13 (004): crosswise under the pile.
            let n = self.pile_len as usize;
            self.pile.copy_within(0..n, 1);
            self.pile[0] = card;
            self.pile_len += 1;
            self.frozen = true;
        } else {
            self.push_pile_top(card);
        }
        self.finish_turn();
        Ok(())
    }

    fn lay(&mut self, key: MeldKey, cards: Counts) -> Result<(), RuleError> {
        let p = self.mover as usize;
        let side = self.side();
        let r = self.rules;
        let t = &self.tables[side];
        match key {
            MeldKey::Rank(k) => {
                if !t.melds[k.index()].is_empty() {
                    return Err(rule("C-20", "a side has one meld per rank: extend it"));
                }
                if cards.len() != 3 || !r.meld_ok(cards.naturals as u32, cards.wilds()) {
                    return Err(rule(
                        "C-4",
                        "a new meld is laid as three cards, two or three of them naturals (then extended)",
                    ));
                }
            }
            MeldKey::BlackThrees => {
                if !t.black_threes.is_empty() {
                    return Err(rule("C-16", "a side lays one black-three meld"));
                }
                if !r.black_three_meld_ok(cards.naturals as u32, cards.wilds()) {
                    return Err(rule("C-16", "not a black-three meld under these rules"));
                }
            }
            MeldKey::Wilds => {
                if r.wild_canasta == 0 {
                    return Err(rule("C-5", "no wild canasta under these rules"));
                }
                if cards.naturals != 0 || cards.wilds() != 7 {
                    return Err(rule("C-21", "a wild canasta is seven wilds laid together"));
                }
                if !t.wild_canastas[1].is_empty() {
                    return Err(rule("C-21", "every wild canasta the pack allows is laid"));
                }
            }
        }
        let nk = match key {
            MeldKey::Rank(k) => k,
            _ => Kind::BLACK_THREE,
        };
        let hand = self.hands[p];
        if nk.count_in(hand) < cards.naturals as u32
            || Kind::TWO.count_in(hand) < cards.twos as u32
            || Kind::JOKER.count_in(hand) < cards.jokers as u32
        {
            return Err(rule("D-5.1", "the hand does not hold those cards"));
        }
        let mut hand = hand;
        let mut dest = CardSet::EMPTY;
        nk.move_cards(cards.naturals as u32, &mut hand, &mut dest);
        Kind::TWO.move_cards(cards.twos as u32, &mut hand, &mut dest);
        Kind::JOKER.move_cards(cards.jokers as u32, &mut hand, &mut dest);
        self.hands[p] = hand;
        self.known[p] = self.known[p].min(hand);
        let bit = self.tables[side].key_bit(key);
        self.set_meld(side, key, dest);
        self.turn.new_mask |= bit;
        Ok(())
    }

    fn extend(&mut self, rank: Kind, kind: Kind) -> Result<(), RuleError> {
        let p = self.mover as usize;
        let side = self.side();
        if rank.rank().is_none() {
            return Err(rule(
                "C-16",
                "black-three melds and wild canastas take no further card",
            ));
        }
        let m = self.tables[side].melds[rank.index()];
        if m.is_empty() {
            return Err(rule("C-20", "the side has no meld of that rank"));
        }
        if kind != rank && !kind.is_wild() {
            return Err(rule("C-4", "a meld takes naturals of its rank and wilds"));
        }
        if kind.count_in(self.hands[p]) == 0 {
            return Err(rule("D-5.1", "the hand does not hold that card"));
        }
        let mut hand = self.hands[p];
        let mut dest = m;
        kind.move_cards(1, &mut hand, &mut dest);
        // I-25: the meld phase is judged on its final state, so a wild may
        // come before the natural that makes the meld legal; the step is
        // refused only if no naturals left in the hand could make it so.
        let (n, w) = (rank.count_in(dest), dest.wild_count());
        let left = rank.count_in(hand);
        let fixable =
            |r: &ClassicRules| (0..=left).any(|j| self.meld_whole_ok(r, rank.index(), n + j, w));
        if !fixable(&self.rules) {
            let relaxed = ClassicRules {
                completed_naturals_only: false,
                ..self.rules
            };
            return Err(if self.rules.completed_naturals_only && fixable(&relaxed) {
                rule(
                    "C-20",
                    "under 004 only naturals join a completed canasta: no order of this meld phase's cards lays the wild before the meld has seven",
                )
            } else {
                rule(
                    "C-4",
                    "the meld would break the wild limit, and the naturals left in the hand cannot make it legal by the end of the meld phase (I-25)",
                )
            });
        }
        self.hands[p] = hand;
        self.known[p] = self.known[p].min(hand);
        self.tables[side].melds[rank.index()] = dest;
        Ok(())
    }

    /// I-25: whether the mover's side's meld of kind index `k`, holding
    /// `n` naturals and `w` wilds, is legal as a whole: some order of this
    /// meld phase's steps reaches it from the meld at the anchor, every
    /// step legal (C-4, C-20); a meld new this phase from a lay of three.
    pub(crate) fn meld_whole_ok(&self, r: &ClassicRules, k: usize, n: u32, w: u32) -> bool {
        if n + w == 0 {
            return true;
        }
        let base = self.turn.anchor.melds[k];
        if base.is_empty() {
            super::solver::new_reachable(r, n, w)
        } else {
            super::solver::reachable(
                r,
                Kind::from_index(k).count_in(base),
                base.wild_count(),
                n,
                w,
            )
        }
    }

    /// I-25: every meld of the mover's side is legal as a whole (see
    /// [`ClassicState::meld_whole_ok`]); otherwise the rule it breaks.
    pub(crate) fn melds_whole_check(&self) -> Result<(), RuleError> {
        let t = &self.tables[self.side()];
        for k in 0..11 {
            let m = t.melds[k];
            if m.is_empty() || self.meld_whole_at(k) {
                continue;
            }
            let (n, w) = (Kind::from_index(k).count_in(m), m.wild_count());
            let relaxed = ClassicRules {
                completed_naturals_only: false,
                ..self.rules
            };
            return Err(
                if self.rules.completed_naturals_only && self.meld_whole_ok(&relaxed, k, n, w) {
                    rule(
                        "C-20",
                        "under 004 only naturals join a completed canasta: a meld holds a wild that no order of this meld phase lays before it has seven",
                    )
                } else {
                    rule(
                        "C-4",
                        "a meld breaks the wild limit: add the naturals it needs first (the meld phase is judged on its final state, I-25)",
                    )
                },
            );
        }
        Ok(())
    }

    /// I-25: whether the mover's side's meld of kind index `k` is legal
    /// as a whole (no meld is); what [`ClassicState::melds_whole_check`]
    /// asks of each meld.
    #[inline]
    pub(crate) fn meld_whole_at(&self, k: usize) -> bool {
        let m = self.tables[self.side()].melds[k];
        if m.is_empty() {
            return true;
        }
        let (n, w) = (Kind::from_index(k).count_in(m), m.wild_count());
        if w == 0 && n >= 3 {
            // Three naturals or more and no wild: legal under every wild
            // limit, and reached from any meld of fewer naturals by
            // adding naturals (what `meld_whole_ok` finds, unasked).
            return true;
        }
        // A meld as it was at the anchor is reached by no step: its own
        // legality is the answer (`reachable` with nothing to add).
        if n + w > 0 && m == self.turn.anchor.melds[k] {
            self.rules.meld_ok(n, w)
        } else {
            self.meld_whole_ok(&self.rules, k, n, w)
        }
    }

    /// The melds of the mover's side that are not legal as a whole (bit
    /// `k` for kind index `k`): none when
    /// [`ClassicState::melds_whole_check`] passes.
    pub(crate) fn melds_not_whole(&self) -> u16 {
        let t = &self.tables[self.side()];
        (0..11).fold(0, |m, k| {
            m | (u16::from(!t.melds[k].is_empty() && !self.meld_whole_at(k)) << k)
        })
    }

    /// I-25: whether the mover's side's meld of kind index `k` (`n`
    /// naturals, `w` wilds) is legal as a whole, or becomes so with more
    /// naturals of its rank (at most the 8 of the pack).
    pub(crate) fn meld_fixable(&self, k: usize, n: u32, w: u32) -> bool {
        (0..=8).any(|j| self.meld_whole_ok(&self.rules, k, n + j, w))
    }

    /// Whether every meld of the mover's side is legal as a whole.
    pub(crate) fn melds_whole_ok(&self) -> bool {
        self.melds_whole_check().is_ok()
    }

    /// Whether the turn may end, going out (an empty hand) or leaving
    /// cards (C-10, C-14 … C-18, C-23).
    pub(crate) fn end_check(&self, going_out: bool) -> Result<(), RuleError> {
        if matches!(self.turn.pickup, Some(pk) if pk.rest_pending) {
            return Err(rule(
                "C-14",
                "taking the pile takes all of it: take the rest first",
            ));
        }
        self.melds_whole_check()?;
        if !self.minimum_met() {
            return Err(rule(
                "C-17",
                "what is laid falls short of the opening minimum",
            ));
        }
        self.end_rest_check(going_out)
    }

    /// [`ClassicState::end_check`] after its tests of the pile's rest,
    /// the melds as a whole (I-25) and the minimum (C-17).
    pub(crate) fn end_rest_check(&self, going_out: bool) -> Result<(), RuleError> {
        let t = &self.tables[self.side()];
        if !going_out {
            if !t.black_threes.is_empty() {
                return Err(rule(
                    "C-16",
                    "black threes are melded only by a player going out",
                ));
            }
            if self.turn.black_three_pickup {
                return Err(rule(
                    "C-15",
                    "a black three is taken only by a player who goes out with it",
                ));
            }
            if self.turn.must_go_out {
                return Err(rule(
                    "C-18",
                    "after \"yes\" he must go out when a meld phase lets him",
                ));
            }
            return Ok(());
        }
        if t.canastas() < self.rules.canastas_to_go_out() as u32 {
            return Err(rule(
                "C-10",
                "going out needs a canasta by the side (two when two play under 002)",
            ));
        }
        if self.turn.answer == Some(false) {
            return Err(rule("C-18", "after \"no\" he may not go out this turn"));
        }
        if self.rules.partnerships()
            && self.rules.ask == Ask::Compulsory
            && self.turn.answer != Some(true)
        {
            return Err(rule(
                "C-18",
                "under 004 a partner must ask before going out",
            ));
        }
        Ok(())
    }

    /// Ends the turn (checked): going out, the last red three, or the next
    /// player.
    fn finish_turn(&mut self) {
        let p = self.mover as usize;
        let side = self.side();
        // The cheap tests first; melds equal to the anchor's hold the same
        // cards, so only melds that differ are summed.
        let (t, a) = (&self.tables[side], &self.turn.anchor);
        let laid = self.turn.new_mask != 0
            || self.turn.pickup.is_some()
            || ((t.melds != a.melds
                || t.black_threes != a.black_threes
                || t.wild_canastas != a.wild_canastas)
                && t.melded() != a.melded());
        let going_out = self.hands[p].is_empty();
        if going_out {
            let t = &self.tables[side];
            let own_canasta = (0..11)
                .any(|k| self.turn.new_mask & (1 << k) != 0 && t.melds[k].len() >= 7)
                || self.turn.new_mask & (3 << 12) != 0;
            let concealed = !self.melded_before[p] && self.turn.drew && own_canasta;
            self.melded_before[p] = true;
            self.turns += 1;
            self.end_hand(ClassicEnd::WentOut {
                player: p as u8,
                concealed,
            });
            return;
        }
        if self.turn.answer == Some(true) {
            // C-18: "yes" and he could not go out.
            self.failed_yes[side] += 1;
        }
        if laid {
            self.melded_before[p] = true;
        }
        self.turns += 1;
        if self.turn.last_red_three {
            self.end_hand(ClassicEnd::StockOut);
            return;
        }
        if self.turns >= self.rules.turn_cap {
            self.end_hand(ClassicEnd::Stalled);
            return;
        }
        let next = (p + 1) % self.players();
        self.begin_turn(next);
    }

    pub(crate) fn end_hand(&mut self, end: ClassicEnd) {
        self.lay_dealt_red_threes();
        self.phase = ClassicPhase::Over;
        self.end = Some(end);
    }

    /// C-18 (004): whether the partner (the current player while he
    /// answers) could lay cards on his next turn, judged on his hand and his
    /// side's table now, minimum and wild limits included.
    pub(crate) fn partner_could_lay(&self) -> bool {
        let q = self.current as usize;
        let side = self.rules.side_of(q);
        let t = &self.tables[side];
        let need = if t.has_melds() {
            1
        } else {
            self.minimum(side).max(1)
        };
        super::solver::could_lay(&self.rules, self.hands[q], t, need)
    }
}
