//! [`GameState`]: one hand of decorated canasta, in the shape of OpenSpiel's
//! `State`: [`GameState::current_player`], [`GameState::legal_actions`] into a
//! caller's buffer, [`GameState::apply`] returning a [`RuleError`](crate::RuleError) that names
//! the rule broken, [`GameState::is_terminal`], [`GameState::scores`].
//!
//! Chance (shuffle, cut, reshuffle) comes from a `rand_pcg` generator held by
//! the state, so `(rules, seed, actions)` replays exactly. A clone is one
//! memcpy.
//!
//! # Layers
//!
//! One file per rule area, each calling only the layers above it in this
//! list (and the pure modules of the crate: cards, groups, tables, rules,
//! the solver, scoring):
//!
//! - this file: the state's fields (private to this module and its
//!   layers), the one constructor [`GameState::from_parts`], the deal,
//!   accessors, invariants, scores;
//! - `flow`: the turn's flow (D-3 … D-7, D-13, I-32): cut, draw, pickups,
//!   discard, next turn, end of the hand;
//! - `steps`: one meld step with its own rules (D-9 … D-12);
//! - `candidates`: the meld steps worth listing;
//! - `completion`: the quick tests of I-9 and I-26; `search` and
//!   `search_memory`: the search where they do not settle it;
//! - `legal`: the ways into legality (the listing, the candidate check,
//!   `apply`, `apply_listed`); `moves`: what the mover may do, as a player
//!   sees it ([`GameState::moves`]);
//! - `view`: what one seat may know, and the worlds sampled from it.

use crate::card::{Card, Rank};
use crate::card_set::CardSet;
use crate::error::InvariantError;
use crate::rules::Family;
use crate::rules::Rules;
use crate::rules::StalledHandCards;
use crate::score::{score_table, GoingOut, HandScore};
use crate::table::Table;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

#[cfg(test)]
mod candidate_tests;
mod candidates;
mod completion;
#[cfg(test)]
mod completion_tests;
mod flow;
pub(crate) mod legal;
pub(crate) mod moves;
mod search;
mod search_memory;
mod steps;
#[cfg(test)]
mod tests;
pub(crate) mod view;

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

/// Undos (take-backs, D-11.5, and resets, I-25) a meld phase allows, the
/// last of them a reset. I-25 judges a meld phase on its final state, and
/// undoing reaches no final state that steps without undoing do not (from
/// the turn's start every final state is reached by laying, extending and
/// moving wilds alone), so the cap takes no outcome away: it makes every
/// meld phase end, whatever a player chooses among the listed actions:
/// every step listed leaves a way to end the turn without undoing (I-9),
/// so once the undos are spent the turn goes forward to its end.
pub const MAX_UNDOS: u8 = 8;

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
    /// Take-backs and resets made this meld phase ([`MAX_UNDOS`]). Kept
    /// across a reset; not part of the turn's equality or hashing (the
    /// reset compares the turn with its start), but of the state's.
    pub undos: u8,
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
            undos: 0,
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

/// The hand's generator for chance, held as the state of its `Pcg64Mcg`
/// so that the whole [`GameState`] is one `Copy` block: a clone is a single
/// copy, not one per field. The generator is rebuilt around the state for
/// each use (the state of a multiplicative generator is odd, so
/// `Pcg64Mcg::new` gives back exactly the generator it came from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chance(u128);

impl Chance {
    pub(crate) fn of(rng: &Pcg64Mcg) -> Chance {
        Chance(rng.state())
    }

    pub(crate) fn generator(self) -> Pcg64Mcg {
        Pcg64Mcg::new(self.0)
    }
}

/// One hand of decorated canasta, complete: every card's place, the
/// generator for chance, the turn in progress. `Copy`: a clone is one
/// copy of fixed-size arrays.
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
#[derive(Clone, Copy, Debug)]
pub struct GameState {
    rules: Rules,
    /// A 64-bit hash of `rules`, made once by [`GameState::from_parts`]
    /// (the rules never change after): what the completion check's
    /// verdicts ([`GameState::verdict_context`]) name the rules by. Not
    /// part of equality, which compares the rules themselves.
    rules_key: u64,
    rng: Chance,
    starter: u8,
    current: u8,
    phase: Phase,
    hands: [CardSet; MAX_PLAYERS],
    tables: [Table; MAX_PLAYERS],
    known: [CardSet; MAX_PLAYERS],
    stock: [Card; PACK],
    stock_len: u8,
    stock_known_bottom: u8,
    pile: [Card; PACK],
    pile_len: u8,
    pile_top_fresh: bool,
    cut: [Card; 3],
    free_pending: [bool; MAX_PLAYERS],
    owed_red: [u8; MAX_PLAYERS],
    turns: u32,
    totals: [i32; MAX_PLAYERS],
    turn: Turn,
    anchor: Anchor,
    /// Refusals skip formatting their message (legality probes on clones).
    quiet: bool,
    end: Option<HandEnd>,
    stats: [PlayerStats; MAX_PLAYERS],
    /// I-32: bit `p` set once player `p` was found dead-locked after one
    /// of his discards (tested under `deadlock = end` only).
    dead: u8,
}

/// Every field of a state but its per-call switches: what
/// [`GameState::from_parts`], the one constructor, builds a state from, and
/// what [`GameState::to_parts`] gives back (a deal, a seat's worlds, a
/// loaded position). The fields are those of [`GameState`].
#[derive(Clone, Debug)]
pub(crate) struct Parts {
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
    pub(crate) end: Option<HandEnd>,
    pub(crate) stats: [PlayerStats; MAX_PLAYERS],
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
            && self.turn.undos == o.turn.undos
            && (self.phase != Phase::Meld || self.anchor == o.anchor)
            && self.end == o.end
            && self.stats[..n] == o.stats[..n]
            && self.dead == o.dead
    }
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
    is_meld: impl Fn(&crate::action::Action) -> bool,
    mut f: impl FnMut(&GameState, &mut Pcg64Mcg),
) {
    let mut g = GameState::new(rules, seed);
    let mut legal = Vec::new();
    while !g.is_terminal() {
        f(&g, rng);
        g.legal_actions(&mut legal);
        let melds: Vec<crate::action::Action> =
            legal.iter().copied().filter(|a| is_meld(a)).collect();
        let pick = if !melds.is_empty() && rng.random_bool(bias) {
            melds[rng.random_range(0..melds.len())]
        } else {
            legal[rng.random_range(0..legal.len())]
        };
        g.apply(pick).unwrap();
    }
}

impl GameState {
    /// A new hand: the pack shuffled by a generator seeded with `seed`; the
    /// starter is drawn from the seed (I-1); running totals are zero.
    pub fn new(rules: Rules, seed: u64) -> GameState {
        let n = rules.players.max(2) as u64;
        let starter = (crate::seed::hand_starter(seed) % n) as u8;
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
        GameState::from_parts(Parts {
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
            end: None,
            stats: [PlayerStats::default(); MAX_PLAYERS],
            dead: 0,
        })
    }

    /// The one constructor: a state from its parts (the deal, a seat's
    /// worlds and loaded positions all come through here).
    pub(crate) fn from_parts(p: Parts) -> GameState {
        GameState {
            rules: p.rules,
            rules_key: search_memory::rules_key(&p.rules),
            rng: Chance::of(&p.rng),
            starter: p.starter,
            current: p.current,
            phase: p.phase,
            hands: p.hands,
            tables: p.tables,
            known: p.known,
            stock: p.stock,
            stock_len: p.stock_len,
            stock_known_bottom: p.stock_known_bottom,
            pile: p.pile,
            pile_len: p.pile_len,
            pile_top_fresh: p.pile_top_fresh,
            cut: p.cut,
            free_pending: p.free_pending,
            owed_red: p.owed_red,
            turns: p.turns,
            totals: p.totals,
            turn: p.turn,
            anchor: p.anchor,
            quiet: false,
            end: p.end,
            stats: p.stats,
            dead: p.dead,
        }
    }

    /// The state's parts, copied (for saving a position). By reference:
    /// the state is `Copy` but too big to pass by value for nothing.
    #[allow(clippy::wrong_self_convention)]
    pub(crate) fn to_parts(&self) -> Parts {
        Parts {
            rules: self.rules,
            rng: self.rng.generator(),
            starter: self.starter,
            current: self.current,
            phase: self.phase,
            hands: self.hands,
            tables: self.tables,
            known: self.known,
            stock: self.stock,
            stock_len: self.stock_len,
            stock_known_bottom: self.stock_known_bottom,
            pile: self.pile,
            pile_len: self.pile_len,
            pile_top_fresh: self.pile_top_fresh,
            cut: self.cut,
            free_pending: self.free_pending,
            owed_red: self.owed_red,
            turns: self.turns,
            totals: self.totals,
            turn: self.turn,
            anchor: self.anchor,
            end: self.end,
            stats: self.stats,
            dead: self.dead,
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

    /// Puts the stock above its known bottom (D-3.3) in a random order
    /// drawn from `seed`, and gives the hand a fresh generator for chance:
    /// the hand as someone who sees every hand but not the stock's order
    /// could take it to be. For measuring what hidden cards are worth to a
    /// search (`PimcAgent::know` of the agents); play never calls it.
    pub fn shuffle_stock(&mut self, seed: u64) {
        let mut gen = Pcg64Mcg::seed_from_u64(seed);
        let bottom = self.stock_known_bottom as usize;
        shuffle(&mut self.stock[bottom..self.stock_len as usize], &mut gen);
        self.rng = Chance::of(&Pcg64Mcg::seed_from_u64(rand::Rng::next_u64(&mut gen)));
    }

    /// The pile, bottom first (the top card is the last).
    pub fn pile(&self) -> &[Card] {
        &self.pile[..self.pile_len as usize]
    }

    /// The pile's top card.
    pub fn pile_top(&self) -> Option<Card> {
        self.pile().last().copied()
    }

    /// The card whose discard would now be a twin (D-7, I-10): the pile's
    /// top while it is the previous player's fresh discard, unless it is a
    /// joker (D-7.2).
    pub fn twin_card(&self) -> Option<Card> {
        self.pile_top()
            .filter(|c| self.pile_top_fresh && !c.is_joker())
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
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        match self.all_cards() {
            Some(s) if s == CardSet::FULL_PACK => {}
            Some(found) => return Err(InvariantError::Conservation { found }),
            None => return Err(InvariantError::TooManyCopies),
        }
        for p in 0..self.players() {
            for (i, g) in self.tables[p].groups().iter().enumerate() {
                if !g.is_legal() {
                    return Err(InvariantError::IllegalGroup {
                        player: p,
                        index: i,
                        group: *g,
                    });
                }
            }
            if !self.hands[p].contains_all(self.known[p]) {
                return Err(InvariantError::KnownNotInHand {
                    player: p,
                    family: Family::Decorated,
                });
            }
            if self.hands[p].red_three_count() > 0 {
                return Err(InvariantError::RedThreeInHand { player: p });
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
        let (out, hand_counts) = match self.end {
            Some(HandEnd::WentOut {
                player,
                from_hand,
                cleared_table,
            }) => (
                GoingOut {
                    went_out: player as usize == p,
                    from_hand,
                    cleared_table,
                },
                true,
            ),
            _ => (
                GoingOut::NO,
                self.rules.stalled_hand_cards == StalledHandCards::Minus,
            ),
        };
        score_table(
            &self.tables[p],
            self.hands[p],
            out,
            hand_counts,
            &self.rules,
        )
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

    /// Whether [`Action::Reset`] is allowed: it would change anything, and
    /// the meld phase has an undo left ([`MAX_UNDOS`]).
    pub(crate) fn may_reset(&self) -> bool {
        self.turn.undos < MAX_UNDOS && self.resettable()
    }

    /// Whether a take-back (D-11.5) is allowed as far as the cap on undos
    /// goes: the last undo of a meld phase is a reset ([`MAX_UNDOS`]).
    pub fn may_take_back(&self) -> bool {
        self.turn.undos + 1 < MAX_UNDOS
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

    fn top_laid(&self) -> bool {
        match self.turn.pickup {
            Some(pk) => {
                let p = self.current as usize;
                let base = pk.group_baseline as u32;
                let groups = self.tables[p].groups();
                // The copies of the top card counted group by group,
                // stopping at the first beyond the baseline. A natural
                // lies only in groups of its rank, as its suit's field
                // of their naturals.
                let mut n = 0u32;
                let laid = if pk.top.is_natural() {
                    let rank = pk.top.index() / 4;
                    let shift = (pk.top.index() & 3) * 2;
                    groups.iter().any(|g| {
                        g.rank_index() == rank && {
                            n += (g.suit_fields().0 >> shift & 3) as u32;
                            n > base
                        }
                    })
                } else {
                    groups.iter().any(|g| {
                        n += g.count(pk.top);
                        n > base
                    })
                };
                #[cfg(debug_assertions)]
                {
                    let mut m = 0u32;
                    let slow = groups.iter().any(|g| {
                        m += g.count(pk.top);
                        m > base
                    });
                    assert_eq!(laid, slow, "the top {} laid", pk.top);
                }
                laid
            }
            None => true,
        }
    }

    fn before_rest(&self) -> bool {
        self.turn.pickup.is_some_and(|pk| !pk.rest_taken)
    }

    /// Takes `c` out of `p`'s hand; what is known of the hand keeps as
    /// many copies of `c` as the hand still holds. Inlined, by the sets'
    /// words: a discard and every extend from the hand make it.
    #[inline]
    fn hand_remove(&mut self, p: usize, c: Card) -> bool {
        if !self.hands[p].remove(c) {
            return false;
        }
        let known = self.known[p].cut_to(self.hands[p], c);
        #[cfg(debug_assertions)]
        {
            let mut slow = self.known[p];
            if slow.count(c) > self.hands[p].count(c) {
                slow.remove(c);
            }
            assert_eq!(known, slow, "known part of the hand without {c}");
        }
        self.known[p] = known;
        true
    }
}
