//! [`GameState`]: one hand of decorated canasta, in the shape of OpenSpiel's
//! `State`: [`GameState::current_player`], [`GameState::legal_actions`] into a
//! caller's buffer, [`GameState::apply`] returning a [`RuleError`] that names
//! the rule broken, [`GameState::is_terminal`], [`GameState::scores`].
//!
//! Chance (shuffle, cut, reshuffle) comes from a `rand_pcg` generator held by
//! the state, so `(rules, seed, actions)` replays exactly. The state is `Copy`
//! and a clone is one memcpy.

use crate::action::Action;
use crate::card::{Card, Rank, Suit};
use crate::card_set::CardSet;
use crate::error::{refuse, RuleError};
use crate::group::{max_wilds, Group, FLAG_NEW, FLAG_RECEIVED};
use crate::refuse_fmt;
use crate::rules::{
    BlackCanastaWilds, Deadlock, GroupsPerRank, Permit, Reshuffle, Rules, WildCanasta,
};
use crate::score::{score_hand, HandScore};
use crate::solver;
use crate::table::Table;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Most players (D-2.1).
pub const MAX_PLAYERS: usize = 6;
/// Cards in the pack (D-1.1).
pub const PACK: usize = 112;

/// Where the hand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// D-3.1: the starter decides which shown cut cards to keep.
    Cut,
    /// D-5.1, D-5.4: the starter's first turn: a discard and nothing else.
    FirstDiscard,
    /// D-5.1 step 1: draw, free pickup or penalized pickup.
    Draw,
    /// D-5.1 steps 2–3: meld and rearrange, then discard (during a penalized
    /// pickup, first lay the top card and take the rest, D-6.2).
    Meld,
    /// The hand is over.
    Over,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum HandEnd {
    /// D-13: a player went out.
    WentOut {
        /// Who went out.
        player: u8,
        /// D-14.1: in his opening turn.
        from_hand: bool,
        /// D-14.2: from hand, with a penalized pickup of a pile of 10 or more.
        cleared_table: bool,
    },
    /// I-4: a card had to be drawn and stock and pile were both empty.
    Exhausted,
    /// I-5: the turn cap was reached.
    Stalled,
    /// I-32: every player was dead-locked.
    Deadlocked,
}

/// The penalized pickup in progress this turn (D-6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Pickup {
    /// The top card taken.
    pub top: Card,
    /// Copies of `top` in the mover's groups before the pickup: the top is laid
    /// once the groups hold more (I-8).
    pub group_baseline: u8,
    /// Cards in the pile when it was taken, top included (D-14.2, I-14).
    pub pile_size: u8,
    /// Whether the rest of the pile has been taken (D-6.2 step 3).
    pub rest_taken: bool,
}

/// Per-player counters a hand keeps for statistics.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct PlayerStats {
    /// Turn (I-24 count) of the opening meld.
    pub opened_turn: Option<u16>,
    /// Turn of the first canasta.
    pub first_canasta_turn: Option<u16>,
    /// Penalized pickups (D-6.2).
    pub pile_pickups: u16,
    /// Free pickups (D-6.1).
    pub free_pickups: u16,
    /// Turns begun with a frozen pile (D-6.3).
    pub frozen_turns: u16,
    /// Cards taken with penalized pickups.
    pub cards_picked: u16,
}

/// Capacity of the per-turn log of wild moves (each wild moves at most once
/// per turn, and there are 16 wilds).
pub const MAX_WILD_MOVES: usize = 16;

/// Origin marker in the wild-move log for a wild that came from the hand.
pub(crate) const FROM_HAND: u8 = 0xFF;
/// Origin marker for a wild of an older group of wilds broken up this turn
/// (D-11.3): it has nowhere to return to.
pub(crate) const DISSOLVED: u8 = 0xFD;

/// The state of the current turn. Equality and hashing look at the live
/// entries of `pend` and `moves` only (removing an entry leaves a stale copy
/// past the end).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    /// The mover had opened when the turn began (D-14.1).
    pub opened_at_start: bool,
    /// The card taken by a free pickup this turn (I-21).
    pub free_card: Option<Card>,
    /// The penalized pickup in progress.
    pub pickup: Option<Pickup>,
    /// I-26: the opening fell short in a penalized pickup: go out or nothing.
    pub must_go_out: bool,
    /// Wilds taken out of a group, to be placed at once (D-11.2).
    pub pending: CardSet,
    /// Each pending wild: (group it left, where a takeback returns it, wild).
    pub pend: [(u8, u8, Card); MAX_WILD_MOVES],
    pub pend_len: u8,
    /// Wild moves of this turn: (to, from, wild), for takebacks (I-25).
    pub moves: [(u8, u8, Card); MAX_WILD_MOVES],
    pub moves_len: u8,
    /// The free pickup is offered on this turn (D-6.1, I-7).
    pub free_offer: bool,
    /// The mover's hand, table and turn are known to be the anchor's (set
    /// with the anchor, cleared by every meld step): then the reset would
    /// change nothing, and [`GameState::resettable`] needs no comparison.
    /// `false` decides nothing. Not part of equality or hashing.
    pub at_anchor: bool,
}

impl Turn {
    /// After group `gi` left the table: later indices shift down; wilds it
    /// gave now count as coming from `origin`.
    fn reindex(&mut self, gi: usize, origin: u8) {
        let fix = |x: u8| -> u8 {
            if x == FROM_HAND || x == DISSOLVED {
                x
            } else if x as usize == gi {
                origin
            } else if x as usize > gi {
                x - 1
            } else {
                x
            }
        };
        for m in &mut self.moves[..self.moves_len as usize] {
            *m = (fix(m.0), fix(m.1), m.2);
        }
        for m in &mut self.pend[..self.pend_len as usize] {
            *m = (fix(m.0), fix(m.1), m.2);
        }
    }

    fn live_pend(&self) -> &[(u8, u8, Card)] {
        &self.pend[..self.pend_len as usize]
    }

    fn live_moves(&self) -> &[(u8, u8, Card)] {
        &self.moves[..self.moves_len as usize]
    }
}

impl PartialEq for Turn {
    fn eq(&self, o: &Turn) -> bool {
        self.opened_at_start == o.opened_at_start
            && self.free_card == o.free_card
            && self.pickup == o.pickup
            && self.must_go_out == o.must_go_out
            && self.pending == o.pending
            && self.live_pend() == o.live_pend()
            && self.live_moves() == o.live_moves()
            && self.free_offer == o.free_offer
    }
}

impl Eq for Turn {}

impl std::hash::Hash for Turn {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (
            self.opened_at_start,
            self.free_card,
            self.pickup,
            self.must_go_out,
            self.pending,
            self.live_pend(),
            self.live_moves(),
            self.free_offer,
        )
            .hash(h);
    }
}

impl Default for Turn {
    fn default() -> Turn {
        Turn {
            opened_at_start: false,
            free_card: None,
            pickup: None,
            must_go_out: false,
            pending: CardSet::EMPTY,
            pend: [(0, 0, Card::JOKER); MAX_WILD_MOVES],
            pend_len: 0,
            moves: [(0, 0, Card::JOKER); MAX_WILD_MOVES],
            moves_len: 0,
            free_offer: false,
            at_anchor: false,
        }
    }
}

/// The mover's position at the start of the meld phase (after the draw or
/// pickup, or after the rest of the pile was taken): [`Action::Reset`]
/// returns to it. I-25 judges a meld phase on its final state, so undoing
/// it reaches nothing new; it guarantees no turn is ever stuck (I-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Anchor {
    pub hand: CardSet,
    pub known: CardSet,
    pub table: Table,
    pub turn: Turn,
}

/// The mover's part of the state: everything a meld step may change
/// (the pile only shrinks, when its rest is taken). Saved before a step is
/// tried in place, so that a refused step is undone by copying back a few
/// hundred bytes instead of the whole state.
#[derive(Clone, Copy)]
pub(crate) struct MoverSave {
    hand: CardSet,
    known: CardSet,
    table: Table,
    turn: Turn,
    pile_len: u8,
    stats: PlayerStats,
}

impl MoverSave {
    pub(crate) fn of(g: &GameState) -> MoverSave {
        let p = g.current as usize;
        MoverSave {
            hand: g.hands[p],
            known: g.known[p],
            table: g.tables[p],
            turn: g.turn,
            pile_len: g.pile_len,
            stats: g.stats[p],
        }
    }
}

/// The legality check of [`GameState::legal_actions`], one candidate at a
/// time (see [`GameState::candidate_check`]), on one quiet copy of the
/// state made at the first candidate checked.
pub struct CandidateCheck<'a> {
    state: &'a GameState,
    probe: Option<(GameState, MoverSave)>,
    /// Whether the state itself is of the case of
    /// [`CandidateCheck::surely_unlisted`] (a meld phase, a hand of two
    /// cards, no wild pending, no pickup before the rest, nothing laid
    /// this turn), read once.
    two_card_case: Option<bool>,
    /// Whether the mover could go out from the state itself, asked once
    /// (see [`CandidateCheck::surely_unlisted`]).
    out_from_here: Option<bool>,
}

impl CandidateCheck<'_> {
    /// Whether the state's [`GameState::legal_actions`] lists `a`, an
    /// action of its [`GameState::candidate_actions`]. (An action that
    /// is not a candidate may get a "yes" here that the listing would not
    /// give: larger lays, say, which [`GameState::apply`] accepts.)
    pub fn is_listed(&mut self, a: Action) -> bool {
        let state = self.state;
        if state.phase != Phase::Meld {
            return true;
        }
        // The ends change nothing: checked on the state itself, they need
        // no copy (a decision that checks only discards makes none).
        match a {
            Action::Discard(c) => return state.discard_check(c, true).is_ok(),
            Action::Reset => return state.resettable(),
            _ => {}
        }
        if self.surely_unlisted(a) {
            return false;
        }
        let (probe, save) = self.probe.get_or_insert_with(|| probe_of(state));
        let ok = probe.listed_on_probe(save, a);
        debug_assert!(*probe == *state, "probe restored after {a}");
        ok
    }

    /// Whether the candidate `a` is surely not listed, by a test on the
    /// state itself: `true` only where [`CandidateCheck::is_listed`]
    /// says no (`false` decides nothing). The case is an extend from a
    /// hand of two cards, with no wild pending, no pickup in progress and
    /// nothing laid this turn: the one card left cannot be taken back
    /// into a discard, so the turn can end only by going out (I-9,
    /// D-13.1), and any way out after the extend is one from here, the
    /// card melded into the same group. So if the mover cannot go out
    /// from here, no such extend is listed. The going-out test is made
    /// once, at the first such candidate. (In a hand that can no longer
    /// end, every turn asks this of each card the hand could extend.)
    pub fn surely_unlisted(&mut self, a: Action) -> bool {
        let s = self.state;
        let Action::Extend { card, .. } = a else {
            return false;
        };
        let p = s.current as usize;
        let hand = s.hands[p];
        // What the case asks of the state, read at the first extend only.
        let case = *self.two_card_case.get_or_insert_with(|| {
            s.phase == Phase::Meld
                && hand.len() == 2
                && s.turn.pending.is_empty()
                && !s.before_rest()
                && !s.tables[p].has_new()
        });
        if !case || !hand.contains(card) {
            return false;
        }
        !*self
            .out_from_here
            .get_or_insert_with(|| solver::can_go_out(s, p, hand, false, None, CardSet::EMPTY))
    }

    /// How many discards [`GameState::legal_actions`] lists (the meld
    /// phase's discards are candidates, one a kind of card in hand):
    /// whether one is legal depends on the card only through the card
    /// taken for free (I-21), so one check answers for the others.
    pub fn listed_discards(&self) -> u32 {
        let s = self.state;
        if s.phase != Phase::Meld {
            return 0;
        }
        let hand = s.hands[s.current as usize];
        let barred = |c: Card| {
            s.turn.free_card == Some(c)
                && s.rules.free_pickup_return == Permit::Forbid
                && hand.count(c) < 2
        };
        let mut kinds = 0;
        let mut open = None;
        let mut barred_kinds = 0;
        for c in hand.kinds() {
            kinds += 1;
            if barred(c) {
                barred_kinds += 1;
            } else if open.is_none() {
                open = Some(c);
            }
        }
        let n = match open {
            Some(c) if s.discard_check(c, true).is_ok() => kinds - barred_kinds,
            _ => 0,
        };
        debug_assert_eq!(
            n,
            hand.kinds()
                .filter(|&c| s.discard_check(c, true).is_ok())
                .count() as u32
        );
        n
    }

    /// For an extend from the hand with no wild pending, the group it
    /// extends as it is and as the step leaves it (`Some(None)` if the step
    /// is refused): an extend changes that one group of the table and
    /// nothing else of it, so this is what
    /// [`CandidateCheck::read_table_after`] would find changed, without the
    /// step made on a copy. `None` for any other action or state.
    pub fn extend_from_hand(&self, a: Action) -> Option<Option<(Group, Group)>> {
        let s = self.state;
        let Action::Extend { group, card } = a else {
            return None;
        };
        if s.phase != Phase::Meld || !s.turn.pending.is_empty() {
            return None;
        }
        let p = s.current as usize;
        let gi = group as usize;
        Some(match s.extended_group(p, gi, card, true) {
            Ok((after, _)) => Some((s.tables[p].groups()[gi], after)),
            Err(_) => None,
        })
    }

    /// `read` of the mover's table after the meld step `a` alone, read in
    /// place: the step's own rules are checked, not whether the turn can
    /// then be completed (that is [`CandidateCheck::is_listed`]). `None` if
    /// the step is refused, or `a` is a discard or the reset, or the phase
    /// is not the meld phase.
    pub fn read_table_after<R>(&mut self, a: Action, read: impl FnOnce(&Table) -> R) -> Option<R> {
        let state = self.state;
        if state.phase != Phase::Meld || matches!(a, Action::Discard(_) | Action::Reset) {
            return None;
        }
        let (probe, save) = self.probe.get_or_insert_with(|| probe_of(state));
        let out = match probe.meld_step(a) {
            Ok(()) => {
                let r = read(&probe.tables[state.current as usize]);
                probe.restore_mover(save);
                Some(r)
            }
            // A refused step changes nothing.
            Err(_) => None,
        };
        debug_assert!(*probe == *state, "probe restored after {a}");
        out
    }
}

/// A quiet copy of `state` and its mover's part, to try steps on.
fn probe_of(state: &GameState) -> (GameState, MoverSave) {
    let mut probe = state.clone();
    probe.quiet = true;
    (probe, MoverSave::of(state))
}

/// One hand of decorated canasta, complete: every card's place, the
/// generator for chance, the turn in progress. Cloning copies fixed-size arrays only.
///
/// ```
/// use kanaszta_engine::{GameState, Rules, Action};
/// let mut g = GameState::new(Rules::default(), 42);
/// let mut legal = Vec::new();
/// while !g.is_terminal() {
///     g.legal_actions(&mut legal);
///     // a simple policy: prefer drawing and discarding the first card listed
///     let a = legal.iter().copied()
///         .find(|a| matches!(a, Action::Draw | Action::Discard(_) | Action::KeepCut { .. }))
///         .unwrap_or(legal[0]);
///     g.apply(a).unwrap();
/// }
/// assert_eq!(g.scores().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct GameState {
    pub(crate) rules: Rules,
    pub(crate) rng: Pcg64Mcg,
    pub(crate) starter: u8,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    pub(crate) hands: [CardSet; MAX_PLAYERS],
    pub(crate) tables: [Table; MAX_PLAYERS],
    pub(crate) known: [CardSet; MAX_PLAYERS],
    pub(crate) stock: [Card; PACK],
    pub(crate) stock_len: u8,
    pub(crate) stock_known_bottom: u8,
    pub(crate) pile: [Card; PACK],
    pub(crate) pile_len: u8,
    pub(crate) pile_top_fresh: bool,
    pub(crate) cut: [Card; 3],
    pub(crate) free_pending: [bool; MAX_PLAYERS],
    pub(crate) owed_red: [u8; MAX_PLAYERS],
    pub(crate) turns: u32,
    pub(crate) totals: [i32; MAX_PLAYERS],
    pub(crate) turn: Turn,
    pub(crate) anchor: Anchor,
    /// Refusals skip formatting their message (legality probes on clones).
    pub(crate) quiet: bool,
    pub(crate) end: Option<HandEnd>,
    pub(crate) stats: [PlayerStats; MAX_PLAYERS],
    /// I-32: bit `p` set once player `p` was found dead-locked after one
    /// of his discards (tested under `deadlock = end` only).
    pub(crate) dead: u8,
}

impl PartialEq for GameState {
    fn eq(&self, o: &GameState) -> bool {
        let n = self.players();
        self.rules == o.rules
            && self.rng == o.rng
            && self.starter == o.starter
            && self.current == o.current
            && self.phase == o.phase
            && self.hands[..n] == o.hands[..n]
            && self.tables[..n] == o.tables[..n]
            && self.known[..n] == o.known[..n]
            && self.stock() == o.stock()
            && self.stock_known_bottom == o.stock_known_bottom
            && self.pile() == o.pile()
            && self.pile_top_fresh == o.pile_top_fresh
            && (self.phase != Phase::Cut || self.cut == o.cut)
            && self.free_pending[..n] == o.free_pending[..n]
            && self.owed_red[..n] == o.owed_red[..n]
            && self.turns == o.turns
            && self.totals[..n] == o.totals[..n]
            && self.turn == o.turn
            && (self.phase != Phase::Meld || self.anchor == o.anchor)
            && self.end == o.end
            && self.stats[..n] == o.stats[..n]
            && self.dead == o.dead
    }
}

impl GameState {
    /// A new hand: the pack shuffled by a generator seeded with `seed`; the
    /// starter is drawn from the seed (I-1); running totals are zero.
    pub fn new(rules: Rules, seed: u64) -> GameState {
        let n = rules.players.max(2) as u64;
        let starter = (crate::matches::derive_seed(seed, u64::MAX - 1) % n) as u8;
        GameState::new_hand(rules, seed, starter, &[])
    }

    /// A new hand with a given starter and running totals (for matches: the
    /// opening table schedule and the scores depend on them).
    pub fn new_hand(rules: Rules, seed: u64, starter: u8, totals: &[i32]) -> GameState {
        let rng = Pcg64Mcg::seed_from_u64(seed);
        let mut t = [0; MAX_PLAYERS];
        for (d, s) in t.iter_mut().zip(totals) {
            *d = *s;
        }
        GameState::deal_with(rules, rng, starter % rules.players.max(2), t)
    }

    fn deal_with(
        rules: Rules,
        mut rng: Pcg64Mcg,
        starter: u8,
        totals: [i32; MAX_PLAYERS],
    ) -> GameState {
        let mut deck = [Card::JOKER; PACK];
        for (slot, c) in deck.iter_mut().zip(CardSet::FULL_PACK.iter()) {
            *slot = c;
        }
        shuffle(&mut deck, &mut rng);
        // I-2: the three shown cut cards are deck[0..3]; the rest is dealt
        // from the end after the keep decision. Until then they lie in the
        // stock area (hidden), in order.
        let mut stock = [Card::JOKER; PACK];
        stock[..PACK - 3].copy_from_slice(&deck[3..]);
        GameState {
            rules,
            rng,
            starter,
            current: starter,
            phase: Phase::Cut,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            tables: [Table::default(); MAX_PLAYERS],
            known: [CardSet::EMPTY; MAX_PLAYERS],
            stock,
            stock_len: (PACK - 3) as u8,
            stock_known_bottom: 0,
            pile: [Card::JOKER; PACK],
            pile_len: 0,
            pile_top_fresh: false,
            cut: [deck[0], deck[1], deck[2]],
            free_pending: [true; MAX_PLAYERS],
            owed_red: [0; MAX_PLAYERS],
            turns: 0,
            totals,
            turn: Turn::default(),
            anchor: Anchor::default(),
            quiet: false,
            end: None,
            stats: [PlayerStats::default(); MAX_PLAYERS],
            dead: 0,
        }
    }

    // ----- accessors -------------------------------------------------------

    /// The rules of this hand.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.rules.players as usize
    }

    /// The starter of this hand.
    pub fn starter(&self) -> usize {
        self.starter as usize
    }

    /// The player to move (meaningless once terminal).
    pub fn current_player(&self) -> usize {
        self.current as usize
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the hand is over.
    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How the hand ended, once it has.
    pub fn end(&self) -> Option<HandEnd> {
        self.end
    }

    /// A player's hand.
    pub fn hand(&self, p: usize) -> CardSet {
        self.hands[p]
    }

    /// A player's table.
    pub fn table(&self, p: usize) -> &Table {
        &self.tables[p]
    }

    /// Cards publicly known to be in a player's hand (picked up from the pile
    /// or kept from the cut, not yet melded or discarded).
    pub fn known(&self, p: usize) -> CardSet {
        self.known[p]
    }

    /// The stock, bottom first (the top card is the last).
    pub fn stock(&self) -> &[Card] {
        &self.stock[..self.stock_len as usize]
    }

    /// How many cards at the bottom of the stock are known to all (the
    /// unkept cut cards, D-3.3).
    pub fn stock_known_bottom(&self) -> usize {
        self.stock_known_bottom as usize
    }

    /// The pile, bottom first (the top card is the last).
    pub fn pile(&self) -> &[Card] {
        &self.pile[..self.pile_len as usize]
    }

    /// The pile's top card.
    pub fn pile_top(&self) -> Option<Card> {
        self.pile().last().copied()
    }

    /// Whether the pile is frozen (D-6.3): a black three or a wild on top.
    pub fn pile_frozen(&self) -> bool {
        self.pile_top()
            .is_some_and(|c| c.is_black_three() || c.is_wild())
    }

    /// The three shown cut cards (during [`Phase::Cut`]).
    pub fn cut_cards(&self) -> [Card; 3] {
        self.cut
    }

    /// Turns played (I-24: discards).
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Running totals before this hand.
    pub fn totals(&self) -> &[i32] {
        &self.totals[..self.players()]
    }

    /// Per-player counters.
    pub fn stats(&self, p: usize) -> &PlayerStats {
        &self.stats[p]
    }

    /// Whether the free pickup is offered to the mover now (D-6.1).
    pub fn free_pickup_offered(&self) -> bool {
        self.turn.free_offer
    }

    /// Whether player `p`'s free-pickup chance is still to come.
    pub fn free_pickup_pending(&self, p: usize) -> bool {
        self.free_pending[p]
    }

    /// The penalized pickup in progress, if any.
    pub fn pickup(&self) -> Option<Pickup> {
        self.turn.pickup
    }

    /// Wilds taken out of a group that must be placed before anything else.
    pub fn pending_wilds(&self) -> CardSet {
        self.turn.pending
    }

    /// I-26: the mover must go out this turn.
    pub fn must_go_out(&self) -> bool {
        self.turn.must_go_out
    }

    /// The opening minimum for player `p` (I-11).
    pub fn opening_minimum(&self, p: usize) -> i32 {
        self.rules.opening.minimum(self.totals[p])
    }

    /// Red-three replacements player `p` still has to draw (I-3).
    pub fn owed_replacements(&self, p: usize) -> u8 {
        self.owed_red[p]
    }

    /// Every card of the hand, in all zones: hands, tables, pile, stock (and
    /// the shown cut cards during the cut). 112 in a consistent state.
    pub fn all_cards(&self) -> Option<CardSet> {
        let mut s = CardSet::EMPTY;
        for p in 0..self.players() {
            s = s.checked_add(self.hands[p])?;
            s = s.checked_add(self.tables[p].cards())?;
        }
        s = s.checked_add(self.turn.pending)?;
        s = s.checked_add(CardSet::try_from_cards(self.pile().iter().copied())?)?;
        s = s.checked_add(CardSet::try_from_cards(self.stock().iter().copied())?)?;
        if self.phase == Phase::Cut {
            s = s.checked_add(CardSet::try_from_cards(self.cut)?)?;
        }
        Some(s)
    }

    /// Checks the invariants: 112 cards, every group legal, known ⊆ hand.
    pub fn check_invariants(&self) -> Result<(), String> {
        match self.all_cards() {
            Some(s) if s == CardSet::FULL_PACK => {}
            Some(s) => {
                return Err(format!(
                    "card conservation broken: {} cards, missing [{}], extra [{}]",
                    s.len(),
                    CardSet::FULL_PACK
                        .checked_sub(s)
                        .map(|d| d.to_string())
                        .unwrap_or_default(),
                    s.checked_sub(CardSet::FULL_PACK)
                        .map(|d| d.to_string())
                        .unwrap_or_default()
                ))
            }
            None => return Err("a card appears more often than the pack holds".into()),
        }
        for p in 0..self.players() {
            for (i, g) in self.tables[p].groups().iter().enumerate() {
                if !g.is_legal() {
                    return Err(format!("player {p} group {i} [{g}] is illegal (D-9)"));
                }
            }
            if !self.hands[p].contains_all(self.known[p]) {
                return Err(format!("player {p}: known cards not in hand"));
            }
            if self.hands[p].red_three_count() > 0 {
                return Err(format!("player {p} holds a red three (D-4)"));
            }
        }
        Ok(())
    }

    /// The hand's scores (D-14), one per player; zero before the end.
    pub fn scores(&self) -> Vec<HandScore> {
        (0..self.players()).map(|p| self.score_of(p)).collect()
    }

    /// Player `p`'s score breakdown (D-14). Meaningful once terminal.
    pub fn score_of(&self, p: usize) -> HandScore {
        score_hand(self, p)
    }

    // ----- legal actions --------------------------------------------------

    /// The legal actions of the mover, into `out` (cleared first). Never
    /// empty before the end. Every listed action is accepted by
    /// [`GameState::apply`] and leaves a turn that can be completed (I-9).
    /// New groups are listed as three-card lays (larger groups are a lay and
    /// extensions); `apply` accepts larger lays too.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Cut => {
                for mask in 0..8 {
                    out.push(Action::KeepCut { mask });
                }
            }
            Phase::FirstDiscard => {
                for c in self.hands[self.current as usize].kinds() {
                    out.push(Action::Discard(c));
                }
            }
            Phase::Draw => {
                out.push(Action::Draw);
                if self.turn.free_offer {
                    out.push(Action::FreePickup);
                }
                if self.take_pile_check(true).is_ok() {
                    out.push(Action::TakePile);
                }
            }
            Phase::Meld => self.meld_candidates(out),
        }
    }

    fn meld_candidates(&self, out: &mut Vec<Action>) {
        // Candidates go straight into the caller's buffer and the illegal
        // ones are dropped.
        self.raw_meld_candidates(out, true);
        let save = MoverSave::of(self);
        let mut probe = self.clone();
        probe.quiet = true;
        out.retain(|&a| probe.listed_on_probe(&save, a));
        debug_assert!(probe == *self, "probe restored");
    }

    /// The check of [`GameState::legal_actions`] for the candidate `a`, on
    /// a quiet copy of the listed state whose mover's part is `save`: a
    /// step refused changes nothing, and after a step made only the
    /// mover's part is put back. Discards and the reset are checked
    /// without changing anything.
    fn listed_on_probe(&mut self, save: &MoverSave, a: Action) -> bool {
        match a {
            Action::Discard(c) => self.check_discard(c).is_ok(),
            Action::Reset => self.resettable(),
            _ => {
                let mut touched = false;
                let ok = self.meld_try(a, &mut touched).is_ok();
                if touched {
                    self.restore_mover(save);
                }
                ok
            }
        }
    }

    /// The actions [`GameState::legal_actions`] chooses from, into `out`
    /// (cleared first): in the meld phase every step worth trying, the
    /// discards and the reset, none of them checked yet, in the listing's
    /// order (the legal actions are this list with the illegal ones
    /// dropped); in any other phase the legal actions themselves. With
    /// [`GameState::candidate_check`], a player who wants one action of a
    /// preference order checks only the candidates it gets to, instead of
    /// having every step's turn completion (I-9) checked.
    pub fn candidate_actions(&self, out: &mut Vec<Action>) {
        if self.phase == Phase::Meld {
            out.clear();
            self.raw_meld_candidates(out, true);
        } else {
            self.legal_actions(out);
        }
    }

    /// Checks candidates of [`GameState::candidate_actions`] one at a
    /// time: [`CandidateCheck::is_listed`] answers as
    /// [`GameState::legal_actions`] would list them.
    pub fn candidate_check(&self) -> CandidateCheck<'_> {
        CandidateCheck {
            state: self,
            probe: None,
            two_card_case: None,
            out_from_here: None,
        }
    }

    /// Every meld-phase action worth trying, legal or not; the discards
    /// and the reset (which end or undo the meld phase) only `with_ends`.
    fn raw_meld_candidates(&self, cand: &mut Vec<Action>, with_ends: bool) {
        let p = self.current as usize;
        let hand = self.hands[p];
        let table = &self.tables[p];
        // Candidates the step would refuse whatever the position are not
        // generated (dropping them changes neither the listing, which
        // keeps the order of the rest, nor the search, which skips
        // refused steps): extends of a black canasta (D-11.4), wilds out
        // of a group that received one or of a locked wild canasta
        // (D-11.2, I-22) or out of a black canasta but by a swap (I-13),
        // swaps but on a black canasta under `swap`, the rest of the pile
        // without a pickup in progress (D-6.2). Nor are extends and wilds
        // taken out that the group's limits refuse here (D-9.1, D-11.2,
        // I-13), checked on the group alone.
        for w in self.turn.pending.kinds() {
            for (i, g) in table.groups().iter().enumerate() {
                if g.is_black_canasta()
                    || !self.step_kept(
                        Action::Extend {
                            group: i as u8,
                            card: w,
                        },
                        extend_fits(g, w),
                    )
                {
                    continue;
                }
                cand.push(Action::Extend {
                    group: i as u8,
                    card: w,
                });
            }
        }
        {
            let pool = hand.checked_add(self.turn.pending).unwrap_or(hand);
            // For the search, with wilds pending only lays holding one of
            // them (the step refuses the others, D-11.2).
            let need = if with_ends {
                CardSet::EMPTY
            } else {
                self.turn.pending
            };
            lays_of_three(pool, need, cand);
            let hand_wilds = hand.wilds();
            let locked = self.rules.wild_canasta == WildCanasta::Locked;
            for (i, g) in table.groups().iter().enumerate() {
                // A copy: the pushes below cannot change it, so what is
                // read of it once is not read again.
                let g = *g;
                let group = i as u8;
                let black = g.is_black_canasta();
                if !black {
                    // The hand's kinds the group accepts (its rank and the
                    // wilds), in kind order. Whether one more card keeps
                    // the group legal depends only on whether it is wild
                    // (D-9.1, D-9.2): checked once for each.
                    let fits = match g.rank() {
                        Some(r) => hand_wilds.union_disjoint(hand.of_rank(r)),
                        None => hand_wilds,
                    };
                    let (natural_fits, wild_fits) = (g.fits_one_more(false), g.fits_one_more(true));
                    for c in fits.kinds() {
                        debug_assert!(g.accepts_kind(c));
                        let fits = if c.is_wild() { wild_fits } else { natural_fits };
                        debug_assert_eq!(fits, extend_fits(&g, c));
                        let a = Action::Extend { group, card: c };
                        if !self.step_kept(a, fits) {
                            continue;
                        }
                        cand.push(a);
                    }
                }
                let may_give = g.flags() & FLAG_RECEIVED == 0 && !(g.is_wild_canasta() && locked);
                let swaps =
                    may_give && black && self.rules.black_canasta_wilds == BlackCanastaWilds::Swap;
                if may_give && (!black || swaps) {
                    // Whether a wild may leave depends only on the group's
                    // counts (D-11.2, D-11.3, I-13): checked once.
                    let leaves = !black && g.may_lose_a_wild();
                    for w in g.wild_kinds().kinds() {
                        if !black {
                            let a = Action::TakeWild { group, wild: w };
                            debug_assert_eq!(leaves, wild_may_leave(&g, w));
                            if self.step_kept(a, leaves) {
                                cand.push(a);
                            }
                        }
                        if let (true, Some(r)) = (swaps, g.rank()) {
                            for n in hand.of_rank(r).kinds() {
                                cand.push(Action::Swap {
                                    group,
                                    natural: n,
                                    wild: w,
                                });
                            }
                        }
                    }
                }
                if black && self.rules.black_canasta_wilds == BlackCanastaWilds::ConvertOnly {
                    if let Some(r) = g.rank() {
                        let need = g.wilds();
                        for k in [need, need + 1] {
                            sub_multisets(hand.of_rank(r), k, &mut |s| {
                                cand.push(Action::Convert { group, naturals: s })
                            });
                        }
                    }
                }
                if g.is_new() && (with_ends || self.turn.pending.is_empty()) {
                    cand.push(Action::TakeBack { group });
                }
            }
            if !with_ends && !self.turn.pending.is_empty() {
                // The search skips what the step refuses while wilds are
                // pending (D-11.2): take-backs, heart aces, the rest.
                return;
            }
            if hand.contains(Card::HEART_ACE) {
                cand.push(Action::LayHeartAce);
            }
            if table.heart_aces_new > 0 {
                cand.push(Action::TakeBackHeartAce);
            }
            if self.before_rest() {
                cand.push(Action::TakeRest);
            }
            if with_ends {
                for c in hand.kinds() {
                    cand.push(Action::Discard(c));
                }
                if self.resettable() {
                    cand.push(Action::Reset);
                }
            }
        }
    }

    /// `keep`, the verdict of a check on the group alone for a candidate
    /// step; debug builds make sure a step it drops is one that
    /// [`GameState::meld_step`] refuses.
    fn step_kept(&self, a: Action, keep: bool) -> bool {
        #[cfg(debug_assertions)]
        if !keep {
            let mut t = self.clone();
            t.quiet = true;
            assert!(
                t.meld_step(a).is_err(),
                "{a} dropped, yet the step takes it"
            );
        }
        #[cfg(not(debug_assertions))]
        let _ = a;
        keep
    }

    // ----- apply -------------------------------------------------------------

    /// Applies an action of the mover. On error nothing changes and the error
    /// names the rule the action breaks.
    pub fn apply(&mut self, action: Action) -> Result<(), RuleError> {
        match self.phase {
            Phase::Over => refuse("D-13.3", "the hand is over"),
            Phase::Cut => match action {
                Action::KeepCut { mask } if mask < 8 => {
                    self.keep_cut(mask);
                    Ok(())
                }
                _ => refuse_fmt!(self.quiet, "D-3.1", "the starter must first decide which cut cards to keep (keep 000 … keep 111), not `{action}`"),
            },
            Phase::FirstDiscard => match action {
                Action::Discard(c) => self.discard(c),
                _ => refuse_fmt!(self.quiet, "D-5.4", "the starter's first turn is a discard and nothing else, not `{action}`"),
            },
            Phase::Draw => match action {
                Action::Draw => {
                    self.end_draw_choice();
                    self.draw_for_turn();
                    self.set_anchor();
                    Ok(())
                }
                Action::FreePickup => {
                    self.free_pickup()?;
                    self.set_anchor();
                    Ok(())
                }
                Action::TakePile => {
                    self.check_take_pile()?;
                    self.take_pile();
                    self.set_anchor();
                    Ok(())
                }
                _ => refuse_fmt!(self.quiet, "D-5.1", "a turn begins by drawing or taking from the pile, not `{action}`"),
            },
            Phase::Meld => {
                if let Action::Discard(c) = action {
                    return self.discard(c);
                }
                if action == Action::Reset {
                    if !self.resettable() {
                        return refuse("I-25", "nothing has been laid or moved this meld phase");
                    }
                    let p = self.current as usize;
                    self.hands[p] = self.anchor.hand;
                    self.known[p] = self.anchor.known;
                    self.tables[p] = self.anchor.table;
                    self.turn = self.anchor.turn;
                    return Ok(());
                }
                self.meld_action(action, true)
            }
        }
    }

    /// A meld-phase action other than a discard or a reset, in place.
    /// With `check`, the I-9 / I-26 completion check too: the step is made
    /// in place, and if the check refuses it the mover's part is put back
    /// as it was. Without, only the step's own rules (a refused step
    /// changes nothing).
    fn meld_action(&mut self, action: Action, check: bool) -> Result<(), RuleError> {
        if check {
            let save = MoverSave::of(self);
            let mut touched = false;
            if let Err(e) = self.meld_try(action, &mut touched) {
                if touched {
                    self.restore_mover(&save);
                }
                return Err(e);
            }
        } else {
            self.meld_step(action)?;
        }
        if action == Action::TakeRest {
            self.set_anchor();
        }
        Ok(())
    }

    /// A meld-phase action other than a discard or a reset, in place, with
    /// the I-9 completion check. A refusal by the step itself changes
    /// nothing (`touched` stays false); after a refusal by the completion
    /// check the step has been made (`touched`) and the caller restores the
    /// mover's part ([`GameState::restore_mover`]).
    fn meld_try(&mut self, action: Action, touched: &mut bool) -> Result<(), RuleError> {
        self.meld_step(action)?;
        *touched = true;
        if action == Action::TakeRest {
            // With the opening made and two cards in hand the turn
            // surely ends with a discard; otherwise search.
            let sure = !self.turn.must_go_out && self.hands[self.current as usize].len() >= 2;
            if !sure && (!self.can_finish() || !self.search_completion(&mut 1500)) {
                return refuse(
                    "I-26",
                    "taking the rest of the pile would leave a turn that cannot be completed (the opening fell short and no way out exists)",
                );
            }
            return Ok(());
        }
        // The quick completion test first. Its "no" is exact in a
        // plain meld phase (it rests on the going-out solver, which
        // is generous); with pending wilds or during a pickup an
        // exact (bounded) search over the engine's own moves decides.
        let tight = !self.turn.pending.is_empty() || self.before_rest();
        let completable = self.can_finish() || (tight && self.search_completion(&mut 600));
        if !completable {
            return refuse_fmt!(
                self.quiet,
                "I-9",
                "`{action}` would leave a turn that cannot be completed"
            );
        }
        Ok(())
    }

    /// The completion search's key of a state: a hash of everything of the
    /// mover's turn that the search can change (hand, table, pending wilds,
    /// pickup). Word by word, live groups only (vacated slots are cleared).
    fn search_key(&self) -> u64 {
        let p = self.current as usize;
        let mut h = WordHash::default();
        let (lo, hi, j) = self.hands[p].raw();
        h.word(lo);
        h.word(hi);
        let table = &self.tables[p];
        let (tlo, thi, tj) = table.red_threes.raw();
        h.word(tlo);
        h.word(thi);
        let (plo, phi, pj) = self.turn.pending.raw();
        h.word(plo);
        h.word(phi);
        h.word(
            j as u64
                | (tj as u64) << 8
                | (pj as u64) << 16
                | (table.twins as u64 & 0xFF) << 24
                | (table.heart_aces as u64) << 32
                | (table.heart_aces_new as u64) << 40
                | (table.opened as u64) << 48
                | (self.turn.must_go_out as u64) << 49
                | (table.len() as u64) << 56
                // Twins past 255 (only very long hands have them) in bits 50–55.
                | ((table.twins as u64) >> 8) << 50,
        );
        h.word(match self.turn.pickup {
            None => 0,
            Some(pk) => {
                1 | (pk.top.index() as u64) << 8
                    | (pk.group_baseline as u64) << 16
                    | (pk.pile_size as u64) << 24
                    | (pk.rest_taken as u64) << 32
            }
        });
        for g in table.groups() {
            h.word(g.packed());
        }
        h.finish()
    }

    /// Copies the mover's part from `o`, a state that differs from this
    /// one in nothing else (see [`MoverSave`]).
    fn copy_mover_from(&mut self, o: &GameState) {
        let p = o.current as usize;
        self.hands[p] = o.hands[p];
        self.known[p] = o.known[p];
        self.tables[p] = o.tables[p];
        self.turn = o.turn;
        self.pile_len = o.pile_len;
        self.stats[p] = o.stats[p];
    }

    /// Puts back the mover's part of the state saved by [`MoverSave::of`]:
    /// everything a meld step may change.
    fn restore_mover(&mut self, save: &MoverSave) {
        let p = self.current as usize;
        self.hands[p] = save.hand;
        self.known[p] = save.known;
        self.tables[p] = save.table;
        self.turn = save.turn;
        self.pile_len = save.pile_len;
        self.stats[p] = save.stats;
    }

    /// Applies an action listed by [`GameState::legal_actions`] for this
    /// state, or for a state with the same mover's hand, table and turn
    /// (such as a determinization of the mover's view). The listing has
    /// already made the I-9 / I-26 completion check of a meld step, the
    /// costly part of [`GameState::apply`], so it is not repeated here; the
    /// step's own rules still are, and every other action goes through
    /// `apply`. The result is the same as `apply`'s for a listed action;
    /// for an unlisted meld step that only the completion check would
    /// refuse it is not (debug builds panic on one). For agents and
    /// rollouts that choose from the listing.
    pub fn apply_listed(&mut self, action: Action) -> Result<(), RuleError> {
        if self.phase != Phase::Meld || matches!(action, Action::Discard(_) | Action::Reset) {
            return self.apply(action);
        }
        #[cfg(debug_assertions)]
        let expected = {
            let mut t = self.clone();
            t.apply(action).map(|()| t)
        };
        self.meld_action(action, false)?;
        #[cfg(debug_assertions)]
        match expected {
            Ok(t) => debug_assert!(t == *self, "apply_listed differs from apply for `{action}`"),
            Err(e) => panic!("apply_listed: `{action}` was not listed: {e}"),
        }
        Ok(())
    }

    /// Applies the meld step `action` with its own rules checked, but not
    /// whether the turn can then be completed (I-9, I-26): for trying
    /// candidates ([`GameState::candidate_actions`]) whose listing is
    /// checked apart ([`GameState::candidate_check`]). A refused step
    /// changes nothing. Discards, the reset and actions of other phases
    /// go through [`GameState::apply`].
    pub fn apply_step(&mut self, action: Action) -> Result<(), RuleError> {
        if self.phase != Phase::Meld || matches!(action, Action::Discard(_) | Action::Reset) {
            return self.apply(action);
        }
        self.meld_action(action, false)
    }

    /// Applies an action the caller knows to be legal (e.g. taken from
    /// [`GameState::legal_actions`]); panics on an illegal one. For rollouts.
    pub fn apply_unchecked(&mut self, action: Action) {
        if let Err(e) = self.apply(action) {
            panic!("apply_unchecked: illegal action `{action}`: {e}");
        }
    }

    fn keep_cut(&mut self, mask: u8) {
        let s = self.starter as usize;
        let n = self.players();
        let mut kept = 0;
        let mut unkept = [Card::JOKER; 3];
        let mut nu = 0;
        for i in 0..3 {
            if mask & (1 << i) != 0 {
                self.hands[s].insert(self.cut[i]);
                self.known[s].insert(self.cut[i]);
                kept += 1;
            } else {
                unkept[nu] = self.cut[i];
                nu += 1;
            }
        }
        // D-3.2: deal from the lower part: 15 − kept to the starter, 14 to others.
        for k in 0..n {
            let p = (s + k) % n;
            let want = if p == s { 15 - kept } else { 14 };
            for _ in 0..want {
                self.stock_len -= 1;
                let c = self.stock[self.stock_len as usize];
                self.hands[p].insert(c);
            }
        }
        // D-3.3: unkept shown cards become the bottom of the stock.
        let len = self.stock_len as usize;
        self.stock.copy_within(0..len, nu);
        self.stock[..nu].copy_from_slice(&unkept[..nu]);
        self.stock_len += nu as u8;
        self.stock_known_bottom = nu as u8;
        // D-4.1: dealt red threes go to the table; replacements at the
        // owner's first turn (I-3).
        for p in 0..n {
            for rt in [
                Card::new(Rank::Three, Suit::Hearts),
                Card::new(Rank::Three, Suit::Diamonds),
            ] {
                while self.hands[p].count(rt) > 0 {
                    self.hand_remove(p, rt);
                    self.tables[p].red_threes.insert(rt);
                    self.owed_red[p] += 1;
                }
            }
        }
        self.begin_turn(s, true);
    }

    /// Starts player `p`'s turn: owed red-three replacements (I-3), the free
    /// pickup offer (D-6.1), exhaustion (I-4).
    fn begin_turn(&mut self, p: usize, first_discard: bool) {
        self.current = p as u8;
        self.turn = Turn {
            opened_at_start: self.tables[p].opened,
            ..Turn::default()
        };
        while self.owed_red[p] > 0 {
            self.owed_red[p] -= 1;
            if !self.draw_into(p) {
                self.finish(HandEnd::Exhausted);
                return;
            }
        }
        if first_discard {
            self.phase = Phase::FirstDiscard;
            return;
        }
        self.phase = Phase::Draw;
        let top = self.pile_top();
        self.turn.free_offer = self.free_pending[p]
            && self.pile_top_fresh
            && top.is_some_and(|c| self.free_eligible(c));
        if self.pile_frozen() {
            self.stats[p].frozen_turns += 1;
        }
        if self.stock_len == 0 && self.pile_len == 0 {
            self.finish(HandEnd::Exhausted);
        }
    }

    /// D-6.1, I-6: a card the free pickup may take.
    fn free_eligible(&self, c: Card) -> bool {
        !(c.is_black_three() || c.is_wild() && self.rules.free_pickup_wild == Permit::Forbid)
    }

    pub(crate) fn set_anchor(&mut self) {
        let p = self.current as usize;
        self.turn.at_anchor = true;
        // Field by field: each copied once, in place.
        let Anchor {
            hand,
            known,
            table,
            turn,
        } = &mut self.anchor;
        *hand = self.hands[p];
        *known = self.known[p];
        *table = self.tables[p];
        *turn = self.turn;
    }

    /// Whether [`Action::Reset`] would change anything.
    fn resettable(&self) -> bool {
        let p = self.current as usize;
        let differs = || {
            self.hands[p] != self.anchor.hand
                || self.tables[p] != self.anchor.table
                || self.turn != self.anchor.turn
        };
        if self.turn.at_anchor {
            debug_assert!(!differs(), "at the anchor");
            return false;
        }
        self.phase == Phase::Meld && differs()
    }

    /// Whether the turn can still be completed from here with the engine's
    /// own meld actions (a discard, or the rest of the pile and then a
    /// discard): the I-9 check of a step in a tight state (pending wilds,
    /// or a pickup before the rest). A "yes" is always a sequence of steps
    /// found; a "no" is exact when the card count decides
    /// ([`GameState::surely_stuck`]) or the search space is spent, and
    /// otherwise means no way out was found within the searches of
    /// [`GameState::completion_verdict`]. `budget` is the depth-first
    /// search's node budget; on return it holds what that search left.
    pub(crate) fn search_completion(&self, budget: &mut u32) -> bool {
        if self.surely_stuck() {
            return false;
        }
        // The answer depends on the state and the budget alone, and the
        // same state is often searched twice: once when the listing tries
        // the step that leads to it, again when the step is applied.
        let key = self.search_key();
        let hit = RECENT_SEARCHES.with(|r| r.borrow().find(key, self, *budget));
        if let Some((found, left)) = hit {
            *budget = left;
            return found;
        }
        let given = *budget;
        let mut search = Search::take(*budget);
        let found = self.completion_verdict(budget, &mut search);
        search.give_back();
        RECENT_SEARCHES.with(|r| r.borrow_mut().insert(key, self, given, found, *budget));
        found
    }

    /// The searches behind [`GameState::search_completion`], in turn, each
    /// answering "yes" only with a way out it found:
    ///
    /// 1. every way out of one step (a step, then the discard), tried
    ///    breadth-first: the usual way out with wilds pending, such as
    ///    laying them together as a new group, which the depth-first
    ///    search may meet only after hundreds of placements;
    /// 2. the depth-first search within `budget` nodes, placements and
    ///    lays first;
    /// 3. if that search ran out of budget: iterative deepening, for a way
    ///    out of at most [`SHORT_WAY_STEPS`] steps within
    ///    [`SHORT_WAY_BUDGET`] nodes.
    ///
    /// The first and last searches have budgets of their own, so each
    /// only adds ways out to what the depth-first search finds.
    fn completion_verdict(&self, budget: &mut u32, search: &mut Search) -> bool {
        let mut root = self.clone();
        root.quiet = true;
        let mut path = Vec::new();
        let mut one_step = u32::MAX;
        search.seen.clear();
        if root.search_rec(&mut one_step, search, 1, &mut path) {
            return true;
        }
        search.seen.clear();
        if root.search_rec(budget, search, 150, &mut path) {
            return true;
        }
        if *budget > 0 {
            // The depth-first search ended within its budget: it visited
            // every state reachable from here, and none has a way out.
            return false;
        }
        let mut short = SHORT_WAY_BUDGET;
        for limit in 2..=SHORT_WAY_STEPS {
            search.seen.clear();
            if root.search_rec(&mut short, search, limit, &mut path) {
                return true;
            }
            if short == 0 {
                break;
            }
        }
        false
    }

    /// A way to complete the current turn (meld actions ending with the
    /// discard), found by a bounded exact search: the shortest by iterative
    /// deepening within `budget` states, else any found by one deep search
    /// of `budget` states; `None` outside a meld phase or when neither
    /// finds one.
    /// Agents use it to finish a turn they cannot otherwise end (I-26).
    pub fn completion(&self, budget: u32) -> Option<Vec<Action>> {
        if self.phase != Phase::Meld {
            return None;
        }
        if self.surely_stuck() {
            return None;
        }
        let mut root = self.clone();
        root.quiet = true;
        let mut search = Search::take(budget);
        search.bound = true;
        let path = root.completion_in(budget, &mut search);
        search.give_back();
        path
    }

    /// [`GameState::completion`] with the given search buffers.
    fn completion_in(&self, budget: u32, search: &mut Search) -> Option<Vec<Action>> {
        // Iterative deepening: the shortest way out, so that following
        // its first step and searching again makes progress.
        let mut b = budget;
        for limit in 1..=150 {
            search.seen.clear();
            search.cut = false;
            let mut path = Vec::new();
            if self.search_rec(&mut b, search, limit, &mut path) {
                path.reverse();
                return Some(path);
            }
            if b == 0 {
                break;
            }
            if !search.cut {
                // Within its budget and never stopped by the depth limit,
                // this pass visited every state reachable from here: there
                // is no way out, whatever the budget or depth.
                return None;
            }
        }
        // Deepening ran out of budget: one deep search, the kind the legality
        // checks use, gives a way out that may not be the shortest.
        let mut b = budget;
        search.seen.clear();
        let mut path = Vec::new();
        if self.search_rec(&mut b, search, 150, &mut path) {
            path.reverse();
            return Some(path);
        }
        None
    }

    /// Whether no sequence of meld steps can reach a discard from here, by
    /// counting cards; a cheap exact "no" for the completion search, which
    /// then cannot find a way either (whatever its budget). `false` means
    /// only that the count does not decide.
    ///
    /// Outside a pickup (the rest of the pile would bring new cards), the
    /// hand can only win back cards that came from it this turn: those of
    /// the groups laid this turn, except wilds moved in from older groups
    /// (a take-back returns them there, or is refused for a broken-up
    /// group of wilds), the ♥A laid separately, and pending wilds taken
    /// out of a group laid this turn. Each step keeps that count or lowers
    /// it (a wild moved into an older group, a card laid there, a natural
    /// swapped into one). With none of those cards the turn can never
    /// discard. With one, a discard goes out, which needs a canasta
    /// (D-13.2); with no canasta on the table, one can only be made from
    /// a group's naturals, at most that one hand card more, and the wilds
    /// there are (on the table, pending or in the hand). When that one
    /// card is the hand's and no group of this turn can be taken back, the
    /// going-out test decides exactly.
    fn surely_stuck(&self) -> bool {
        if self.phase != Phase::Meld || self.before_rest() {
            return false;
        }
        let p = self.current as usize;
        let hand = self.hands[p];
        let table = &self.tables[p];
        let groups = table.groups();
        let mut own = hand.len() + table.heart_aces_new as u32;
        for g in groups {
            if g.is_new() {
                own += g.len();
            }
        }
        for &(_, ret, _) in self.turn.live_pend() {
            if ret == FROM_HAND {
                own += 1;
            }
        }
        // Wilds moved into a group laid this turn from an older one.
        let moved_in = self
            .turn
            .live_moves()
            .iter()
            .filter(|&&(to, from, _)| {
                from != FROM_HAND && groups.get(to as usize).is_some_and(|g| g.is_new())
            })
            .count() as u32;
        let Some(own) = own.checked_sub(moved_in) else {
            debug_assert!(false, "a wild moved in is one of its group's cards");
            return false;
        };
        match own {
            0 => true,
            1 if hand.len() == 1 && !table.has_new() => {
                // The hand's one card is the one card it can hold at the
                // discard, which then goes out (D-13): the turn completes
                // only by a way out. With no group of this turn to take
                // back, every meld step left moves wilds between groups,
                // places the pending ones or lays the hand card, all of
                // which the going-out test allows (it is generous), so its
                // "no" is exact.
                let all = hand.checked_add(self.turn.pending).unwrap_or(hand);
                !solver::can_go_out(self, p, all, false, None, self.turn.pending)
            }
            1 if !table.has_canasta() => {
                let wilds = groups.iter().map(|g| g.wilds()).sum::<u32>()
                    + self.turn.pending.len()
                    + hand.wild_count();
                if wilds >= 7 {
                    return false;
                }
                !groups.iter().any(|g| {
                    g.rank().is_some_and(|r| {
                        let n = g.naturals() + hand.rank_count(r);
                        n >= 7 || n + wilds.min(max_wilds(n)) >= 7
                    })
                })
            }
            _ => false,
        }
    }

    fn search_rec(
        &self,
        budget: &mut u32,
        search: &mut Search,
        depth: u32,
        path: &mut Vec<Action>,
    ) -> bool {
        if self.phase != Phase::Meld {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if depth == 0 && search.cut && !search.mark_leaves {
            // A leaf once the pass has been cut: its only question is the
            // discard. Marking it visited would change nothing: a later
            // visit at depth 0 fails as this one does (a state with a
            // discard ends the search at once), a deeper one searches it
            // whether marked at 0 or not, and the cut is already made.
            // So the state's key is not made (a leaf is most nodes).
            if self.turn.pending.is_empty() && !self.before_rest() {
                if let Some(c) = self.first_discard() {
                    path.push(Action::Discard(c));
                    return true;
                }
            }
            return false;
        }
        let key = self.search_key();
        // `depth` is the number of steps still allowed; a state already
        // searched with at least as many is not searched again.
        if !search.seen.visit(key, depth) {
            return false;
        }
        if self.turn.pending.is_empty() && !self.before_rest() {
            if let Some(c) = self.first_discard() {
                path.push(Action::Discard(c));
                return true;
            }
        }
        if depth == 0 {
            search.cut = true;
            return false;
        }
        if search.bound && self.steps_to_discard() > depth {
            search.cut = true;
            return false;
        }
        // Buffers come from the search's pools and go back on return.
        let mut cand = search.cands.pop().unwrap_or_default();
        cand.clear();
        // Discards were tried above; the reset leads back to a searched state.
        self.raw_meld_candidates(&mut cand, false);
        // Placements and lays first: they make progress.
        // During a pickup, laying the top card comes first.
        let top = self
            .turn
            .pickup
            .filter(|pk| !pk.rest_taken)
            .map(|pk| pk.top);
        let class = |a: &Action| -> usize {
            match a {
                Action::TakeRest => 0,
                Action::Extend { card, .. } if Some(*card) == top => 1,
                Action::Lay { cards } if top.is_some_and(|t| cards.contains(t)) => 1,
                Action::Extend { .. } => 2,
                Action::Lay { .. } => 3,
                Action::Swap { .. } | Action::Convert { .. } => 4,
                Action::LayHeartAce => 5,
                _ => 6,
            }
        };
        // A stable sort by class, as a counting sort: seven classes.
        let mut sorted = search.cands.pop().unwrap_or_default();
        let mut start = [0usize; 8];
        for a in &cand {
            start[class(a) + 1] += 1;
        }
        for i in 1..8 {
            start[i] += start[i - 1];
        }
        sorted.clear();
        sorted.resize(cand.len(), Action::Draw);
        for a in &cand {
            let c = class(a);
            sorted[start[c]] = *a;
            start[c] += 1;
        }
        std::mem::swap(&mut cand, &mut sorted);
        search.cands.push(sorted);
        // One copy serves every candidate: a refused step changes nothing,
        // and after a step searched in vain the mover's part is put back.
        // Every state of one search differs from its root only in the
        // mover's part, so a pooled copy needs only that part refreshed.
        let mut t = match search.states.pop() {
            Some(mut t) => {
                t.copy_mover_from(self);
                t
            }
            None => match search.stale.pop() {
                Some(mut t) => {
                    t.as_mut().clone_from(self);
                    t
                }
                None => Box::new(self.clone()),
            },
        };
        debug_assert!(*t == *self, "pooled copy refreshed");
        let mut found = false;
        for &a in &cand {
            if t.meld_step(a).is_err() {
                debug_assert!(*t == *self, "a refused {a} changed nothing");
                continue;
            }
            if t.search_rec(budget, search, depth - 1, path) {
                path.push(a);
                found = true;
                break;
            }
            if *budget == 0 {
                // Every later node would return false at once (a meld step
                // never ends the phase), so the rest of the candidates
                // cannot change the answer.
                break;
            }
            t.copy_mover_from(self);
            debug_assert!(*t == *self, "restored after {a}");
        }
        search.states.push(t);
        search.cands.push(cand);
        found
    }

    /// A lower bound on the meld steps before the mover can discard: for
    /// the finisher's search ([`GameState::completion`]), which leaves out
    /// a node that cannot reach a discard within the steps it has left.
    ///
    /// Before the rest of the pile is taken, see
    /// [`GameState::steps_through_pickup`]. Otherwise it is 0 but with
    /// nothing laid this turn (no take-back, D-11.5). Then:
    ///
    /// - With wilds pending, the discard waits until all are placed
    ///   (D-11.2): one step places one (an extend) or three (a lay, which
    ///   makes no canasta), and the hand wins a card back only by a lay
    ///   and its take-back. One step can lead to a discard only with two
    ///   cards in hand, or a canasta on the table, or one wild pending
    ///   and a group of six; otherwise two.
    /// - With none pending, a card comes back to the hand only by taking
    ///   back a group laid from here that holds a wild taken out of
    ///   another group laid from here (I-25: such a wild came from the
    ///   hand): at least a wild taken out, a lay, a wild taken out of it,
    ///   a lay or an extend and the take-back, five steps. A hand of one
    ///   card discards sooner only by going out, with a canasta (D-13.2)
    ///   of wilds moved out of other groups, the card staying to be
    ///   discarded: a group with `k` cards to go takes `k` extends (a new
    ///   group a lay and four), and the wilds at least a step for every
    ///   three taken out (a group of three wilds broken up, D-11.3).
    fn steps_to_discard(&self) -> u32 {
        const REGAIN: u32 = 5;
        let p = self.current as usize;
        let table = &self.tables[p];
        if self.before_rest() {
            return self.steps_through_pickup();
        }
        if table.has_new() {
            return 0;
        }
        let hand = self.hands[p].len();
        let pending = self.turn.pending.len();
        if hand >= 2 {
            return (pending > 0) as u32;
        }
        if hand == 0 && pending == 0 {
            return REGAIN;
        }
        let longest = table.groups().iter().map(|g| g.len()).max().unwrap_or(0);
        if pending > 0 {
            let one_step = longest >= 7 || (pending == 1 && longest == 6);
            return if one_step { 1 } else { 2 };
        }
        let k = 7u32.saturating_sub(longest);
        (k.min(5) + k.div_ceil(3)).min(REGAIN)
    }

    /// [`GameState::steps_to_discard`] before the rest of the pile is
    /// taken (D-6.2): taking it is a step, after the top card is laid
    /// (I-8). An unopened player needs his opening (D-8.2) on the table
    /// first, at most 60 points a step (three cards of 20, a lay; an
    /// extend adds one card, a wild moved adds no more than it takes);
    /// short of it, he must go out (I-26), laying all of his hand's cards
    /// but one, three a step at most.
    fn steps_through_pickup(&self) -> u32 {
        let p = self.current as usize;
        let table = &self.tables[p];
        let top = !self.top_laid() as u32;
        if table.opened {
            return top + 1;
        }
        let short = (self.opening_minimum(p) - table.opening_value()).max(0) as u32;
        let open = short.div_ceil(60).max(top) + 1;
        let out = self.hands[p].len().saturating_sub(1).div_ceil(3).max(top) + 1;
        open.min(out)
    }

    fn end_draw_choice(&mut self) {
        let p = self.current as usize;
        if self.turn.free_offer {
            self.free_pending[p] = false;
            self.turn.free_offer = false;
        }
        self.phase = Phase::Meld;
    }

    fn draw_for_turn(&mut self) {
        let p = self.current as usize;
        if !self.draw_into(p) {
            self.finish(HandEnd::Exhausted);
        }
    }

    /// Draws one card for `p`, laying out and replacing red threes (D-4.2).
    /// `false` if stock and pile are both empty (I-4: exhausted).
    fn draw_into(&mut self, p: usize) -> bool {
        loop {
            if self.stock_len == 0 {
                if self.pile_len == 0 {
                    return false;
                }
                self.reshuffle();
            }
            self.stock_len -= 1;
            let c = self.stock[self.stock_len as usize];
            if (self.stock_len as usize) < self.stock_known_bottom as usize {
                self.stock_known_bottom = self.stock_len;
            }
            if self.stock_len == 0
                && self.rules.reshuffle == Reshuffle::WhenEmpty
                && self.pile_len > 0
            {
                self.reshuffle();
            }
            if c.is_red_three() {
                self.tables[p].red_threes.insert(c);
                continue;
            }
            self.hands[p].insert(c);
            return true;
        }
    }

    /// D-5.3, I-4: the pile, top included, shuffled into a new stock.
    fn reshuffle(&mut self) {
        let n = self.pile_len as usize;
        let mut cards = self.pile;
        shuffle(&mut cards[..n], &mut self.rng);
        self.stock[..n].copy_from_slice(&cards[..n]);
        self.stock_len = n as u8;
        self.stock_known_bottom = 0;
        self.pile_len = 0;
        self.pile_top_fresh = false;
    }

    fn free_pickup(&mut self) -> Result<(), RuleError> {
        if !self.turn.free_offer {
            return refuse(
                "D-6.1",
                "the free pickup is not offered now: it takes the previous player's first discard that is not a black three, on the turn right after it, once per hand",
            );
        }
        let p = self.current as usize;
        self.end_draw_choice();
        self.pile_len -= 1;
        let c = self.pile[self.pile_len as usize];
        self.pile_top_fresh = false;
        self.hands[p].insert(c);
        self.known[p].insert(c);
        self.turn.free_card = Some(c);
        self.stats[p].free_pickups += 1;
        Ok(())
    }

    /// D-6.2, D-6.3, I-7, I-9: whether the penalized pickup is allowed now.
    pub fn check_take_pile(&self) -> Result<(), RuleError> {
        self.take_pile_check(self.quiet)
    }

    /// [`GameState::check_take_pile`], formatting no message when `quiet`
    /// (the listing asks without copying the state to make it quiet).
    fn take_pile_check(&self, quiet: bool) -> Result<(), RuleError> {
        if self.phase != Phase::Draw {
            return refuse("D-6.2", "the pile is taken at the start of a turn");
        }
        let p = self.current as usize;
        let Some(top) = self.pile_top() else {
            return refuse("D-6.2", "the pile is empty");
        };
        if self.turn.free_offer {
            return refuse(
                "I-7",
                "on the turn the free pickup is offered the pile cannot be taken (draw or take the free card)",
            );
        }
        if self.free_pending[p] {
            return refuse(
                "D-6.2",
                "the pile can be taken only once the free-pickup chance has passed",
            );
        }
        if top.is_black_three() {
            return refuse("D-6.3", "the pile is frozen by a black three");
        }
        if top.is_wild() {
            return refuse("D-6.3", "the pile is frozen by a wild");
        }
        let Some(rank) = top.rank() else {
            return refuse("D-6.3", "the pile is frozen");
        };
        let hand = self.hands[p];
        let nat = hand.rank_count(rank);
        if !(nat >= 2 || (nat >= 1 && hand.wild_count() >= 1)) {
            return refuse_fmt!(quiet, "D-6.2", "to take the pile the hand must hold two {}s, or one and a wild, to lay with the top card {top}",
                    rank_name(rank));
        }
        let mut s = self.clone();
        s.quiet = true;
        s.take_pile();
        let ok = match s.pickup_verdict(p) {
            Verdict::Sure => true,
            Verdict::Maybe => s.search_completion(&mut 1500),
            Verdict::No => false,
        };
        if !ok {
            return refuse(
                "I-9",
                "taking the pile would leave a turn that cannot be completed (the top card cannot be laid, or the opening cannot be made and no way out exists)",
            );
        }
        Ok(())
    }

    fn take_pile(&mut self) {
        let p = self.current as usize;
        self.end_draw_choice();
        let size = self.pile_len;
        self.pile_len -= 1;
        let top = self.pile[self.pile_len as usize];
        self.pile_top_fresh = false;
        let in_groups: u32 = self.tables[p].groups().iter().map(|g| g.count(top)).sum();
        self.hands[p].insert(top);
        self.known[p].insert(top);
        self.turn.pickup = Some(Pickup {
            top,
            group_baseline: in_groups as u8,
            pile_size: size,
            rest_taken: false,
        });
        self.stats[p].pile_pickups += 1;
        self.stats[p].cards_picked += size as u16;
    }

    fn top_laid(&self) -> bool {
        match self.turn.pickup {
            Some(pk) => {
                let p = self.current as usize;
                let n: u32 = self.tables[p]
                    .groups()
                    .iter()
                    .map(|g| g.count(pk.top))
                    .sum();
                n > pk.group_baseline as u32
            }
            None => true,
        }
    }

    fn before_rest(&self) -> bool {
        self.turn.pickup.is_some_and(|pk| !pk.rest_taken)
    }

    fn hand_remove(&mut self, p: usize, c: Card) -> bool {
        if !self.hands[p].remove(c) {
            return false;
        }
        if self.known[p].count(c) > self.hands[p].count(c) {
            self.known[p].remove(c);
        }
        true
    }

    /// One meld-phase step, without the I-9 completion check.
    fn meld_step(&mut self, action: Action) -> Result<(), RuleError> {
        let made = self.make_step(action);
        if made.is_ok() {
            // Whether the step leads back to the anchor is not known.
            self.turn.at_anchor = false;
        }
        made
    }

    /// [`GameState::meld_step`] but for the anchor's flag.
    fn make_step(&mut self, action: Action) -> Result<(), RuleError> {
        let p = self.current as usize;
        if !self.turn.pending.is_empty()
            && !matches!(
                action,
                Action::Extend { .. }
                    | Action::Lay { .. }
                    | Action::TakeWild { .. }
                    | Action::Swap { .. }
                    | Action::Convert { .. }
            )
        {
            return refuse_fmt!(self.quiet, "D-11.2", "the wild taken out ({}) must go at once into another group: extend a group or lay a new one with it",
                    self.turn.pending);
        }
        match action {
            Action::Lay { cards } => self.lay(p, cards),
            Action::Extend { group, card } => self.extend(p, group as usize, card),
            Action::TakeWild { group, wild } => self.take_wild(p, group as usize, wild),
            Action::Swap {
                group,
                natural,
                wild,
            } => self.swap(p, group as usize, natural, wild),
            Action::Convert { group, naturals } => self.convert(p, group as usize, naturals),
            Action::TakeBack { group } => self.take_back(p, group as usize),
            Action::LayHeartAce => self.lay_heart_ace(p),
            Action::TakeBackHeartAce => {
                if self.tables[p].heart_aces_new == 0 {
                    return refuse("D-11.5", "no ♥A was laid separately this turn");
                }
                self.tables[p].heart_aces_new -= 1;
                self.tables[p].heart_aces -= 1;
                self.hands[p].insert(Card::HEART_ACE);
                Ok(())
            }
            Action::TakeRest => self.take_rest(p),
            Action::Reset => refuse("I-25", "reset is handled by apply"),
            Action::Draw | Action::FreePickup | Action::TakePile => {
                refuse("D-5.1", "this turn's card has already been drawn or taken")
            }
            Action::KeepCut { .. } => refuse("D-3.1", "the cut is over"),
            Action::Discard(_) => unreachable!("discard is handled by apply"),
        }
    }

    fn lay(&mut self, p: usize, cards: CardSet) -> Result<(), RuleError> {
        if cards.len() < 3 {
            return refuse_fmt!(
                self.quiet,
                "D-9.1",
                "a group needs at least 3 cards, got [{cards}]"
            );
        }
        let Some(mut g) = Group::from_cards(cards) else {
            if cards.black_three_count() + cards.red_three_count() > 0 {
                return refuse("D-9.3", "threes are never melded");
            }
            return refuse_fmt!(
                self.quiet,
                "D-9.1",
                "a group holds cards of one natural rank plus wilds, not [{cards}]"
            );
        };
        if !g.is_legal() {
            let rule = if g.is_wild_only() { "D-9.2" } else { "D-9.1" };
            return refuse_fmt!(
                self.quiet,
                rule,
                "[{cards}] is not a legal group: 3–8 cards, wilds fewer than naturals, none in 8; or 3–7 wilds"
            );
        }
        if let Some(r) = g.rank() {
            if self.rules.groups_per_rank == GroupsPerRank::One
                && self.tables[p].group_of_rank(r).is_some()
            {
                return refuse_fmt!(
                    self.quiet,
                    "I-12",
                    "there is already a group of {}s: extend it (groups_per_rank = one)",
                    rank_name(r)
                );
            }
        }
        // Pending wilds are used first, the rest comes from the hand.
        let from_pending = pending_part(self.turn.pending, cards);
        if !self.turn.pending.is_empty() && from_pending.is_empty() {
            return refuse(
                "D-11.2",
                "place the wild taken out first: the new group must hold it",
            );
        }
        let from_hand = cards.checked_sub(from_pending).unwrap_or(cards);
        if !self.hands[p].contains_all(from_hand) {
            return refuse_fmt!(self.quiet, "D-11.1", "the hand does not hold [{from_hand}]");
        }
        // Checked before anything changes: a refused step changes nothing.
        if self.tables[p].len() >= crate::table::MAX_GROUPS {
            return refuse("D-9", "the table cannot hold more groups");
        }
        // As `hand_remove` card by card: the hand loses them, and the
        // cards known to be in it stay as far as it still holds them.
        let hand = self.hands[p]
            .checked_sub(from_hand)
            .unwrap_or(self.hands[p]);
        self.hands[p] = hand;
        self.known[p] = self.known[p].min(hand);
        let mut flags = FLAG_NEW;
        let idx = self.tables[p].len() as u8;
        if !from_pending.is_empty() {
            flags |= FLAG_RECEIVED;
            for w in from_pending.iter() {
                let origin = self.take_pending(w, None).unwrap_or(FROM_HAND);
                self.log_move(idx, origin, w);
            }
        }
        g.set_flags(flags);
        if self.tables[p].push(g).is_none() {
            return refuse("D-9", "the table cannot hold more groups");
        }
        Ok(())
    }

    fn log_move(&mut self, to: u8, from: u8, wild: Card) {
        let i = self.turn.moves_len as usize;
        if i < MAX_WILD_MOVES {
            self.turn.moves[i] = (to, from, wild);
            self.turn.moves_len += 1;
        }
    }

    fn group_ref(&self, p: usize, i: usize) -> Result<Group, RuleError> {
        self.tables[p].group(i).copied().ok_or_else(|| {
            RuleError::new(
                "D-2.2",
                format!(
                    "player {p} has no group {i} (groups 0..{})",
                    self.tables[p].len()
                ),
            )
        })
    }

    fn extend(&mut self, p: usize, gi: usize, card: Card) -> Result<(), RuleError> {
        let (mut g, pending) = self.extended_group(p, gi, card, self.quiet)?;
        if pending {
            g.set_flags(g.flags() | FLAG_RECEIVED);
            // Putting a wild back where it came from undoes the move; the
            // group is then marked as having received it, so it ends.
            let origin = self.take_pending(card, None).unwrap_or(FROM_HAND);
            self.log_move(gi as u8, origin, card);
        } else {
            self.hand_remove(p, card);
        }
        self.tables[p].groups_mut()[gi] = g;
        Ok(())
    }

    /// The checks of [`GameState::extend`], changing nothing: group `gi`
    /// with `card` added, and whether the card is a pending wild (placed
    /// from there, not from the hand); refusals' messages formatted
    /// unless `quiet`.
    fn extended_group(
        &self,
        p: usize,
        gi: usize,
        card: Card,
        quiet: bool,
    ) -> Result<(Group, bool), RuleError> {
        let Some(&(mut g)) = self.tables[p].group(gi) else {
            return refuse_fmt!(
                quiet,
                "D-2.2",
                "player {p} has no group {gi} (groups 0..{})",
                self.tables[p].len()
            );
        };
        let pending = self.turn.pending.contains(card);
        if !pending && !self.hands[p].contains(card) {
            if card == Card::HEART_ACE && self.tables[p].heart_aces > 0 {
                return refuse("D-12.3", "a ♥A laid separately never joins a group of aces");
            }
            return refuse_fmt!(quiet, "D-11.1", "the hand does not hold {card}");
        }
        if card.is_black_three() || card.is_red_three() {
            return refuse("D-9.3", "threes are never melded");
        }
        if !g.accepts_kind(card) {
            let rule = if g.is_wild_only() { "I-28" } else { "D-9.1" };
            return refuse_fmt!(quiet, rule, "{card} does not belong in group {gi} [{g}]");
        }
        let was_black = g.is_black_canasta();
        g.add(card);
        if was_black {
            return refuse(
                "D-11.4",
                "a black canasta never exceeds 7 cards: add a natural only while taking a wild out (swap)",
            );
        }
        if !g.is_legal() {
            let rule = if g.is_wild_only() { "D-9.2" } else { "D-9.1" };
            return refuse_fmt!(
                quiet,
                rule,
                "adding {card} to [{}] breaks the group limits (3–8 cards, wilds fewer than naturals, none in 8, wild groups 3–7)",
                self.tables[p].groups()[gi]
            );
        }
        Ok((g, pending))
    }

    fn check_wild_may_leave(&self, g: &Group, gi: usize) -> Result<(), RuleError> {
        if g.flags() & FLAG_RECEIVED != 0 {
            return refuse_fmt!(self.quiet, "D-11.2", "group {gi} received a wild this turn; it gives none away in the same turn (each wild moves once a turn)");
        }
        if g.is_wild_canasta() && self.rules.wild_canasta == WildCanasta::Locked {
            return refuse(
                "I-22",
                "no wild leaves a wild canasta (wild_canasta = locked)",
            );
        }
        Ok(())
    }

    fn take_wild(&mut self, p: usize, gi: usize, wild: Card) -> Result<(), RuleError> {
        let mut g = self.group_ref(p, gi)?;
        if !wild.is_wild() || g.count(wild) == 0 {
            return refuse_fmt!(self.quiet, "D-11.2", "group {gi} [{g}] holds no {wild}");
        }
        self.check_wild_may_leave(&g, gi)?;
        if g.is_black_canasta() {
            return refuse(
                "I-13",
                "a wild leaves a black canasta only against a natural that keeps it a canasta (swap)",
            );
        }
        if g.is_wild_only() && !g.is_canasta() && g.wilds() == 3 {
            // D-11.3: a group of wilds only that is not a canasta is broken
            // up; all its wilds must go into other groups.
            let origin = if g.is_new() { FROM_HAND } else { DISSOLVED };
            self.tables[p].remove(gi);
            self.reindex_moves(gi, origin);
            for w in g.cards().iter() {
                self.push_pending(DISSOLVED, origin, w);
            }
            return Ok(());
        }
        let was_canasta = g.is_canasta();
        g.remove(wild);
        if was_canasta && !g.is_canasta() && !g.is_wild_only() {
            return refuse("I-13", "a canasta never drops below 7 cards");
        }
        if !g.is_legal() {
            return refuse_fmt!(
                self.quiet,
                "D-11.2",
                "taking {wild} out would leave group {gi} illegal"
            );
        }
        let ret = if g.is_new() { FROM_HAND } else { gi as u8 };
        self.tables[p].groups_mut()[gi] = g;
        self.push_pending(gi as u8, ret, wild);
        Ok(())
    }

    /// A wild waits to be placed: `src` is the group it left (it may not go
    /// back there), `ret` where a takeback of its new group returns it (I-25:
    /// an older group; a wild of a group laid this turn came from the hand).
    fn push_pending(&mut self, src: u8, ret: u8, wild: Card) {
        let i = self.turn.pend_len as usize;
        if i < MAX_WILD_MOVES {
            self.turn.pend[i] = (src, ret, wild);
            self.turn.pend_len += 1;
            self.turn.pending.insert(wild);
        }
    }

    /// Takes a pending `wild` (not from group `not_from`); returns its origin.
    fn take_pending(&mut self, wild: Card, not_from: Option<u8>) -> Option<u8> {
        let n = self.turn.pend_len as usize;
        let i = self.turn.pend[..n]
            .iter()
            .position(|&(o, _, w)| w == wild && Some(o) != not_from)?;
        let origin = self.turn.pend[i].1;
        self.turn.pend.copy_within(i + 1..n, i);
        self.turn.pend_len -= 1;
        self.turn.pending.remove(wild);
        Some(origin)
    }

    /// After group `gi` left the table: later indices shift down; wilds it
    /// gave now count as coming from `origin`.
    fn reindex_moves(&mut self, gi: usize, origin: u8) {
        self.turn.reindex(gi, origin);
    }

    fn swap(&mut self, p: usize, gi: usize, natural: Card, wild: Card) -> Result<(), RuleError> {
        let mut g = self.group_ref(p, gi)?;
        if !g.is_black_canasta() {
            return refuse_fmt!(
                self.quiet,
                "I-13",
                "group {gi} is not a black canasta: extend it or take the wild out"
            );
        }
        if self.rules.black_canasta_wilds == BlackCanastaWilds::ConvertOnly {
            return refuse(
                "I-13",
                "under black_canasta_wilds = convert_only all wilds leave at once (convert)",
            );
        }
        if !natural.is_natural() || natural.rank() != g.rank() {
            return refuse_fmt!(
                self.quiet,
                "I-13",
                "{natural} is not a natural of the canasta's rank"
            );
        }
        if !self.hands[p].contains(natural) {
            return refuse_fmt!(self.quiet, "D-11.1", "the hand does not hold {natural}");
        }
        if !wild.is_wild() || g.count(wild) == 0 {
            return refuse_fmt!(self.quiet, "D-11.2", "group {gi} holds no {wild}");
        }
        self.check_wild_may_leave(&g, gi)?;
        g.add(natural);
        g.remove(wild);
        if !g.is_legal() || !g.is_canasta() {
            return refuse("I-13", "the swap must leave a canasta");
        }
        self.hand_remove(p, natural);
        let ret = if g.is_new() { FROM_HAND } else { gi as u8 };
        self.tables[p].groups_mut()[gi] = g;
        self.push_pending(gi as u8, ret, wild);
        Ok(())
    }

    fn convert(&mut self, p: usize, gi: usize, naturals: CardSet) -> Result<(), RuleError> {
        let mut g = self.group_ref(p, gi)?;
        if !g.is_black_canasta() {
            return refuse_fmt!(self.quiet, "I-13", "group {gi} is not a black canasta");
        }
        if self.rules.black_canasta_wilds != BlackCanastaWilds::ConvertOnly {
            return refuse(
                "I-13",
                "convert is the convert_only form; under swap use swap",
            );
        }
        let Some(r) = g.rank() else {
            return refuse("I-13", "not a natural canasta");
        };
        if naturals.of_rank(r) != naturals || naturals.is_empty() {
            return refuse_fmt!(
                self.quiet,
                "I-13",
                "only naturals of the canasta's rank, not [{naturals}]"
            );
        }
        if !self.hands[p].contains_all(naturals) {
            return refuse_fmt!(self.quiet, "D-11.1", "the hand does not hold [{naturals}]");
        }
        self.check_wild_may_leave(&g, gi)?;
        let wilds = g.cards().wilds();
        for c in naturals.iter() {
            g.add(c);
        }
        for w in wilds.iter() {
            g.remove(w);
        }
        if !(g.is_legal() && g.is_canasta() && g.wilds() == 0) {
            return refuse(
                "I-13",
                "converting must leave a red (7) or gold (8) canasta",
            );
        }
        for c in naturals.iter() {
            self.hand_remove(p, c);
        }
        let ret = if g.is_new() { FROM_HAND } else { gi as u8 };
        self.tables[p].groups_mut()[gi] = g;
        for w in wilds.iter() {
            self.push_pending(gi as u8, ret, w);
        }
        Ok(())
    }

    fn take_back(&mut self, p: usize, gi: usize) -> Result<(), RuleError> {
        take_back_in(
            &mut self.tables[p],
            &mut self.hands[p],
            &mut self.turn,
            p,
            gi,
            self.quiet,
        )
    }

    fn lay_heart_ace(&mut self, p: usize) -> Result<(), RuleError> {
        if !self.rules.heart_aces() {
            return refuse(
                "D-9.4",
                "heart aces are laid separately only in decorated-2003-02",
            );
        }
        if !self.hands[p].contains(Card::HEART_ACE) {
            if self.tables[p]
                .groups()
                .iter()
                .any(|g| g.count(Card::HEART_ACE) > 0)
            {
                return refuse(
                    "D-12.3",
                    "a ♥A in a group of aces never leaves it to lie separately",
                );
            }
            return refuse("D-9.4", "the hand holds no ♥A");
        }
        if let Some(pk) = self.turn.pickup {
            if !pk.rest_taken
                && pk.top == Card::HEART_ACE
                && !self.top_laid()
                && self.hands[p].count(Card::HEART_ACE) < 2
            {
                return refuse(
                    "I-8",
                    "a ♥A taken from the pile must go into a group, not be laid separately",
                );
            }
        }
        self.hand_remove(p, Card::HEART_ACE);
        self.tables[p].heart_aces += 1;
        self.tables[p].heart_aces_new += 1;
        Ok(())
    }

    fn take_rest(&mut self, p: usize) -> Result<(), RuleError> {
        let Some(mut pk) = self.turn.pickup else {
            return refuse("D-6.2", "no pile was taken this turn");
        };
        if pk.rest_taken {
            return refuse("D-6.2", "the rest of the pile has already been taken");
        }
        if !self.top_laid() {
            return refuse_fmt!(
                self.quiet,
                "I-8",
                "first lay the top card {} in a group (D-6.2 step 2)",
                pk.top
            );
        }
        for i in 0..self.pile_len as usize {
            let c = self.pile[i];
            self.hands[p].insert(c);
            self.known[p].insert(c);
        }
        self.pile_len = 0;
        pk.rest_taken = true;
        self.turn.pickup = Some(pk);
        if !self.tables[p].opened {
            if self.tables[p].opening_value() >= self.opening_minimum(p) {
                self.tables[p].opened = true;
                self.stats[p].opened_turn.get_or_insert(self.turns as u16);
            } else {
                self.turn.must_go_out = true;
            }
        }
        // I-25: what was laid before the rest was taken is committed.
        self.tables[p].end_turn();
        self.turn.moves_len = 0;
        Ok(())
    }

    fn discard(&mut self, c: Card) -> Result<(), RuleError> {
        self.check_discard(c)?;
        self.commit_discard(c);
        Ok(())
    }

    /// The checks of a discard, changing nothing: listing and the
    /// completion search test discards without copying the state.
    fn check_discard(&self, c: Card) -> Result<(), RuleError> {
        self.discard_check(c, self.quiet)
    }

    /// [`GameState::check_discard`], its refusals' messages formatted
    /// unless `quiet`.
    pub(crate) fn discard_check(&self, c: Card, quiet: bool) -> Result<(), RuleError> {
        let p = self.current as usize;
        if self.phase == Phase::Meld {
            if !self.turn.pending.is_empty() {
                return refuse("D-11.2", "place the wild taken out before discarding");
            }
            if self.before_rest() {
                return refuse(
                    "D-6.2",
                    "after taking the pile's top card, lay it and take the rest of the pile before discarding",
                );
            }
        }
        let hand = self.hands[p];
        if !hand.contains(c) {
            if self.tables[p].groups().iter().any(|g| g.count(c) > 0) {
                return refuse_fmt!(
                    quiet,
                    "D-12.2",
                    "{c} is melded: melded cards are never discarded"
                );
            }
            return refuse_fmt!(quiet, "D-5.1", "the hand does not hold {c}");
        }
        if self.turn.free_card == Some(c)
            && self.rules.free_pickup_return == Permit::Forbid
            && hand.count(c) < 2
        {
            return refuse_fmt!(
                quiet,
                "I-21",
                "the card taken by the free pickup ({c}) cannot be discarded in the same turn"
            );
        }
        let going_out = hand.len() == 1;
        let table = &self.tables[p];
        if going_out && !table.has_canasta() {
            return refuse(
                "D-13.2",
                "a player without a canasta must keep at least one card after discarding",
            );
        }
        if !going_out && self.turn.must_go_out {
            return refuse(
                "I-26",
                "the opening made before taking the rest of the pile fell short: this turn must go out",
            );
        }
        let laid = table.has_new();
        if !table.opened && laid && !going_out {
            let v = table.opening_value();
            let min = self.opening_minimum(p);
            if v < min {
                return refuse_fmt!(quiet, "D-8.2", "the opening meld is worth {v}, below the minimum of {min}: lay more or take it back (D-11.5)");
            }
        }
        Ok(())
    }

    /// The first kind of the mover's hand that [`GameState::check_discard`]
    /// accepts. Of its checks only the free-pickup card's (I-21) depends on
    /// the card (every kind is in the hand), so the first kind that rule
    /// allows decides for all.
    fn first_discard(&self) -> Option<Card> {
        let hand = self.hands[self.current as usize];
        let c = hand.kinds().find(|&c| {
            !(self.turn.free_card == Some(c)
                && self.rules.free_pickup_return == Permit::Forbid
                && hand.count(c) < 2)
        })?;
        let ok = self.check_discard(c).is_ok();
        debug_assert_eq!(
            Some(c).filter(|_| ok),
            hand.kinds().find(|&d| self.check_discard(d).is_ok())
        );
        ok.then_some(c)
    }

    /// A discard that [`GameState::check_discard`] accepted.
    fn commit_discard(&mut self, c: Card) {
        let p = self.current as usize;
        let going_out = self.hands[p].len() == 1;
        let laid = self.tables[p].has_new();
        self.hand_remove(p, c);
        if self.pile_top_fresh && self.pile_top() == Some(c) && !c.is_joker() {
            self.tables[p].twins += 1;
        }
        self.pile[self.pile_len as usize] = c;
        self.pile_len += 1;
        self.pile_top_fresh = true;
        let tb = &mut self.tables[p];
        if !tb.opened && (laid || !tb.is_empty()) {
            tb.opened = true;
            self.stats[p].opened_turn.get_or_insert(self.turns as u16);
        }
        if self.stats[p].first_canasta_turn.is_none() && self.tables[p].has_canasta() {
            self.stats[p].first_canasta_turn = Some(self.turns as u16);
        }
        self.tables[p].end_turn();
        self.turns += 1;
        if going_out {
            let from_hand = !self.turn.opened_at_start;
            let cleared = from_hand && self.turn.pickup.is_some_and(|pk| pk.pile_size >= 10);
            self.finish(HandEnd::WentOut {
                player: p as u8,
                from_hand,
                cleared_table: cleared,
            });
            return;
        }
        if self.rules.deadlock == Deadlock::End && self.test_dead_lock(p) {
            self.finish(HandEnd::Deadlocked);
            return;
        }
        if self.turns >= self.rules.turn_cap {
            self.finish(HandEnd::Stalled);
            return;
        }
        let next = (p + 1) % self.players();
        self.begin_turn(next, false);
    }

    /// I-32, after a discard of player `p` that did not go out: tests him
    /// if he holds one card (once found, a dead lock lasts: his table
    /// cannot change and the cards outside the tables only shrink), and
    /// says whether every player is now dead-locked.
    fn test_dead_lock(&mut self, p: usize) -> bool {
        let bit = 1u8 << p;
        if self.hands[p].len() != 1 {
            self.dead &= !bit;
            return false;
        }
        if self.dead & bit == 0 && self.dead_locked(p) {
            self.dead |= bit;
        }
        let all = ((1u16 << self.players()) - 1) as u8;
        self.dead == all
    }

    /// Whether player `p` is dead-locked now (I-32): he holds one card, and
    /// neither a wild moved on his table nor any card outside the tables
    /// could ever let him go out ([`crate::dead_locked`]). Exact; reads
    /// public cards only (the tables, and wilds taken out of a group and
    /// not yet placed, which belong to the mover's table), never a hand
    /// but for its size.
    pub fn dead_locked(&self, p: usize) -> bool {
        self.hands[p].len() == 1 && {
            let out = crate::deadlock::outside(&self.tables[..self.players()]);
            let out = out.checked_sub(self.turn.pending).unwrap_or(out);
            crate::deadlock::dead_locked(&self.tables[p], out, &self.rules)
        }
    }

    /// Whether player `p` was found dead-locked after his last discard
    /// (I-32; tested under `deadlock = end` only). The hand ends
    /// `deadlocked` once every player is.
    pub fn found_dead_locked(&self, p: usize) -> bool {
        self.dead & (1 << p) != 0
    }

    fn finish(&mut self, end: HandEnd) {
        self.end = Some(end);
        self.phase = Phase::Over;
        self.turn.free_offer = false;
    }

    // ----- I-9: can the turn be completed? ---------------------------------

    /// Whether the mover can still complete the turn from here (I-9).
    pub(crate) fn can_finish(&self) -> bool {
        if self.phase != Phase::Meld {
            return true;
        }
        let p = self.current as usize;
        if !self.turn.pending.is_empty() {
            return self.pending_placeable(p)
                && (!self.before_rest() || self.pickup_completable(p));
        }
        if self.before_rest() {
            return self.pickup_completable(p);
        }
        self.meld_completable(p)
    }

    /// A discard now, or after taking back what was laid this turn, or a way out.
    fn meld_completable(&self, p: usize) -> bool {
        let hand = self.hands[p];
        let table = &self.tables[p];
        if !self.turn.must_go_out {
            let opening_ok = table.opened
                || !table.has_new()
                || table.opening_value() >= self.opening_minimum(p);
            let free_ok = |h: CardSet| {
                h.kinds().any(|c| {
                    !(self.turn.free_card == Some(c)
                        && self.rules.free_pickup_return == Permit::Forbid
                        && h.count(c) < 2)
                })
            };
            if hand.len() >= 2 && opening_ok && free_ok(hand) {
                return true;
            }
            // Take back what was laid this turn and can be taken back (D-11.5).
            // On copies of the mover's table, hand and turn only, made
            // when something was laid this turn.
            if !table.has_new() {
                return self.meld_out(p, hand, table);
            }
            let mut bt = *table;
            let mut bh = hand;
            let mut bturn = self.turn;
            let mut any = false;
            for gi in (0..table.len()).rev() {
                if table.groups()[gi].is_new()
                    && take_back_in(&mut bt, &mut bh, &mut bturn, p, gi, true).is_ok()
                {
                    any = true;
                }
            }
            while bt.heart_aces_new > 0 {
                any = true;
                bt.heart_aces_new -= 1;
                bt.heart_aces -= 1;
                bh.insert(Card::HEART_ACE);
            }
            let bt = &bt;
            let b_open_ok =
                bt.opened || !bt.has_new() || bt.opening_value() >= self.opening_minimum(p);
            if any && bh.len() >= 2 && b_open_ok && free_ok(bh) {
                return true;
            }
        }
        self.meld_out(p, hand, table)
    }

    /// The last resort of [`GameState::meld_completable`]: going out with
    /// `hand` onto `table`, the mover's.
    fn meld_out(&self, p: usize, hand: CardSet, table: &Table) -> bool {
        if hand.len() == 1 && table.has_canasta() {
            let c = hand.iter().next();
            if c.is_some_and(|c| {
                !(self.turn.free_card == Some(c) && self.rules.free_pickup_return == Permit::Forbid)
            }) {
                return true;
            }
        }
        solver::can_go_out(self, p, hand, false, None, CardSet::EMPTY)
    }

    /// During a penalized pickup before the rest is taken: can the top card be
    /// laid, the rest taken and the turn completed?
    fn pickup_completable(&self, p: usize) -> bool {
        self.pickup_verdict(p) != Verdict::No
    }

    /// [`Verdict::Sure`] only where a plain way through is certain: the top
    /// card laid with cards of the hand (or into its group), the rest taken,
    /// two cards kept to discard from; for an unopened player, an opening of
    /// the minimum that the solver can lay from the hand.
    fn pickup_verdict(&self, p: usize) -> Verdict {
        let Some(pk) = self.turn.pickup else {
            return Verdict::Sure;
        };
        let rest = self.pile_len as u32;
        let hand = self.hands[p];
        let table = &self.tables[p];
        // Built only where a verdict needs it.
        let rest_set =
            || CardSet::try_from_cards(self.pile().iter().copied()).unwrap_or(CardSet::EMPTY);
        let Some(r) = pk.top.rank() else {
            return Verdict::No;
        };
        let laid = self.top_laid();
        if table.opened {
            // The top card goes into its group or a new one, before the rest
            // is taken, with cards of the hand (or a wild moved from a group).
            let nat = hand.rank_count(r).saturating_sub(1);
            let pend = self.turn.pending.len();
            let wild = hand.wild_count();
            let existing = table.groups().iter().any(|g| {
                g.rank() == Some(r) && {
                    let mut t = *g;
                    t.add(pk.top);
                    t.is_legal() && !g.is_black_canasta()
                }
            });
            let swap_ok = self.rules.black_canasta_wilds == BlackCanastaWilds::Swap
                && table.groups().iter().any(|g| {
                    g.rank() == Some(r) && g.is_black_canasta() && g.flags() & FLAG_RECEIVED == 0
                });
            let new_ok = self.rules.groups_per_rank == GroupsPerRank::Many
                || table.group_of_rank(r).is_none();
            let borrow = table.groups().iter().any(|g| {
                g.flags() & FLAG_RECEIVED == 0
                    && !g.is_black_canasta()
                    && !(g.is_wild_canasta() && self.rules.wild_canasta == WildCanasta::Locked)
                    && g.wilds() > 0
                    && (g.is_wild_only() || legal_natural_counts_after_loss(g))
            });
            let after = |used: u32| (hand.len() + rest).saturating_sub(used);
            let sure = if pend > 0 {
                Verdict::Maybe
            } else {
                Verdict::Sure
            };
            if laid {
                if after(0) >= 2 {
                    return sure;
                }
            } else {
                if existing && after(1) >= 2 {
                    return sure;
                }
                if new_ok && (nat >= 2 || (nat >= 1 && wild >= 1)) && after(3) >= 2 {
                    return sure;
                }
                if new_ok && nat >= 1 && (borrow || pend > 0) && after(2) >= 2 {
                    return Verdict::Maybe;
                }
                if !(existing
                    || swap_ok
                    || (new_ok && (nat >= 2 || (nat >= 1 && (wild + pend >= 1 || borrow)))))
                {
                    return Verdict::No;
                }
            }
            let all = hand.checked_add(rest_set()).unwrap_or(hand);
            let all = all.checked_add(self.turn.pending).unwrap_or(all);
            let must = if laid { None } else { Some(pk.top) };
            return Verdict::maybe(solver::can_go_out(
                self,
                p,
                all,
                false,
                must,
                self.turn.pending,
            ));
        }
        let pend = self.turn.pending.len();
        // Not opened: everything on the table was laid this turn (not yet
        // committed). Can an opening of the minimum be laid before the rest,
        // with the top card in it, keeping two cards after the rest?
        let mut pool = hand;
        for g in table.groups() {
            pool = pool.checked_add(g.cards()).unwrap_or(pool);
        }
        let nat = pool.rank_count(r);
        if !(nat >= 3 || (nat >= 2 && pool.wild_count() >= 1)) {
            return Verdict::No;
        }
        let max_used = (pool.len() + rest).saturating_sub(2);
        if solver::max_opening(pool, r, max_used) >= self.opening_minimum(p) {
            // Sure when nothing is laid yet (at the pickup itself); with
            // groups already laid, they may have to be taken back first.
            return if table.is_empty() && pend == 0 {
                Verdict::Sure
            } else {
                Verdict::Maybe
            };
        }
        // I-26: short of the minimum, the turn must go out.
        let all_pool = pool.checked_add(rest_set()).unwrap_or(pool);
        Verdict::maybe(solver::can_go_out(
            self,
            p,
            all_pool,
            true,
            Some(pk.top),
            CardSet::EMPTY,
        ))
    }

    /// The pending wilds can go somewhere now (an existing group or a new one).
    fn pending_placeable(&self, p: usize) -> bool {
        let hand = self.hands[p];
        let table = &self.tables[p];
        let k = self.turn.pending.len();
        // Homes among the groups (not the one a wild left), new groups of
        // hand naturals, or a new group of wilds gathered from elsewhere.
        let mut capacity = 0;
        let mut capacity_ext = 0;
        let mut used_ext = 0;
        for g in table.groups() {
            let (c0, c1, h) = if g.is_wild_only() {
                let c = 7u32.saturating_sub(g.wilds());
                (c, c, 0)
            } else if g.is_black_canasta() || g.len() >= 7 {
                (0, 0, 0)
            } else {
                let h = g
                    .rank()
                    .map_or(0, |r| hand.rank_count(r))
                    .min(8 - g.naturals());
                (
                    max_wilds(g.naturals()).saturating_sub(g.wilds()),
                    max_wilds(g.naturals() + h).saturating_sub(g.wilds()),
                    h,
                )
            };
            capacity += c0;
            capacity_ext += c1;
            if c1 > c0 {
                used_ext += h;
            }
        }
        let mut new_cap = 0;
        let mut new_cards = 0;
        for r in Rank::NATURALS {
            let n = hand.rank_count(r);
            let free = self.rules.groups_per_rank == GroupsPerRank::Many
                || table.group_of_rank(r).is_none();
            if n >= 2 && free {
                new_cap += max_wilds(n);
                new_cards = new_cards.max(2);
            }
        }
        let mut donatable = 0;
        for g in table.groups() {
            if g.flags() & FLAG_RECEIVED != 0 {
                continue;
            }
            donatable += if g.is_wild_only() {
                if g.is_canasta() {
                    if self.rules.wild_canasta == WildCanasta::Open {
                        g.wilds() - 3
                    } else {
                        0
                    }
                } else {
                    g.wilds()
                }
            } else if g.is_black_canasta() {
                g.rank().map_or(0, |r| hand.rank_count(r).min(g.wilds()))
            } else if g.is_canasta() {
                0
            } else {
                g.wilds().saturating_sub(
                    3u32.saturating_sub(g.naturals())
                        .max(if g.naturals() <= 2 { 1 } else { 0 }),
                )
            };
        }
        let hand_after_ok = |used: u32| {
            let h = hand.len().saturating_sub(used);
            h >= 2
                && !self.turn.must_go_out
                && (table.opened
                    || table.opening_value() + 20 * k as i32 >= self.opening_minimum(p)
                    || !table.has_new())
        };
        if capacity >= k && hand_after_ok(0) {
            return true;
        }
        if capacity + new_cap >= k && hand_after_ok(new_cards) {
            return true;
        }
        if capacity_ext + new_cap >= k && hand_after_ok(new_cards + used_ext) {
            return true;
        }
        if k + hand.wild_count() + donatable >= 3 && hand_after_ok(hand.wild_count().min(3)) {
            return true;
        }
        // Otherwise the pending wilds are part of a way out.
        let all = hand.checked_add(self.turn.pending).unwrap_or(hand);
        solver::can_go_out(self, p, all, false, None, self.turn.pending)
    }
}

/// D-11.5, I-25: takes group `gi` of a table laid this turn back into the
/// hand, wilds moved in returning where they came from. On a refusal
/// nothing changes. Works on the mover's parts, so that the completion test
/// can try take-backs on copies of them alone.
fn take_back_in(
    table_now: &mut Table,
    hand: &mut CardSet,
    turn: &mut Turn,
    p: usize,
    gi: usize,
    quiet: bool,
) -> Result<(), RuleError> {
    let g = table_now.group(gi).copied().ok_or_else(|| {
        RuleError::new(
            "D-2.2",
            format!(
                "player {p} has no group {gi} (groups 0..{})",
                table_now.len()
            ),
        )
    })?;
    if !g.is_new() {
        return refuse(
            "D-12.2",
            "only a group laid this turn may be taken back (D-11.5); melded cards never return to the hand",
        );
    }
    let mut cards = g.cards();
    // I-25: wilds moved in from other groups return where they came from.
    let moves = turn.moves;
    let n = turn.moves_len as usize;
    let mut keep = [(0u8, 0u8, Card::JOKER); MAX_WILD_MOVES];
    let mut nk = 0;
    let mut returns = [(0u8, Card::JOKER); MAX_WILD_MOVES];
    let mut nr = 0;
    for &(to, from, w) in &moves[..n] {
        if to as usize == gi && cards.contains(w) {
            cards.remove(w);
            returns[nr] = (from, w);
            nr += 1;
        } else {
            keep[nk] = (to, from, w);
            nk += 1;
        }
    }
    // Worked on a copy of the table: nothing changes unless
    // every wild can return.
    let mut table = *table_now;
    for &(from, w) in &returns[..nr] {
        if from == FROM_HAND {
            cards.insert(w);
            continue;
        }
        let Some(og) = table.groups_mut().get_mut(from as usize) else {
            return refuse_fmt!(
                quiet,
                "I-25",
                "the wild {w} came from a group of wilds that was broken up; it cannot return"
            );
        };
        let mut t = *og;
        t.add(w);
        if !t.is_legal() {
            return refuse_fmt!(
                quiet,
                "I-25",
                "the wild {w} cannot return to group {from}, where it came from"
            );
        }
        *og = t;
    }
    for c in cards.iter() {
        hand.insert(c);
    }
    table.remove(gi);
    *table_now = table;
    turn.moves[..nk].copy_from_slice(&keep[..nk]);
    turn.moves_len = nk as u8;
    turn.reindex(gi, FROM_HAND);
    Ok(())
}

/// Whether `g` stays within the group limits with `card` added (D-9.1,
/// D-9.2): the last check of [`GameState::extend`] for a card it accepts.
fn extend_fits(g: &Group, card: Card) -> bool {
    let mut t = *g;
    t.add(card);
    t.is_legal()
}

/// Whether `wild` may leave `g` as far as the group itself goes (not a
/// black canasta, and free to give): broken up if three wilds only
/// (D-11.3), else a canasta stays one (I-13) and the group legal (D-11.2);
/// the last checks of [`GameState::take_wild`].
fn wild_may_leave(g: &Group, wild: Card) -> bool {
    if g.is_wild_only() && !g.is_canasta() && g.wilds() == 3 {
        return true;
    }
    let mut t = *g;
    t.remove(wild);
    !(g.is_canasta() && !t.is_canasta() && !t.is_wild_only()) && t.is_legal()
}

/// Whether a natural group keeps legal after losing one wild.
fn legal_natural_counts_after_loss(g: &Group) -> bool {
    !g.is_wild_only()
        && g.wilds() > 0
        && !g.is_canasta()
        && crate::group::legal_natural_counts(g.naturals(), g.wilds() - 1)
}

/// Outcome of a quick completion test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// A way through is certain.
    Sure,
    /// Perhaps: an exact search decides.
    Maybe,
    /// No way through.
    No,
}

impl Verdict {
    fn maybe(b: bool) -> Verdict {
        if b {
            Verdict::Maybe
        } else {
            Verdict::No
        }
    }
}

thread_local! {
    /// This thread's [`RecentSearches`]: a state's search answer never
    /// changes, so which thread or how many there are does not matter.
    static RECENT_SEARCHES: std::cell::RefCell<RecentSearches> =
        const { std::cell::RefCell::new(RecentSearches::EMPTY) };
}

/// The answers of the last few completion searches, each with the whole
/// state it was asked about (compared in full, so a hit is the answer the
/// search would give again) and the budget given and left.
struct RecentSearches {
    entries: [Option<RecentSearch>; RECENT_SEARCHES_LEN],
    next: usize,
}

const RECENT_SEARCHES_LEN: usize = 16;

struct RecentSearch {
    key: u64,
    budget: u32,
    found: bool,
    left: u32,
    state: GameState,
}

impl RecentSearches {
    const EMPTY: RecentSearches = RecentSearches {
        entries: [const { None }; RECENT_SEARCHES_LEN],
        next: 0,
    };

    /// The answer and the budget left for `state` searched with `budget`.
    fn find(&self, key: u64, state: &GameState, budget: u32) -> Option<(bool, u32)> {
        self.entries.iter().flatten().find_map(|e| {
            (e.key == key && e.budget == budget && e.state == *state).then_some((e.found, e.left))
        })
    }

    /// Records an answer in place of the oldest.
    fn insert(&mut self, key: u64, state: &GameState, budget: u32, found: bool, left: u32) {
        let e = RecentSearch {
            key,
            budget,
            found,
            left,
            state: state.clone(),
        };
        self.entries[self.next] = Some(e);
        self.next = (self.next + 1) % RECENT_SEARCHES_LEN;
    }
}

/// The longest way out (in meld steps before the discard) that the
/// completion check looks for by iterative deepening once its depth-first
/// search has run out of budget ([`GameState::completion_verdict`]).
const SHORT_WAY_STEPS: u32 = 4;
/// The node budget of that iterative deepening, all depths together.
const SHORT_WAY_BUDGET: u32 = 300;

/// The completion search's visited set (keyed by a state hash, already
/// mixed) and pools of buffers reused from node to node.
#[derive(Default)]
struct Search {
    seen: Seen,
    // Boxed so that each level of the recursion holds a pointer, not a
    // 2.5 KB state, in its stack frame (the search goes 150 levels deep).
    #[allow(clippy::vec_box)]
    states: Vec<Box<GameState>>,
    /// Copies left by an earlier search: they differ from this search's
    /// states in more than the mover's part, so they are copied in full.
    #[allow(clippy::vec_box)]
    stale: Vec<Box<GameState>>,
    cands: Vec<Vec<Action>>,
    /// Set when a node was left unexplored for the depth limit.
    cut: bool,
    /// Every leaf is marked visited, as before the leaf shortcut of
    /// [`GameState::search_rec`] (tests compare the two).
    mark_leaves: bool,
    /// Nodes that cannot reach a discard within their steps are left out
    /// ([`GameState::steps_to_discard`]): the finisher's search only, not
    /// the budgeted checks of the listing, whose answers would change.
    bound: bool,
}

thread_local! {
    /// The thread's searches hand their buffers on to the next one, so
    /// that a search allocates only where the earlier ones did not reach.
    static SEARCH_POOL: std::cell::RefCell<Option<Search>> = const { std::cell::RefCell::new(None) };
}

impl Search {
    /// The pooled search, emptied, or a new one; see [`Search::give_back`].
    fn take(budget: u32) -> Search {
        match SEARCH_POOL.with(|s| s.borrow_mut().take()) {
            Some(mut s) => {
                s.seen.clear();
                s.bound = false;
                s.stale.append(&mut s.states);
                s
            }
            None => Search::with_budget(budget),
        }
    }

    /// Leaves the buffers to the thread's next search.
    fn give_back(self) {
        SEARCH_POOL.with(|s| *s.borrow_mut() = Some(self));
    }

    /// Room in the visited set for every state the budget allows (capped),
    /// so that it does not grow step by step.
    fn with_budget(budget: u32) -> Search {
        Search {
            seen: Seen::with_room(budget.min(4096) as usize),
            ..Search::default()
        }
    }
}

/// The completion search's visited set: state hash → the most steps a
/// search from that state was allowed. Open addressing with linear
/// probing over keys that are hashes already; an entry belongs to the set
/// only if it carries the current generation, so emptying the set between
/// searches is one increment, not a pass over the whole table (which grows
/// to the largest search the thread has made).
struct Seen {
    /// (key, generation, depth); generation 0 is never current.
    slots: Vec<(u64, u32, u32)>,
    generation: u32,
    len: usize,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen::with_room(0)
    }
}

impl Seen {
    /// An empty set with room for `n` entries before it grows.
    fn with_room(n: usize) -> Seen {
        Seen {
            slots: vec![(0, 0, 0); (2 * n).next_power_of_two().max(16)],
            generation: 1,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: entries of the old generation 1, 2, … must not
            // come back to life.
            self.slots.fill((0, 0, 0));
            self.generation = 1;
        }
    }

    /// The depth stored for `key` in this generation.
    #[cfg(test)]
    fn get(&self, key: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let (k, g, d) = self.slots[i];
            if g != self.generation {
                return None;
            }
            if k == key {
                return Some(d);
            }
            i = (i + 1) & mask;
        }
    }

    /// A search reaches the state `key` with `depth` steps allowed:
    /// `false` if it was searched already with at least as many (nothing
    /// changes), else records `depth` for it and answers `true`.
    fn visit(&mut self, key: u64, depth: u32) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow_to(2 * self.slots.len());
        }
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.1 != self.generation {
                *slot = (key, self.generation, depth);
                self.len += 1;
                return true;
            }
            if slot.0 == key {
                if slot.2 >= depth {
                    return false;
                }
                slot.2 = depth;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    /// Rehashes the live entries into `cap` slots (a power of two).
    fn grow_to(&mut self, cap: usize) {
        let old = std::mem::replace(&mut self.slots, vec![(0, 0, 0); cap]);
        let mask = cap - 1;
        for (k, g, d) in old {
            if g != self.generation {
                continue;
            }
            let mut i = k as usize & mask;
            while self.slots[i].1 == self.generation {
                i = (i + 1) & mask;
            }
            self.slots[i] = (k, g, d);
        }
    }
}

/// A word-at-a-time hash for the completion search's visited set: a
/// multiply-xorshift step per word and a splitmix64 finish.
#[derive(Default)]
struct WordHash(u64);

impl WordHash {
    fn word(&mut self, w: u64) {
        let x = (self.0 ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 29);
    }

    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Part of `cards` that the pending wilds supply (pending wilds are used first).
fn pending_part(pending: CardSet, cards: CardSet) -> CardSet {
    let mut out = CardSet::EMPTY;
    for w in pending.iter() {
        if cards.count(w) > out.count(w) {
            out.insert(w);
        }
    }
    out
}

/// The natural ranks counted 2 or more in `counts` (one nibble a rank,
/// as [`CardSet::rank_counts`]), in rank order: picked from the nibbles
/// with a bit above the lowest, not by testing all eleven.
fn ranks_held_twice(counts: u64) -> impl Iterator<Item = Rank> {
    let high = counts & 0xEEEE_EEEE_EEEE_EEEE;
    let mut ranks = ((high >> 1) | (high >> 2) | (high >> 3)) & NATURAL_NIBBLES;
    std::iter::from_fn(move || {
        if ranks == 0 {
            return None;
        }
        let r = Rank::from_index((ranks.trailing_zeros() / 4) as u8);
        ranks &= ranks - 1;
        Some(r)
    })
}

/// The lowest bit of each natural rank's nibble (4 to A).
const NATURAL_NIBBLES: u64 = 0x0001_1111_1111_1100;

/// Every distinct three-card group that can be laid from `pool` (D-9):
/// three naturals, two naturals and a wild, or three wilds.
/// With `need` non-empty, only the lays holding a kind of `need` (in the
/// same order).
pub(crate) fn lays_of_three(pool: CardSet, need: CardSet, out: &mut Vec<Action>) {
    let wilds = pool.wilds();
    let free = need.is_empty();
    // The wild kinds a pair of naturals may take.
    let pair_wilds = if free {
        wilds
    } else {
        wilds.distinct().of_kinds(need)
    };
    let counts = pool.rank_counts();
    for r in ranks_held_twice(counts) {
        let n = ((counts >> (r as u32 * 4)) & 0xF) as u32;
        let nat = pool.of_rank(r);
        debug_assert_eq!(n, nat.len());
        let mut kinds = [(Card::JOKER, 0u8); 5];
        let k = kinds_of(nat, &mut kinds);
        if n >= 3 && free {
            triples(&kinds[..k], &mut |s| out.push(Action::Lay { cards: s }));
        }
        if !pair_wilds.is_empty() {
            pairs(&kinds[..k], CardSet::EMPTY, &mut |s| {
                for w in pair_wilds.kinds() {
                    let mut t = s;
                    t.insert(w);
                    out.push(Action::Lay { cards: t });
                }
            });
        }
    }
    if wilds.len() >= 3 {
        let mut kinds = [(Card::JOKER, 0u8); 5];
        let k = kinds_of(wilds, &mut kinds);
        triples(&kinds[..k], &mut |s| {
            if free || !s.distinct().of_kinds(need).is_empty() {
                out.push(Action::Lay { cards: s })
            }
        });
    }
}

/// The kinds of `set` (at most 5: one rank's suits, or the four 2s and
/// the joker) with their counts, in kind order; returns how many.
fn kinds_of(set: CardSet, out: &mut [(Card, u8); 5]) -> usize {
    let mut n = 0;
    for c in set.kinds() {
        out[n] = (c, set.count(c) as u8);
        n += 1;
    }
    n
}

/// Every distinct pair of `kinds`, each added to `acc`, in the order of
/// [`sub_multisets`]: a kind twice, then with each later kind.
fn pairs<F: FnMut(CardSet)>(kinds: &[(Card, u8)], acc: CardSet, f: &mut F) {
    for (i, &(a, ca)) in kinds.iter().enumerate() {
        let mut one = acc;
        one.insert(a);
        if ca >= 2 {
            let mut two = one;
            two.insert(a);
            f(two);
        }
        for &(b, _) in &kinds[i + 1..] {
            let mut t = one;
            t.insert(b);
            f(t);
        }
    }
}

/// Every distinct triple of `kinds`, in the order of [`sub_multisets`]:
/// by first kind, as many copies of it as possible first.
fn triples<F: FnMut(CardSet)>(kinds: &[(Card, u8)], f: &mut F) {
    for (i, &(a, ca)) in kinds.iter().enumerate() {
        let rest = &kinds[i + 1..];
        let mut one = CardSet::EMPTY;
        one.insert(a);
        let mut two = one;
        two.insert(a);
        if ca >= 3 {
            let mut three = two;
            three.insert(a);
            f(three);
        }
        if ca >= 2 {
            for &(b, _) in rest {
                let mut t = two;
                t.insert(b);
                f(t);
            }
        }
        pairs(rest, one, f);
    }
}

/// Calls `f` with every distinct sub-multiset of `set` of size `k`: kinds
/// in index order, as many copies of the earlier kinds as possible first.
pub(crate) fn sub_multisets<F: FnMut(CardSet)>(set: CardSet, k: u32, f: &mut F) {
    let mut kinds = [(Card::JOKER, 0u8); 53];
    let mut n = 0;
    for c in set.kinds() {
        kinds[n] = (c, set.count(c) as u8);
        n += 1;
    }
    // Branches that cannot gather `k` cards from what is left emit
    // nothing; they are cut short.
    fn rec<F: FnMut(CardSet)>(kinds: &[(Card, u8)], avail: u32, k: u32, acc: CardSet, f: &mut F) {
        if k == 0 {
            f(acc);
            return;
        }
        if avail < k {
            return;
        }
        let Some((&(c, count), rest)) = kinds.split_first() else {
            return;
        };
        let count = count as u32;
        let max = count.min(k);
        for take in (0..=max).rev() {
            let mut a = acc;
            for _ in 0..take {
                a.insert(c);
            }
            rec(rest, avail - count, k - take, a, f);
        }
    }
    rec(&kinds[..n], set.len(), k, CardSet::EMPTY, f);
}

/// Fisher–Yates with the game's generator.
pub(crate) fn shuffle(cards: &mut [Card], rng: &mut Pcg64Mcg) {
    for i in (1..cards.len()).rev() {
        let j = rng.random_range(0..=i);
        cards.swap(i, j);
    }
}

/// English plural stem of a rank, for messages.
pub(crate) fn rank_name(r: Rank) -> &'static str {
    match r {
        Rank::Two => "two",
        Rank::Three => "three",
        Rank::Four => "four",
        Rank::Five => "five",
        Rank::Six => "six",
        Rank::Seven => "seven",
        Rank::Eight => "eight",
        Rank::Nine => "nine",
        Rank::Ten => "ten",
        Rank::Jack => "jack",
        Rank::Queen => "queen",
        Rank::King => "king",
        Rank::Ace => "ace",
    }
}

/// Plays a hand of `rules` from `seed` for tests: whenever an action
/// `is_meld` accepts is legal, one of them with probability `bias`, else
/// any legal action, drawn from `rng`; `f(state, rng)` sees every position
/// before its choice. Such play leaves tables rich in groups and hands of
/// few cards.
#[cfg(test)]
pub(crate) fn play_meld_biased(
    rules: Rules,
    seed: u64,
    rng: &mut Pcg64Mcg,
    bias: f64,
    is_meld: impl Fn(&Action) -> bool,
    mut f: impl FnMut(&GameState, &mut Pcg64Mcg),
) {
    let mut g = GameState::new(rules, seed);
    let mut legal = Vec::new();
    while !g.is_terminal() {
        f(&g, rng);
        g.legal_actions(&mut legal);
        let melds: Vec<Action> = legal.iter().copied().filter(|a| is_meld(a)).collect();
        let pick = if !melds.is_empty() && rng.random_bool(bias) {
            melds[rng.random_range(0..melds.len())]
        } else {
            legal[rng.random_range(0..legal.len())]
        };
        g.apply(pick).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_variants as rule_variants;

    /// The pair and triple enumerations of the lays agree with the general
    /// sub-multiset enumeration, sets and order.
    #[test]
    fn pairs_and_triples_follow_sub_multisets() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let wild_kinds: Vec<Card> = CardSet::FULL_PACK.wilds().kinds().collect();
        for _ in 0..5000 {
            let mut set = CardSet::EMPTY;
            if next() % 2 == 0 {
                let r = Rank::NATURALS[(next() % 11) as usize];
                for s in Suit::ALL {
                    for _ in 0..next() % 3 {
                        set.insert(Card::new(r, s));
                    }
                }
            } else {
                for _ in 0..next() % 9 {
                    set.insert(wild_kinds[(next() % 5) as usize]);
                }
            }
            let mut kinds = [(Card::JOKER, 0u8); 5];
            let k = kinds_of(set, &mut kinds);
            for size in [2, 3] {
                let mut want = Vec::new();
                sub_multisets(set, size, &mut |s| want.push(s));
                let mut got = Vec::new();
                if size == 2 {
                    pairs(&kinds[..k], CardSet::EMPTY, &mut |s| got.push(s));
                } else {
                    triples(&kinds[..k], &mut |s| got.push(s));
                }
                assert_eq!(got, want, "[{set}] {size}");
            }
        }
    }

    /// `raw_meld_candidates` checks the group limits by the counts
    /// (`Group::fits_one_more`, `Group::may_lose_a_wild`): for every group
    /// (every count of each suit of a rank, with wilds of every kind and
    /// number), they are `extend_fits` for every natural of the rank and
    /// every wild the pack still holds, and `wild_may_leave` for every wild
    /// the group holds.
    #[test]
    fn group_checks_by_counts_are_the_checks_by_cards() {
        let wilds = ["2C", "2D", "2H", "2S", "JK"].map(|w| w.parse::<Card>().unwrap());
        let (mut groups, mut natural_answers, mut leave_answers) = (0, [0; 2], [0; 2]);
        for r in [Rank::Four, Rank::Ace] {
            for nat in 0..=255u32 {
                for wild_mask in 0..1u32 << 7 {
                    let mut s = CardSet::EMPTY;
                    for suit in 0..4u8 {
                        for _ in 0..((nat >> (suit * 2)) & 3).min(2) {
                            s.insert(Card::new(r, Suit::from_index(suit)));
                        }
                    }
                    // The 2s once or twice by suit, up to three jokers.
                    for (i, w) in wilds.iter().chain([&wilds[0], &wilds[4]]).enumerate() {
                        if wild_mask >> i & 1 == 1 {
                            s.insert(*w);
                        }
                    }
                    if wild_mask >> 6 & 1 == 1 {
                        s.insert(Card::JOKER);
                    }
                    for set in [s, s.wilds()] {
                        let Some(g) = Group::from_cards(set) else {
                            continue;
                        };
                        groups += 1;
                        // Cards the pack still holds: fewer than two in the group.
                        let naturals = (0..4u8)
                            .map(|suit| Card::new(r, Suit::from_index(suit)))
                            .filter(|&c| g.accepts_kind(c) && g.count(c) < 2);
                        for c in naturals {
                            let fits = g.fits_one_more(false);
                            assert_eq!(fits, extend_fits(&g, c), "{c} to {g}");
                            natural_answers[fits as usize] += 1;
                        }
                        for c in wilds.into_iter().filter(|&c| g.count(c) < 2) {
                            assert_eq!(g.fits_one_more(true), extend_fits(&g, c), "{c} to {g}");
                        }
                        for c in g.wild_kinds().kinds() {
                            let leaves = g.may_lose_a_wild();
                            assert_eq!(leaves, wild_may_leave(&g, c), "{c} out of {g}");
                            leave_answers[leaves as usize] += 1;
                        }
                    }
                }
            }
        }
        assert!(
            groups > 10_000
                && natural_answers
                    .iter()
                    .chain(&leave_answers)
                    .all(|&n| n > 100),
            "{groups} groups, {natural_answers:?} {leave_answers:?}"
        );
    }

    /// The lays are found rank by rank over the ranks held twice or more,
    /// picked from the counts' nibbles (`ranks_held_twice`): the same ranks
    /// in the same order as the plain test of every natural rank, for
    /// pools of many ranks, whose lays (with and without pending wilds to
    /// hold) are many.
    #[test]
    fn lays_of_three_visit_the_ranks_in_order() {
        assert_eq!(
            NATURAL_NIBBLES,
            Rank::NATURALS
                .iter()
                .map(|&r| 1u64 << (4 * r as u32))
                .sum::<u64>()
        );
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let pack: Vec<Card> = CardSet::FULL_PACK.iter().collect();
        let mut got = Vec::new();
        let mut lays = 0;
        for _ in 0..5000 {
            let mut pool = CardSet::EMPTY;
            for _ in 0..next() % 30 {
                pool.insert(pack[(next() % pack.len() as u64) as usize]);
            }
            let want: Vec<Rank> = Rank::NATURALS
                .into_iter()
                .filter(|&r| pool.rank_count(r) >= 2)
                .collect();
            let ranks: Vec<Rank> = ranks_held_twice(pool.rank_counts()).collect();
            assert_eq!(ranks, want, "[{pool}]");
            let need = if next() % 3 == 0 {
                pool.wilds()
            } else {
                CardSet::EMPTY
            };
            got.clear();
            lays_of_three(pool, need, &mut got);
            lays += got.len();
        }
        assert!(lays > 50_000, "{lays} lays");
    }

    /// Plays random hands from `seeds` and calls `f(seed, action, state)`
    /// with the state after every meld step that `meld_step` accepts from
    /// every meld-phase position met (the state quiet, as in a search).
    fn each_meld_step(seeds: std::ops::Range<u64>, f: impl FnMut(u64, Action, &GameState)) {
        each_meld_step_under(Rules::default(), seeds, f)
    }

    /// [`each_meld_step`] under `rules`.
    fn each_meld_step_under(
        rules: Rules,
        seeds: std::ops::Range<u64>,
        mut f: impl FnMut(u64, Action, &GameState),
    ) {
        let mut legal = Vec::new();
        let mut cand = Vec::new();
        for seed in seeds {
            let mut g = GameState::new(rules, seed);
            let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            while !g.is_terminal() {
                if g.phase == Phase::Meld {
                    cand.clear();
                    g.raw_meld_candidates(&mut cand, false);
                    for &a in &cand {
                        let mut t = g.clone();
                        t.quiet = true;
                        if t.meld_step(a).is_ok() {
                            f(seed, a, &t);
                        }
                    }
                }
                g.legal_actions(&mut legal);
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                g.apply(legal[(x % legal.len() as u64) as usize]).unwrap();
            }
        }
    }

    /// Whether `t`, after a meld step in a tight state (wilds pending or
    /// a pickup before the rest), is one that the I-9 check searches: the
    /// quick test does not already say yes.
    fn searched(a: Action, t: &GameState) -> bool {
        a != Action::TakeRest && (!t.turn.pending.is_empty() || t.before_rest()) && !t.can_finish()
    }

    /// The depth-first search alone, within `budget` nodes (the check
    /// before the breadth-first and short-way searches were added).
    fn depth_first_alone(t: &GameState, budget: u32) -> (bool, u32) {
        let mut b = budget;
        let mut search = Search::with_budget(budget);
        let found = t.search_rec(&mut b, &mut search, 150, &mut Vec::new());
        (found, b)
    }

    /// I-9: a step after which one more step and the discard complete the
    /// turn is never refused, in the states of random hands. (The
    /// depth-first search alone missed such ways out: see
    /// `i9_a_step_with_a_way_out_is_legal_however_deep_the_detours`.)
    #[test]
    fn i9_one_step_ways_out_are_never_refused() {
        let mut checked = 0;
        each_meld_step(0..200, |seed, a, t| {
            if !searched(a, t) {
                return;
            }
            let mut search = Search::with_budget(64);
            if !t.search_rec(&mut u32::MAX.clone(), &mut search, 1, &mut Vec::new()) {
                return;
            }
            checked += 1;
            assert!(
                t.search_completion(&mut 600),
                "seed {seed}: after {a} a step and a discard end the turn, yet the check says no"
            );
        });
        assert!(
            checked >= 20,
            "only {checked} states with a one-step way out met"
        );
    }

    /// `completion` stops deepening once a pass met no depth limit; its
    /// answers are those of deepening through every limit (then the deep
    /// search), on the states of random hands, with budgets small enough
    /// to run out too. Both search with the finisher's bound (that the
    /// bound keeps the way out is `finisher_bound_keeps_the_shortest_way_out`).
    #[test]
    fn completion_stops_deepening_only_when_nothing_deeper_exists() {
        let reference = |t: &GameState, budget: u32| -> Option<Vec<Action>> {
            let mut search = Search::with_budget(budget);
            search.bound = true;
            let mut b = budget;
            for limit in 1..=150 {
                search.seen.clear();
                let mut path = Vec::new();
                if t.search_rec(&mut b, &mut search, limit, &mut path) {
                    path.reverse();
                    return Some(path);
                }
                if b == 0 {
                    break;
                }
            }
            let mut b = budget;
            search.seen.clear();
            let mut path = Vec::new();
            if t.search_rec(&mut b, &mut search, 150, &mut path) {
                path.reverse();
                return Some(path);
            }
            None
        };
        let (mut compared, mut none) = (0, 0);
        each_meld_step(0..12, |seed, a, t| {
            if t.surely_stuck() {
                return;
            }
            for budget in [50, 400, 3000] {
                let got = t.completion(budget);
                none += got.is_none() as u32;
                assert_eq!(
                    got,
                    reference(t, budget),
                    "seed {seed}: after {a}, budget {budget}"
                );
                compared += 1;
            }
        });
        assert!(
            compared > 1000 && none > 50,
            "{compared} compared, {none} without a way out"
        );
    }

    /// What the I-9 check refuses in random hands, against the depth-first
    /// search alone: steps refused, and of those how many a search of
    /// 200,000 nodes (iterative deepening, then depth-first) completes.
    /// Run with `cargo test --release -p kanaszta-engine i9_refusal_audit
    /// -- --ignored --nocapture`.
    #[test]
    #[ignore = "an audit that prints figures; minutes in release"]
    fn i9_refusal_audit() {
        let (mut searched_n, mut before, mut before_wrong, mut now, mut now_wrong) =
            (0, 0, 0, 0, 0);
        each_meld_step(0..300, |_, a, t| {
            if !searched(a, t) {
                return;
            }
            searched_n += 1;
            let old = depth_first_alone(t, 600).0;
            let new = t.search_completion(&mut 600);
            assert!(
                new || !old,
                "the check refuses what the depth-first search finds"
            );
            let wrong = || t.completion(200_000).is_some();
            if !old {
                before += 1;
                before_wrong += wrong() as u32;
            }
            if !new {
                now += 1;
                now_wrong += wrong() as u32;
            }
        });
        println!(
            "300 random hands: {searched_n} steps searched; depth-first search alone refuses {before} ({before_wrong} of them completable); the check refuses {now} ({now_wrong} completable)"
        );
    }

    /// `apply_listed` of every listed action leaves the state `apply`
    /// leaves, in every phase of random hands (default rules and every
    /// switch flipped), also from a determinization of the mover's view.
    #[test]
    fn apply_listed_is_apply_for_listed_actions() {
        let mut flipped = Rules::default();
        flipped
            .apply_settings([
                "free_pickup_wild=forbid",
                "groups_per_rank=many",
                "opening=120",
            ])
            .unwrap();
        let mut legal = Vec::new();
        let mut rng = rand_pcg::Pcg64Mcg::new(7);
        let mut meld_steps = 0;
        for (rules, seeds) in [(Rules::default(), 0..30), (flipped, 100..115)] {
            for seed in seeds {
                let mut g = GameState::new(rules, seed);
                let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                while !g.is_terminal() {
                    g.legal_actions(&mut legal);
                    let world = g.view(g.current_player()).determinize(&mut rng);
                    for &a in &legal {
                        let mut want = g.clone();
                        want.apply(a).unwrap();
                        let mut got = g.clone();
                        got.apply_listed(a).unwrap();
                        assert!(got == want, "seed {seed}: {a}");
                        let (mut w1, mut w2) = (world.clone(), world.clone());
                        w1.apply(a).unwrap();
                        w2.apply_listed(a).unwrap();
                        assert!(w1 == w2, "seed {seed}, sampled world: {a}");
                        if g.phase == Phase::Meld
                            && !matches!(a, Action::Discard(_) | Action::Reset)
                        {
                            meld_steps += 1;
                        }
                    }
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    g.apply(legal[(x % legal.len() as u64) as usize]).unwrap();
                }
            }
        }
        assert!(meld_steps > 1000, "only {meld_steps} meld steps met");
    }

    /// I-9: the counting test's "no" is exact. After every meld step of
    /// random hands that it calls stuck, a search far beyond the usual
    /// budget finds no way to finish the turn either.
    #[test]
    fn surely_stuck_is_exact() {
        let [default, older, many, convert, free] = rule_variants();
        for (rules, seeds) in [
            (default, 0..40),
            (older, 40..55),
            (many, 55..70),
            (convert, 70..85),
            (free, 85..100),
        ] {
            let mut stuck = 0;
            let mut by_solver = 0;
            each_meld_step_under(rules, seeds, |seed, a, t| {
                if !t.surely_stuck() {
                    return;
                }
                stuck += 1;
                let p = t.current as usize;
                by_solver += (t.hands[p].len() == 1 && !t.tables[p].has_new()) as u32;
                let mut budget = 20_000;
                let mut search = Search::with_budget(budget);
                let found = t.search_rec(&mut budget, &mut search, 1000, &mut Vec::new());
                assert!(!found, "seed {seed}: {a} called stuck, yet a way was found");
            });
            assert!(
                stuck > 100 && by_solver > 10,
                "only {stuck} stuck states met, {by_solver} with one card in hand"
            );
        }
    }

    /// I-25: `resettable` is the plain comparison of the mover's hand,
    /// table and turn with the anchor, which its flag (`at_anchor`) only
    /// spares: after every meld step of random hands under five rule sets
    /// (where a step always clears the flag, and some lead back to the
    /// anchor, a lay taken back), at every state of those hands (where the
    /// flag is set at the start of each meld phase), and after a reset.
    #[test]
    fn i25_resettable_is_the_comparison_with_the_anchor() {
        let plain = |t: &GameState| {
            let p = t.current as usize;
            t.phase == Phase::Meld
                && (t.hands[p] != t.anchor.hand
                    || t.tables[p] != t.anchor.table
                    || t.turn != t.anchor.turn)
        };
        let (mut steps, mut back, mut flagged, mut resets) = (0, 0, 0, 0);
        let mut legal = Vec::new();
        for rules in rule_variants() {
            each_meld_step_under(rules, 0..12, |_, a, t| {
                assert!(!t.turn.at_anchor, "{a} clears the flag");
                assert_eq!(t.resettable(), plain(t), "after {a}");
                steps += 1;
                back += !plain(t) as u32;
                if t.resettable() && a != Action::TakeRest {
                    let mut u = t.clone();
                    u.apply(Action::Reset).unwrap();
                    assert!(u.turn.at_anchor && !u.resettable() && !plain(&u));
                    resets += 1;
                }
            });
            for seed in 100..112 {
                let mut g = GameState::new(rules, seed);
                let mut x = seed | 1;
                while !g.is_terminal() {
                    assert_eq!(g.resettable(), plain(&g));
                    flagged += (g.phase == Phase::Meld && g.turn.at_anchor) as u32;
                    g.legal_actions(&mut legal);
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    g.apply(legal[(x % legal.len() as u64) as usize]).unwrap();
                }
            }
        }
        assert!(
            steps > 10_000 && back > 100 && flagged > 1000 && resets > 1000,
            "{steps} steps, {back} back at the anchor, {flagged} flagged, {resets} resets"
        );
    }

    /// I-9: the candidates with the one-at-a-time check are the listing.
    /// Along random hands under five rule sets, in every phase, the
    /// candidates the check passes are the legal actions, in order (a
    /// meld phase's candidates in reverse too, so that the check's copy
    /// serves steps in any order); `read_table_after` of a candidate reads the
    /// mover's table after the step where `apply_listed` takes a listed
    /// one, and `None` where the step itself is refused; and
    /// `extend_from_hand` of every extend of a card in hand onto every
    /// group is the group the step changes, before and after, where the
    /// step is made, and `Some(None)` where it is refused.
    #[test]
    fn candidates_checked_one_at_a_time_are_the_listing() {
        let [default, older, many, convert, free] = rule_variants();
        let (mut legal, mut cand) = (Vec::new(), Vec::new());
        let (mut refused, mut stepped, mut unlisted) = (0, 0, 0);
        let mut extends = (0, 0);
        for (rules, seeds) in [
            (default, 0..30),
            (older, 30..40),
            (many, 40..50),
            (convert, 50..60),
            (free, 60..70),
        ] {
            for seed in seeds {
                let mut g = GameState::new(rules, seed);
                let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                while !g.is_terminal() {
                    g.legal_actions(&mut legal);
                    g.candidate_actions(&mut cand);
                    let mut check = g.candidate_check();
                    let passed: Vec<Action> = cand
                        .iter()
                        .copied()
                        .filter(|&a| check.is_listed(a))
                        .collect();
                    assert_eq!(passed, legal, "seed {seed}, turn {}", g.turns);
                    if g.phase == Phase::Meld {
                        let mut check = g.candidate_check();
                        let mut backwards: Vec<Action> = cand
                            .iter()
                            .rev()
                            .copied()
                            .filter(|&a| check.is_listed(a))
                            .collect();
                        backwards.reverse();
                        assert_eq!(backwards, legal, "seed {seed}, turn {}", g.turns);
                        let p = g.current as usize;
                        // Every extend of a card in hand onto every group,
                        // candidate or not (refused ones among them): the
                        // group before and after is the table's change.
                        let groups = g.tables[p].len() as u8;
                        for (gi, c) in
                            (0..groups).flat_map(|i| g.hands[p].kinds().map(move |c| (i, c)))
                        {
                            let a = Action::Extend { group: gi, card: c };
                            let Some(change) = check.extend_from_hand(a) else {
                                assert!(!g.turn.pending.is_empty(), "{a} from the hand");
                                continue;
                            };
                            let mut t = g.clone();
                            t.quiet = true;
                            match (t.meld_step(a), change) {
                                (Ok(()), Some((from, to))) => {
                                    let mut want = g.tables[p];
                                    assert_eq!(from, want.groups()[gi as usize]);
                                    want.groups_mut()[gi as usize] = to;
                                    assert!(want == t.tables[p], "seed {seed}: {a}");
                                    extends.0 += 1;
                                }
                                (Err(_), None) => extends.1 += 1,
                                (made, change) => {
                                    panic!("seed {seed}: {a}: step {made:?}, change {change:?}")
                                }
                            }
                        }
                        for &a in &cand {
                            let after = check.read_table_after(a, |t| *t);
                            if matches!(a, Action::Discard(_) | Action::Reset) {
                                assert!(after.is_none(), "{a} has no table after");
                                continue;
                            }
                            let mut t = g.clone();
                            t.quiet = true;
                            match t.meld_step(a) {
                                Ok(()) => {
                                    let after = after.expect("a step made has a table after");
                                    assert!(after == t.tables[p], "seed {seed}: {a}");
                                    stepped += 1;
                                    if legal.contains(&a) {
                                        let mut u = g.clone();
                                        u.apply_listed(a).unwrap();
                                        assert!(after == u.tables[p], "seed {seed}: {a}");
                                    } else {
                                        unlisted += 1;
                                    }
                                }
                                Err(_) => {
                                    assert!(after.is_none(), "seed {seed}: {a} refused");
                                    refused += 1;
                                }
                            }
                        }
                    }
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    g.apply(legal[(x % legal.len() as u64) as usize]).unwrap();
                }
            }
        }
        // Steps refused by their own rules, steps made but not listed
        // (their turn could not be completed, I-9), and listed ones.
        assert!(
            refused > 1000 && unlisted > 100 && stepped > unlisted + 1000,
            "{refused} refused, {unlisted} unlisted of {stepped} made"
        );
        assert!(
            extends.0 > 1000 && extends.1 > 1000,
            "extends from the hand: {} made, {} refused",
            extends.0,
            extends.1
        );
    }

    /// The answers kept from recent completion searches (filled by the
    /// listing and `apply` along random hands) are the ones a fresh search
    /// gives, budget left included.
    /// The search's visited set answers as a map from key to the largest
    /// depth recorded since the last `clear`, through growth, clears and
    /// the wrap of its generation counter; keys share low bits so that
    /// probes collide.
    #[test]
    fn visited_set_is_a_map_cleared_by_generation() {
        use std::collections::HashMap;
        let mut seen = Seen::with_room(4);
        let mut reference: HashMap<u64, u32> = HashMap::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut refused, mut grown) = (0, 0);
        for round in 0..400 {
            if round == 200 {
                // The next clears wrap the generation to 0 and on to 1.
                seen.generation = u32::MAX - 1;
            }
            seen.clear();
            reference.clear();
            let n = 1 + next() % 300;
            for _ in 0..n {
                // Few distinct keys, many alike in their low bits.
                let key = (next() % 97) << 20 | (next() % 3);
                let depth = (next() % 6) as u32;
                let want = match reference.get(&key) {
                    Some(&d) if d >= depth => false,
                    _ => {
                        reference.insert(key, depth);
                        true
                    }
                };
                let cap = seen.slots.len();
                assert_eq!(seen.visit(key, depth), want, "round {round} key {key:#x}");
                grown += (seen.slots.len() > cap) as u32;
                refused += !want as u32;
            }
            assert_eq!(seen.len, reference.len());
            for (&k, &d) in &reference {
                assert_eq!(seen.get(k), Some(d));
            }
            assert_eq!(seen.get(1 << 40), None);
        }
        assert!(
            refused > 1000 && grown > 0,
            "{refused} refused, grown {grown} times"
        );
        // Wrapped at round 201 to 1, then one a round.
        assert_eq!(seen.generation, 1 + (399 - 201));
    }

    /// I-9, D-13.1: `CandidateCheck::surely_unlisted` says yes only of
    /// candidates the listing leaves out. On the meld-phase states of
    /// play that lays and extends whenever it can (hands of two cards
    /// before tables of many groups), under the five rule sets of the
    /// listing test: every candidate it rules out is an extend (a step
    /// made, mostly) and not listed; it rules out only at states of two cards,
    /// no wild pending, no pickup in progress and nothing laid this turn
    /// where the mover cannot go out. Such states come often, some with a
    /// way out, and at them extends are listed too.
    #[test]
    fn extends_surely_unlisted_are_not_listed() {
        let (mut legal, mut cand) = (Vec::new(), Vec::new());
        let (mut ruled_out, mut made, mut listed_two) = (0, 0, 0);
        let (mut states, mut out_states) = (0, 0);
        for (k, rules) in rule_variants().into_iter().enumerate() {
            for seed in 0..16 {
                let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5a1);
                play_meld_biased(
                    rules,
                    seed + 100 * k as u64,
                    &mut rng,
                    0.9,
                    |a| matches!(a, Action::Lay { .. } | Action::Extend { .. }),
                    |g, _| {
                        if g.phase != Phase::Meld {
                            return;
                        }
                        g.legal_actions(&mut legal);
                        g.candidate_actions(&mut cand);
                        let mut check = g.candidate_check();
                        let p = g.current as usize;
                        let plain = g.hands[p].len() == 2
                            && g.turn.pending.is_empty()
                            && !g.before_rest()
                            && !g.tables[p].has_new();
                        let can_out = plain
                            && solver::can_go_out(g, p, g.hands[p], false, None, CardSet::EMPTY);
                        states += plain as u32;
                        out_states += can_out as u32;
                        for &a in &cand {
                            let listed = legal.contains(&a);
                            if !check.surely_unlisted(a) {
                                listed_two +=
                                    (plain && listed && matches!(a, Action::Extend { .. })) as u32;
                                continue;
                            }
                            assert!(!listed, "seed {seed}: {a} is listed");
                            assert!(plain && !can_out, "seed {seed}: {a} ruled out");
                            assert!(matches!(a, Action::Extend { .. }), "{a}");
                            ruled_out += 1;
                            made += check.read_table_after(a, |_| ()).is_some() as u32;
                        }
                    },
                );
            }
        }
        assert!(
            states > 1000 && made > 1000 && listed_two > 100 && out_states > 100,
            "{states} states ({out_states} with a way out), {ruled_out} ruled out ({made} steps made), {listed_two} listed"
        );
    }

    /// `CandidateCheck::listed_discards` counts the discards of the
    /// listing, on every meld-phase state of random hands and after every
    /// meld step there, under both rule versions (so with the card taken
    /// for free barred from the discard, I-21, and allowed) and with
    /// openings short of the minimum (D-8.2) and turns that must go out
    /// (I-26) met.
    #[test]
    fn listed_discards_count_the_listing() {
        let mut allow = Rules::default();
        allow.set("free_pickup_return", "allow").unwrap();
        let (mut states, mut barred, mut none) = (0, 0, 0);
        let mut legal = Vec::new();
        for rules in [Rules::preset("decorated-2003-02").unwrap(), allow] {
            each_meld_step_under(rules, 0..30, |_, _, t| {
                t.legal_actions(&mut legal);
                let want = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Discard(_)))
                    .count() as u32;
                let hand = t.hands[t.current as usize];
                assert_eq!(t.candidate_check().listed_discards(), want, "[{hand}]");
                states += 1;
                none += (want == 0) as u32;
                barred += t.turn.free_card.is_some_and(|c| {
                    rules.free_pickup_return == Permit::Forbid && hand.count(c) == 1
                }) as u32;
            });
        }
        assert!(
            states > 10_000 && barred > 100 && none > 1000,
            "{states} states, {barred} with a barred card, {none} with no discard"
        );
    }

    /// The deepening of [`GameState::completion_in`] alone, with or
    /// without the finisher's bound: the way out, and whether deepening
    /// decided (found one, or saw there is none) within `budget`.
    fn deepening(t: &GameState, budget: u32, bound: bool) -> (Option<Vec<Action>>, bool) {
        let mut search = Search::with_budget(budget);
        search.bound = bound;
        let mut b = budget;
        for limit in 1..=150 {
            search.seen.clear();
            search.cut = false;
            let mut path = Vec::new();
            if t.search_rec(&mut b, &mut search, limit, &mut path) {
                path.reverse();
                return (Some(path), true);
            }
            if b == 0 {
                return (None, false);
            }
            if !search.cut {
                return (None, true);
            }
        }
        (None, false)
    }

    /// The finisher's search leaves out the nodes that cannot reach a
    /// discard within their steps ([`GameState::steps_to_discard`]): the
    /// bound never exceeds the steps of the shortest way out, from the
    /// start or from any state on it; and the search with the bound finds
    /// the same way out (the shortest, the first of its length) as the
    /// search without, wherever that one decides within its budget. On
    /// the tables of play that lays whenever it can, so that hands of one
    /// card that go out by moving wilds come often, under both rule
    /// versions and with many groups per rank.
    #[test]
    fn finisher_bound_keeps_the_shortest_way_out() {
        use rand::SeedableRng;
        let mut many = Rules::default();
        many.set("groups_per_rank", "many").unwrap();
        let rule_sets = [
            Rules::preset("decorated-2003-02").unwrap(),
            Rules::preset("decorated-2003-01").unwrap(),
            many,
        ];
        let (mut compared, mut long, mut none) = (0, 0, 0);
        let mut pickups = 0;
        for rules in rule_sets {
            for seed in 0..30 {
                let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0xb0);
                play_meld_biased(
                    rules,
                    seed,
                    &mut rng,
                    0.9,
                    |a| !matches!(a, Action::Discard(_) | Action::Reset),
                    |g, _| {
                        if g.phase == Phase::Meld && !g.surely_stuck() {
                            let mut t = g.clone();
                            t.quiet = true;
                            let (plain, decided) = deepening(&t, 20_000, false);
                            if decided {
                                let (bounded, _) = deepening(&t, 20_000, true);
                                assert_eq!(
                                    bounded, plain,
                                    "seed {seed}: {:?}",
                                    t.tables[t.current as usize]
                                );
                                compared += 1;
                                match &plain {
                                    None => none += 1,
                                    Some(way) => {
                                        // Meld steps left before the discard, from each state on the way.
                                        let mut u = t.clone();
                                        for (i, &a) in way.iter().enumerate() {
                                            let left = (way.len() - 1 - i) as u32;
                                            let least = u.steps_to_discard();
                                            assert!(
                                            least <= left,
                                            "seed {seed}: bound {least:?} with {left} steps left before {a}"
                                        );
                                            if matches!(a, Action::Discard(_)) {
                                                break;
                                            }
                                            u.meld_step(a).unwrap();
                                        }
                                        long += (way.len() > 4) as u32;
                                        pickups += (t.before_rest()
                                            && !t.tables[t.current as usize].opened
                                            && way.len() > 3)
                                            as u32;
                                    }
                                }
                            }
                        }
                    },
                );
            }
        }
        assert!(
            compared > 5000 && long > 100 && pickups > 100,
            "{compared} compared, {long} long ways, {pickups} pickups of an opening, {none} without a way"
        );
    }

    #[test]
    fn leaves_left_unmarked_change_no_search() {
        let mut long = 0;
        each_meld_step(0..12, |seed, a, t| {
            if t.surely_stuck() {
                return;
            }
            for budget in [40, 300, 5000] {
                let fast = Search::with_budget(budget);
                let mut marked = Search::with_budget(budget);
                marked.mark_leaves = true;
                let runs = [fast, marked].map(|mut search| {
                    let path = t.completion_in(budget, &mut search);
                    let mut b = budget;
                    let mut search = Search {
                        mark_leaves: search.mark_leaves,
                        ..Search::with_budget(budget)
                    };
                    let verdict = t.completion_verdict(&mut b, &mut search);
                    (path, verdict, b)
                });
                let [(p0, v0, b0), (p1, v1, b1)] = runs;
                long += p0.as_ref().is_some_and(|p| p.len() > 2) as u32;
                assert_eq!(
                    p0, p1,
                    "seed {seed}: after {a}, budget {budget}: the way out"
                );
                assert_eq!(
                    (v0, b0),
                    (v1, b1),
                    "seed {seed}: after {a}, budget {budget}: the verdict"
                );
            }
        });
        assert!(long > 100, "only {long} ways out of more than one step");
    }

    #[test]
    fn recent_searches_answer_as_a_fresh_search() {
        let mut hits = 0;
        each_meld_step(0..20, |seed, a, t| {
            if t.surely_stuck() {
                return;
            }
            for budget in [600, 1500] {
                let key = t.search_key();
                let known = RECENT_SEARCHES.with(|r| r.borrow().find(key, t, budget));
                let mut b = budget;
                let kept = t.search_completion(&mut b);
                let mut fresh_b = budget;
                let mut search = Search::with_budget(budget);
                let fresh = t.completion_verdict(&mut fresh_b, &mut search);
                assert_eq!((kept, b), (fresh, fresh_b), "seed {seed}: after {a}");
                hits += known.is_some() as u32;
            }
        });
        assert!(hits > 100, "only {hits} answers were kept ones");
    }
}
