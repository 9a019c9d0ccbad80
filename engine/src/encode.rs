//! [`Encode`]: a seat's view as a fixed-size array of `f32`, for a learner
//! or a binding. The decorated encoding is here, the classic one in
//! `classic_encode`; docs/ENCODING.md describes both field by field, and
//! each family's [`Encode::FIELDS`] is the same table as data (name,
//! offset, length, range), so a caller can slice the array by name.
//!
//! The encoding is made from the view alone ([`SeatView`],
//! [`ClassicView`](crate::classic::ClassicView)), which holds no hidden
//! card: two states that look the same from a seat encode the same.
//! Seats are relative: slot `q` is the seat `q` places after the viewer
//! (slot 0 the viewer itself), and unused slots of absent players are 0.
//! Nothing is allocated: the numbers go into the caller's buffer.
//!
//! ```
//! use kanaszta_engine::{Action, Encode, GameState, Rules, DECORATED_OBS_LEN};
//! let mut g = GameState::new(Rules::default(), 7);
//! g.apply(Action::KeepCut { mask: 0 }).unwrap(); // the cut; hands are dealt
//! let mut obs = vec![0.0f32; DECORATED_OBS_LEN];
//! GameState::encode(&g.view(0), &mut obs);
//! let hand = GameState::field("hand").unwrap();
//! // Suited cards count 0.5 a copy, jokers 1/8.
//! let held: f32 = obs[hand.offset..hand.offset + hand.len - 1].iter().sum::<f32>() * 2.0
//!     + obs[hand.offset + hand.len - 1] * 8.0;
//! assert_eq!(held as usize, g.hand(0).len() as usize);
//! assert!(held > 0.0);
//! ```

use crate::card::{Card, Rank};
use crate::card_set::CardSet;
use crate::game::Game;
use crate::group::{CanastaKind, Group, FLAG_NEW, FLAG_RECEIVED, WILD_GROUP};
use crate::state::view::SeatView;
use crate::state::{GameState, Phase, MAX_PLAYERS, PACK};
use crate::table::MAX_GROUPS;

/// The version of both families' encodings: raised whenever a field is
/// added, moved or rescaled.
pub const ENCODING_VERSION: u32 = 1;

/// One field of an encoding: `len` numbers from `offset`, each within
/// `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    /// The field's name, as docs/ENCODING.md names it.
    pub name: &'static str,
    /// Its first index.
    pub offset: usize,
    /// How many numbers it holds.
    pub len: usize,
    /// The least value any of them takes.
    pub min: f32,
    /// The greatest value any of them takes.
    pub max: f32,
}

/// A family whose seat views encode as numbers.
pub trait Encode: Game {
    /// Length of the encoding.
    const OBS_LEN: usize;
    /// The fields, in order, covering `0..OBS_LEN`.
    const FIELDS: &'static [Field];

    /// Writes `view` into `out[..OBS_LEN]` (every entry written; `out`
    /// is at least [`Encode::OBS_LEN`] long).
    fn encode(view: &Self::View<'_>, out: &mut [f32]);

    /// [`Encode::encode`] into an `out` whose first [`Encode::OBS_LEN`]
    /// entries are zero already (a new zeroed array): the same numbers,
    /// without zeroing them again.
    fn encode_zeroed(view: &Self::View<'_>, out: &mut [f32]) {
        Self::encode(view, out)
    }

    /// The field named `name`.
    fn field(name: &str) -> Option<Field> {
        Self::FIELDS.iter().copied().find(|f| f.name == name)
    }
}

/// Fields from (name, len, min, max), offsets laid end to end.
pub(crate) const fn layout<const N: usize>(
    spec: [(&'static str, usize, f32, f32); N],
) -> [Field; N] {
    let mut out = [Field {
        name: "",
        offset: 0,
        len: 0,
        min: 0.0,
        max: 0.0,
    }; N];
    let mut at = 0;
    let mut i = 0;
    while i < N {
        let (name, len, min, max) = spec[i];
        out[i] = Field {
            name,
            offset: at,
            len,
            min,
            max,
        };
        at += len;
        i += 1;
    }
    out
}

/// The end of the last field.
pub(crate) const fn total(fields: &[Field]) -> usize {
    let f = fields[fields.len() - 1];
    f.offset + f.len
}

/// Hands out the fields of a zeroed buffer in order, each split off the
/// front of what is left, so that an encoder may hold several at once;
/// debug builds check that the encoder asks for them by the names of the
/// layout.
pub(crate) struct Writer<'a> {
    rest: &'a mut [f32],
    fields: &'static [Field],
    next: usize,
}

impl<'a> Writer<'a> {
    /// Zeroes `out[..len]` of the layout, unless it is `zeroed` already.
    pub(crate) fn new(out: &'a mut [f32], fields: &'static [Field], zeroed: bool) -> Writer<'a> {
        let n = total(fields);
        assert!(
            out.len() >= n,
            "the buffer holds {} numbers; the encoding has {n}",
            out.len()
        );
        if zeroed {
            debug_assert!(out[..n].iter().all(|&x| x.to_bits() == 0), "not zeroed");
        } else {
            out[..n].fill(0.0);
        }
        Writer {
            rest: &mut out[..n],
            fields,
            next: 0,
        }
    }

    /// The next field, which must be `name`.
    pub(crate) fn field(&mut self, name: &str) -> &'a mut [f32] {
        let f = self.fields[self.next];
        debug_assert_eq!(f.name, name, "field {} written out of order", self.next);
        let _ = name;
        self.next += 1;
        let (field, rest) = std::mem::take(&mut self.rest).split_at_mut(f.len);
        self.rest = rest;
        field
    }

    /// Checks that every field was written.
    pub(crate) fn done(self) {
        debug_assert_eq!(self.next, self.fields.len(), "every field written");
        debug_assert!(self.rest.is_empty(), "the fields cover the layout");
    }
}

/// Sets `out[i] = 1` if `i` is some.
pub(crate) fn one_hot(out: &mut [f32], i: Option<usize>) {
    if let Some(i) = i {
        out[i] = 1.0;
    }
}

/// `x % n` for an `x` below `2 · n`: a seat's slot from `p + n - seat`
/// without a division.
pub(crate) fn wrap(x: usize, n: usize) -> usize {
    debug_assert!(x < 2 * n, "{x} beyond twice {n}");
    if x >= n {
        x - n
    } else {
        x
    }
}

/// `x / scale` clamped to `lo..=hi`.
pub(crate) fn scaled(x: f32, scale: f32, lo: f32, hi: f32) -> f32 {
    (x / scale).clamp(lo, hi)
}

/// The 53 card counts of a set: suited kinds 0, 0.5 or 1 (one or two
/// copies, index rank × 4 + suit), jokers / 8 at 52. `out` is zeroed, so
/// an empty set writes nothing.
pub(crate) fn cards(out: &mut [f32], set: CardSet) {
    if set.is_empty() {
        return;
    }
    let (lo, hi, jokers) = set.raw();
    let mut bits = lo;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out[i] = 0.5;
    }
    let mut bits = hi;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out[i] = 1.0;
    }
    out[52] = jokers as f32 / 8.0;
}

/// `FIELD_HALVES[x]`: the copies of each suit's card in a group's suit
/// field `x` (two bits a suit, ♣ lowest), / 2 (0, 0.5 or 1), in suit
/// order: the same numbers as `count as f32 / 2.0`, by one table load.
const FIELD_HALVES: [[f32; 4]; 256] = {
    let mut a = [[0.0f32; 4]; 256];
    let mut x = 0;
    while x < 256 {
        let mut s = 0;
        while s < 4 {
            a[x][s] = match x >> (2 * s) & 3 {
                0 => 0.0,
                1 => 0.5,
                2 => 1.0,
                _ => 1.5,
            };
            s += 1;
        }
        x += 1;
    }
    a
};

/// Numbers per group in the `groups` field.
pub const GROUP_FEATURES: usize = 30;
/// Numbers per player in the `table_flags` field.
const TABLE_FLAGS: usize = 5;
const K: usize = Card::KINDS;
const P: usize = MAX_PLAYERS;

const DECORATED_FIELDS: [Field; 24] = layout([
    ("players", 5, 0.0, 1.0),
    ("phase", 5, 0.0, 1.0),
    ("current", P, 0.0, 1.0),
    ("starter", P, 0.0, 1.0),
    ("heart_aces_rule", 1, 0.0, 1.0),
    ("hand", K, 0.0, 1.0),
    ("pending_wilds", K, 0.0, 1.0),
    ("hand_sizes", P, 0.0, 1.0),
    ("known", P * K, 0.0, 1.0),
    ("pile", K, 0.0, 1.0),
    ("pile_size", 1, 0.0, 1.0),
    ("pile_top", K, 0.0, 1.0),
    ("pile_flags", 2, 0.0, 1.0),
    ("twin_card", K, 0.0, 1.0),
    ("stock_size", 1, 0.0, 1.0),
    ("stock_bottom", K, 0.0, 1.0),
    ("cut_cards", K, 0.0, 1.0),
    ("turn", 4, 0.0, 1.0),
    ("pickup_top", K, 0.0, 1.0),
    ("turns", 1, 0.0, 1.0),
    ("totals", P, -2.0, 2.0),
    ("opening_minimum", P, 0.0, 1.0),
    ("table_flags", P * TABLE_FLAGS, 0.0, 1.0),
    ("groups", P * MAX_GROUPS * GROUP_FEATURES, 0.0, 1.0),
]);

/// Length of the decorated encoding.
pub const DECORATED_OBS_LEN: usize = total(&DECORATED_FIELDS);

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::Cut => 0,
        Phase::FirstDiscard => 1,
        Phase::Draw => 2,
        Phase::Meld => 3,
        Phase::Over => 4,
    }
}

fn canasta_index(k: CanastaKind) -> usize {
    match k {
        CanastaKind::BlackWild => 0,
        CanastaKind::Black => 1,
        CanastaKind::Red => 2,
        CanastaKind::RedWild => 3,
        CanastaKind::Gold => 4,
    }
}

impl Encode for GameState {
    const OBS_LEN: usize = DECORATED_OBS_LEN;
    const FIELDS: &'static [Field] = &DECORATED_FIELDS;

    fn encode(v: &SeatView<'_>, out: &mut [f32]) {
        encode_decorated(v, out, false)
    }

    fn encode_zeroed(v: &SeatView<'_>, out: &mut [f32]) {
        encode_decorated(v, out, true)
    }
}

/// The count of one copy of each card kind in the card fields: 1/2 a
/// suited copy (two at most), 1/8 a joker (eight at most).
const COPY: [f32; K] = {
    let mut a = [0.5f32; K];
    a[K - 1] = 0.125;
    a
};

/// `EIGHTHS[k]` = `k / 8`, for the group counts: any `u8` (a group's
/// jokers) without a bounds check.
const EIGHTHS: [f32; 256] = {
    let mut a = [0.0f32; 256];
    let mut k = 0;
    while k < 256 {
        a[k] = k as f32 / 8.0;
        k += 1;
    }
    a
};

/// `FLAG_PAIRS[flags & 3]`: a group's `FLAG_NEW` and `FLAG_RECEIVED`
/// bits as the two numbers of the `groups` field, by one load.
const FLAG_PAIRS: [[f32; 2]; 4] = {
    let mut a = [[0.0f32; 2]; 4];
    let mut x = 0;
    while x < 4 {
        a[x] = [
            (x as u8 & FLAG_NEW != 0) as u8 as f32,
            (x as u8 & FLAG_RECEIVED != 0) as u8 as f32,
        ];
        x += 1;
    }
    a
};

/// Adds each card's copy ([`COPY`]) to its kind's count.
#[inline]
fn count(out: &mut [f32; K], cards: &[Card]) {
    let mut add = |c: Card| {
        let i = c.index() as usize;
        out[i] += COPY[i];
    };
    // Two cards a turn of the loop: a pile holds dozens.
    let (pairs, rest) = cards.as_chunks::<2>();
    for &[a, b] in pairs {
        add(a);
        add(b);
    }
    rest.iter().copied().for_each(add);
}

/// The `K` numbers of a card field.
fn kinds(f: &mut [f32]) -> &mut [f32; K] {
    f.try_into().expect("a card field holds one number a kind")
}

/// One group's [`GROUP_FEATURES`] numbers (docs/ENCODING.md).
fn group(f: &mut [f32; GROUP_FEATURES], g: &Group) {
    let (naturals, twos) = g.suit_fields();
    f[0] = 1.0;
    match g.rank_index() {
        WILD_GROUP => f[12] = 1.0,
        r => {
            f[1 + r as usize - Rank::Four as usize] = 1.0;
            f[13..17].copy_from_slice(&FIELD_HALVES[naturals as usize]);
        }
    }
    f[17..21].copy_from_slice(&FIELD_HALVES[twos as usize]);
    f[21] = EIGHTHS[g.jokers() as usize];
    f[22] = EIGHTHS[g.len() as usize];
    one_hot(&mut f[23..28], g.canasta_kind().map(canasta_index));
    f[28..30].copy_from_slice(&FLAG_PAIRS[usize::from(g.flags() & (FLAG_NEW | FLAG_RECEIVED))]);
}

/// The offset of decorated field `name`, as a constant.
const fn at(name: &str) -> usize {
    let mut i = 0;
    while i < DECORATED_FIELDS.len() {
        let (a, b) = (DECORATED_FIELDS[i].name.as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return DECORATED_FIELDS[i].offset;
            }
        }
        i += 1;
    }
    panic!("no such field")
}

const PLAYERS: usize = at("players");
const PHASE: usize = at("phase");
const CURRENT: usize = at("current");
const STARTER: usize = at("starter");
const HEART_ACES_RULE: usize = at("heart_aces_rule");
const HAND: usize = at("hand");
const PENDING_WILDS: usize = at("pending_wilds");
const HAND_SIZES: usize = at("hand_sizes");
const KNOWN: usize = at("known");
const PILE: usize = at("pile");
const PILE_SIZE: usize = at("pile_size");
const PILE_TOP: usize = at("pile_top");
const PILE_FLAGS: usize = at("pile_flags");
const TWIN_CARD: usize = at("twin_card");
const STOCK_SIZE: usize = at("stock_size");
const STOCK_BOTTOM: usize = at("stock_bottom");
const CUT_CARDS: usize = at("cut_cards");
const TURN: usize = at("turn");
const PICKUP_TOP: usize = at("pickup_top");
const TURNS: usize = at("turns");
const TOTALS: usize = at("totals");
const OPENING_MINIMUM: usize = at("opening_minimum");
const TABLE_FLAGS_AT: usize = at("table_flags");
const GROUPS: usize = at("groups");

/// The one-hot fields of a decorated row, in [`HeldRow::ones`].
const ONE_HOTS: usize = 7;
/// No number of a one-hot field set.
const NONE: u16 = u16::MAX;

/// A few cards counted into a card field (the stock's known bottom,
/// the cut cards): three at most.
#[derive(Clone, Copy, PartialEq)]
struct Few {
    len: u8,
    cards: [u8; 3],
}

impl Few {
    const NONE: Few = Few {
        len: 0,
        cards: [0; 3],
    };

    /// The first three of `cards`, one by one (a copy of so few bytes
    /// costs more as a call).
    fn of(cards: &[Card]) -> Few {
        let at = |i: usize| cards.get(i).map_or(0, |c| c.index());
        Few {
            len: cards.len().min(3) as u8,
            cards: [at(0), at(1), at(2)],
        }
    }
}

/// What a decorated row holds, so that [`HeldRow::encode`] writes only
/// the numbers that changed: the one-hot fields' ones, the card sets of
/// the `hand`, `pending_wilds` and `known` fields, the cards counted
/// into `pile`, `stock_bottom` and `cut_cards`, and each seat slot's run
/// of groups (the rest of the `groups` field zero). A row is a seat's
/// view of a table a step after the last: it changes by a card or two,
/// a group or two, and some numbers written whole (sizes, flags).
#[derive(Clone, Copy)]
pub struct HeldRow {
    /// The players of the last view written, 0 for a row all zero.
    players: u8,
    /// The seat of the last view written ([`NO_SEAT`] for none).
    seat: u8,
    /// False while an encoding is under way: a row left so (an encoder
    /// that stopped) may hold anything.
    known: bool,
    /// The index in the row of each one-hot field's one, or [`NONE`]:
    /// `players`, `phase`, `current`, `starter`, `pile_top`,
    /// `twin_card`, `pickup_top`.
    ones: [u16; ONE_HOTS],
    /// The sets written into `hand`, `pending_wilds` and slot `q`'s
    /// `known` (at `2 + q`).
    sets: [CardSet; 2 + P],
    /// The pile counted into `pile`: `pile[..pile_len]`.
    pile_len: u8,
    pile: [u8; PACK],
    bottom: Few,
    cut: Few,
    /// Slot `q`'s groups are those whose [`Group::packed`] words are
    /// `groups[q][..len[q]]` (a word compares in one instruction; the
    /// derived comparison of five fields costs more, and a held word is
    /// not made again at each compare); what follows is never read.
    len: [u8; P],
    groups: [[u64; MAX_GROUPS]; P],
    /// The total written into slot `q`'s `totals` and `opening_minimum`
    /// numbers ([`NO_TOTAL`] for none): they change only between hands.
    totals: [i32; P],
    /// The [`table_key`] written into slot `q`'s `table_flags` ([`NO_TABLE`]
    /// for none): it changes only on a meld or a red three.
    tables: [u64; P],
}

/// No seat written: no seat's number.
const NO_SEAT: u8 = u8::MAX;
/// No total written: below every total a hand can leave.
const NO_TOTAL: i32 = i32::MIN;
/// No table flags written: above every [`table_key`].
const NO_TABLE: u64 = u64::MAX;

impl HeldRow {
    /// A row all zero.
    pub const ZERO: HeldRow = HeldRow {
        players: 0,
        seat: NO_SEAT,
        known: true,
        ones: [NONE; ONE_HOTS],
        sets: [CardSet::EMPTY; 2 + P],
        pile_len: 0,
        pile: [0; PACK],
        bottom: Few::NONE,
        cut: Few::NONE,
        len: [0; P],
        groups: [[0; MAX_GROUPS]; P],
        totals: [NO_TOTAL; P],
        tables: [NO_TABLE; P],
    };

    /// [`Encode::encode`] of decorated view `v` into a row that holds
    /// what `self` says; `self` then says what it holds now. The same
    /// numbers as [`Encode::encode`], those that the row holds already
    /// not written again.
    pub fn encode(&mut self, v: &SeatView<'_>, out: &mut [f32]) {
        encode_held::<NOTHING>(v, out, self)
    }

    /// [`HeldRow::encode`] of the view of the seat to act after a step
    /// that changed only the mover's part of the state: its hand, known
    /// cards and table, the turn and the pile (as a meld-phase step other
    /// than a discard or a reset does; a refused one puts back just that
    /// part). When the row holds the same seat's view from before the
    /// step, the other seats' slots (hand sizes, known cards, totals,
    /// tables, groups), the numbers of the hand (players, starter, rules,
    /// stock, cut, turns, the seat's own totals) and a pile of the same
    /// length hold their numbers already and are not compared again;
    /// otherwise this is [`HeldRow::encode`].
    pub fn encode_mover(&mut self, v: &SeatView<'_>, out: &mut [f32]) {
        encode_held::<ALL>(v, out, self)
    }

    /// [`HeldRow::encode`] of the view of the seat to act after a
    /// draw-phase step (a draw, the free pickup, taking the pile): it
    /// changes the mover's part, the stock and the pile, never another
    /// seat's. When the row holds the same seat's view from before the
    /// step, the other seats' slots (hand sizes, known cards, totals,
    /// tables, groups) and the seat's own totals (set for the hand) hold
    /// their numbers already and are not compared again; the other
    /// numbers of the hand and the pile are compared as
    /// [`HeldRow::encode`] compares them. Otherwise this is
    /// [`HeldRow::encode`].
    pub fn encode_drawn(&mut self, v: &SeatView<'_>, out: &mut [f32]) {
        encode_held::<SEATS>(v, out, self)
    }

    /// [`HeldRow::encode_mover`] after a meld step that changed none of
    /// the mover's table flags: an extend, a lay, a wild taken out, a
    /// swap, a conversion or a group taken back. The opening is marked
    /// only on taking the rest of the pile and at the discard (D-8), red
    /// threes are laid on drawing (D-4), twins counted at the discard
    /// (D-7), the ♥A counted by its own steps (D-9.4, D-11.5); nor do
    /// they change the phase or the turn's flags (the free pickup, the
    /// pickup, the duty to go out: D-6.1, D-6.2, I-26). So when the row
    /// holds the same seat's view from before the step, the seat's
    /// `table_flags`, the `phase`, `current` and `turn` fields and the
    /// `pickup_top` are not compared either.
    pub fn encode_melded(&mut self, v: &SeatView<'_>, out: &mut [f32]) {
        encode_held::<MELDED>(v, out, self)
    }
}

/// What a step since a seat's row was written left as it was, when the
/// row holds that seat's view from before the step and the seat is to
/// act: [`encode_held`]'s `KEPT`, a constant, so that each kind of row
/// has its own copy of the function, without the others' branches.
/// Nothing known: every field is compared.
const NOTHING: u8 = 0;
/// The other seats' slots ([`HeldRow::encode_drawn`]).
const SEATS: u8 = 1;
/// The other seats' slots, the numbers of the hand and a pile of the
/// same length ([`HeldRow::encode_mover`]).
const ALL: u8 = 2;
/// As [`ALL`], and the seat's table flags, the phase and the turn's
/// flags ([`HeldRow::encode_melded`]).
const MELDED: u8 = 3;

/// Writes slot run `run` (zero but for the `*len` groups whose packed
/// words are in `held`)
/// with `groups`, each only where it is not there already; `held` then
/// holds them. A run of as many groups as before (most steps) is only
/// compared.
#[inline(always)]
fn held_run(
    run: &mut [[f32; GROUP_FEATURES]; MAX_GROUPS],
    held: &mut [u64; MAX_GROUPS],
    len: &mut u8,
    groups: &[Group],
) {
    let old = usize::from(*len);
    let new = groups.len();
    let same = old.min(new);
    // First the groups that differ, one bit each, by a loop that only
    // compares (each packed word a load or two), then those rewritten.
    const _: () = assert!(MAX_GROUPS <= 64, "a bit a group");
    let mut changed = 0u64;
    for (i, (h, g)) in held.iter().zip(&groups[..same]).enumerate() {
        changed |= u64::from(*h != g.packed()) << i;
    }
    while changed != 0 {
        let i = changed.trailing_zeros() as usize;
        changed &= changed - 1;
        let (f, g) = (&mut run[i], &groups[i]);
        *f = [0.0; GROUP_FEATURES];
        group(f, g);
        held[i] = g.packed();
    }
    if old == new {
        return;
    }
    for ((f, h), g) in run[same..]
        .iter_mut()
        .zip(&mut held[same..])
        .zip(&groups[same..])
    {
        group(f, g);
        *h = g.packed();
    }
    if old > new {
        run[new..old].fill([0.0; GROUP_FEATURES]);
    }
    *len = new as u8;
}

/// `SET_VALUE[lo | hi << 1]`: a card field's number for one kind from
/// its bits in a set's `lo` and `hi` words, as [`cards`] writes it.
const SET_VALUE: [f32; 4] = [0.0, 0.5, 1.0, 1.0];

/// The changed bits of a card set above which [`cards_changed`] writes
/// the field whole: a changed kind costs several instructions, a kind
/// of the new set written by [`cards`] one or two, the zeroing a few.
const WHOLE: u32 = 8;

/// Rewrites card field `out`, which holds set `old` as [`cards`] wrote
/// it, with set `new`: only the kinds whose counts differ, or the whole
/// field when many do.
#[inline(always)]
fn cards_changed(out: &mut [f32; K], old: &mut CardSet, new: CardSet) {
    if *old == new {
        return;
    }
    let (ol, oh, _) = old.raw();
    let (nl, nh, nj) = new.raw();
    if (ol ^ nl).count_ones() + (oh ^ nh).count_ones() > WHOLE {
        // Another hand (the next seat's, after a discard): zeroed and
        // written whole, a kind in a store or two.
        *out = [0.0; K];
        cards(out, new);
        *old = new;
        return;
    }
    let mut bits = (ol ^ nl) | (oh ^ nh);
    while bits != 0 {
        let i = bits.trailing_zeros();
        bits &= bits - 1;
        let x = (nl >> i & 1) | (nh >> i & 1) << 1;
        out[i as usize] = SET_VALUE[x as usize];
    }
    out[K - 1] = if new.is_empty() { 0.0 } else { nj as f32 / 8.0 };
    *old = new;
}

/// Moves a one-hot field's one (at `*held` in `out`, or none) to `at`.
#[inline(always)]
fn one_moved(out: &mut [f32; DECORATED_OBS_LEN], held: &mut u16, at: Option<usize>) {
    let new = at.map_or(NONE, |i| i as u16);
    if *held != new {
        if let Some(x) = out.get_mut(usize::from(*held)) {
            *x = 0.0;
        }
        if let Some(i) = at {
            out[i] = 1.0;
        }
        *held = new;
    }
}

/// Rewrites card field `out`, which holds the cards of `held` counted,
/// with `cards` (three at most) counted.
#[inline(always)]
fn few_changed(out: &mut [f32; K], held: &mut Few, cards: &[Card]) {
    let new = Few::of(cards);
    if *held != new {
        for &c in &held.cards[..usize::from(held.len)] {
            out[usize::from(c)] = 0.0;
        }
        count(out, cards);
        *held = new;
    }
}

/// The `K` numbers of the card field at `at`.
#[inline(always)]
fn kinds_at(out: &mut [f32; DECORATED_OBS_LEN], at: usize) -> &mut [f32; K] {
    kinds(&mut out[at..at + K])
}

/// [`HeldRow::encode`]: the numbers of [`Encode::encode`], written only
/// where the row, holding what `h` says, holds others; what `KEPT`
/// ([`NOTHING`], [`SEATS`], [`ALL`] or [`MELDED`]) says is not compared
/// when the row holds the same seat's view and the seat is to act
/// ([`HeldRow::encode_mover`], [`HeldRow::encode_drawn`],
/// [`HeldRow::encode_melded`]).
fn encode_held<const KEPT: u8>(v: &SeatView<'_>, out: &mut [f32], h: &mut HeldRow) {
    let n = v.players();
    let seat = v.seat();
    assert!(n <= P && seat < n, "{n} players, seat {seat}");
    let out: &mut [f32; DECORATED_OBS_LEN] = (&mut out[..DECORATED_OBS_LEN])
        .try_into()
        .expect("the buffer holds the encoding");
    if !h.known || usize::from(h.players) != n {
        // Left half written, or for another number of players: anew.
        out.fill(0.0);
        *h = HeldRow::ZERO;
        h.players = n as u8;
    }
    // Only the mover's part changed since this seat's row was written
    // (with the stock and the pile after a draw-phase step): the other
    // seats' slots, and after a meld-phase step the numbers of the hand
    // (players, starter, rules, stock, cut, turns), hold what they would
    // be written with.
    let same = usize::from(h.seat) == seat && v.current_player() == seat;
    if h.seat != NO_SEAT && usize::from(h.seat) != seat {
        // Another seat's view (the next seat's after a discard): its
        // slots hold the same players' groups, each `d` places back.
        runs_rotated(out, h, n, wrap(seat + n - usize::from(h.seat), n));
    }
    let seats = same && KEPT != NOTHING;
    let kept = same && (KEPT == ALL || KEPT == MELDED);
    // After a meld step that keeps the mover's table flags (`melded`),
    // the phase, the seat to act and the turn's flags are kept too: the
    // phase changes only on drawing and at the discard (or a hand's
    // end, after which no row is `same`), and the turn's free pickup,
    // pickup and duty to go out only on draw-phase steps and taking the
    // rest (D-6.1, D-6.2, I-26).
    let melded = same && KEPT == MELDED;
    let slots = if seats { 1 } else { n };
    h.seat = seat as u8;
    h.known = false;
    let slot = |p: usize| wrap(p + n - seat, n);
    let pack = PACK as f32;
    let [players, phase, current, starter, pile_top, twin, pickup_top] = &mut h.ones;
    if !melded {
        one_moved(out, phase, Some(PHASE + phase_index(v.phase())));
        one_moved(out, current, Some(CURRENT + slot(v.current_player())));
    }
    if !kept {
        one_moved(out, players, n.checked_sub(2).map(|i| PLAYERS + i));
        one_moved(out, starter, Some(STARTER + slot(v.starter())));
        out[HEART_ACES_RULE] = v.rules().heart_aces() as u8 as f32;
        out[STOCK_SIZE] = v.stock_len() as f32 / pack;
        few_changed(kinds_at(out, STOCK_BOTTOM), &mut h.bottom, v.stock_bottom());
        // Cut cards are shown only during the cut: later the field is
        // empty, and the held one is compared without asking the view.
        let f = kinds_at(out, CUT_CARDS);
        if v.phase() == Phase::Cut {
            few_changed(f, &mut h.cut, &v.cut_cards());
        } else {
            few_changed(f, &mut h.cut, &[]);
        }
        out[TURNS] = scaled(v.turns() as f32, v.rules().turn_cap as f32, 0.0, 1.0);
    }
    let [hand, pending, known @ ..] = &mut h.sets;
    cards_changed(kinds_at(out, HAND), hand, v.hand());
    cards_changed(kinds_at(out, PENDING_WILDS), pending, v.pending_wilds());
    let pile = v.pile();
    // A mover's step changes the pile's length (taking its rest), never
    // a card under it: after one, a pile as long as the held one is it.
    if !(kept && usize::from(h.pile_len) == pile.len()) {
        let old = usize::from(h.pile_len);
        let f = kinds_at(out, PILE);
        let prefix = old <= pile.len()
            && h.pile[..old]
                .iter()
                .zip(pile)
                .fold(0, |d, (&a, b)| d | (a ^ b.index()))
                == 0;
        let from = if prefix {
            old
        } else {
            *f = [0.0; K];
            0
        };
        let new = &pile[from..];
        count(f, new);
        if let [c] = new {
            // A discard: the common case, without a call to copy.
            h.pile[from] = c.index();
        } else {
            for (h, c) in h.pile[from..].iter_mut().zip(new) {
                *h = c.index();
            }
        }
        h.pile_len = pile.len() as u8;
        out[PILE_SIZE] = pile.len() as f32 / pack;
        // The top and its flags: of the pile and its freshness, which a
        // mover's step leaves as they are.
        one_moved(
            out,
            pile_top,
            v.pile_top().map(|c| PILE_TOP + c.index() as usize),
        );
        out[PILE_FLAGS] = v.pile_frozen() as u8 as f32;
        out[PILE_FLAGS + 1] = v.pile_top_fresh() as u8 as f32;
        one_moved(
            out,
            twin,
            v.twin_card().map(|c| TWIN_CARD + c.index() as usize),
        );
    }
    if !melded {
        let pickup = v.pickup();
        out[TURN] = v.free_pickup_offered() as u8 as f32;
        out[TURN + 1] = v.must_go_out() as u8 as f32;
        out[TURN + 2] = pickup.is_some() as u8 as f32;
        out[TURN + 3] = pickup.is_some_and(|p| p.rest_taken) as u8 as f32;
        one_moved(
            out,
            pickup_top,
            pickup.map(|p| PICKUP_TOP + p.top.index() as usize),
        );
    }
    // Slot `q` holds player `p`, `q` places after the viewer. The slots
    // of absent players stay zero (a row for another number of players
    // is cleared whole); those of `slots..n` keep what they hold.
    let (head, groups) = out.split_at_mut(GROUPS);
    let head: &mut [f32; GROUPS] = head.try_into().expect("the fields before `groups`");
    let (runs, _) = groups.as_chunks_mut::<{ MAX_GROUPS * GROUP_FEATURES }>();
    let runs: &mut [[f32; MAX_GROUPS * GROUP_FEATURES]; P] =
        runs.try_into().expect("one run of groups a seat slot");
    let totals = v.totals();
    let mut p = seat;
    // By index: the slots' fields are in several arrays, and a loop over
    // zipped iterators costs more than the few numbers of a slot.
    for q in 0..slots {
        head[HAND_SIZES + q] = v.hand_size(p) as f32 / pack;
        let at = KNOWN + q * K;
        let f = kinds(&mut head[at..at + K]);
        cards_changed(f, &mut known[q], v.known(p));
        // The totals change only between hands: a row of the same seat
        // after a step of the same hand (`seats`) holds them.
        if !seats && h.totals[q] != totals[p] {
            head[TOTALS + q] = scaled(totals[p] as f32, 10_000.0, -2.0, 2.0);
            head[OPENING_MINIMUM + q] = scaled(v.opening_minimum(p) as f32, 200.0, 0.0, 1.0);
            h.totals[q] = totals[p];
        }
        let t = v.table(p);
        // After a meld step that keeps them (`melded`), the mover's
        // table flags are the ones held.
        if !melded {
            let tk = table_key(t);
            if h.tables[q] != tk {
                let at = TABLE_FLAGS_AT + q * TABLE_FLAGS;
                table_flags((&mut head[at..at + TABLE_FLAGS]).try_into().unwrap(), t);
                h.tables[q] = tk;
            }
        }
        debug_assert_eq!(h.tables[q], table_key(t), "table flags of slot {q}");
        let (run, _) = runs[q].as_chunks_mut::<GROUP_FEATURES>();
        let run = run.try_into().expect("a run holds MAX_GROUPS groups");
        held_run(run, &mut h.groups[q], &mut h.len[q], t.groups());
        p = if p + 1 == n { 0 } else { p + 1 };
    }
    h.known = true;
    #[cfg(debug_assertions)]
    {
        let mut again = vec![0.0f32; DECORATED_OBS_LEN];
        encode_decorated(v, &mut again, true);
        if let Some(i) = (0..DECORATED_OBS_LEN).find(|&i| out[i].to_bits() != again[i].to_bits()) {
            panic!(
                "the held row encodes number {i} as {}, not {}",
                out[i], again[i]
            );
        }
    }
}

/// Numbers per seat slot in the `groups` field.
const RUN: usize = MAX_GROUPS * GROUP_FEATURES;

/// Moves the runs of groups of a row that holds a view of `n` players
/// from one seat, and what `h` says of them, to where the view from the
/// seat `d` places after it puts them: slot `q` takes the run of slot
/// `q + d` (mod `n`). A slot's groups are the same from every seat, so
/// after the move each run differs from the new view's only where the
/// table does, and moving a run costs less than writing its groups anew.
/// Only the used prefix of a run is moved: the rest is zero, as `h.len`
/// says. The slots' other numbers (a few each) are compared and written
/// as ever.
fn runs_rotated(out: &mut [f32; DECORATED_OBS_LEN], h: &mut HeldRow, n: usize, d: usize) {
    debug_assert!(0 < d && d < n, "a move of {d} among {n} slots");
    let runs = &mut out[GROUPS..GROUPS + n * RUN];
    // By swaps along each cycle of the move (`gcd(n, d)` of them):
    // swapping slots `a` and `a + d`, then `a + d` and `a + 2d`, and so
    // on, leaves each slot of the cycle holding the next one's run and
    // the last the first's.
    let (mut cycles, mut y) = (n, d);
    while y != 0 {
        (cycles, y) = (y, cycles % y);
    }
    for s in 0..cycles {
        let mut a = s;
        loop {
            let b = wrap(a + d, n);
            if b == s {
                break;
            }
            let used = usize::from(h.len[a].max(h.len[b]));
            let (lo, hi) = (a.min(b), a.max(b));
            let (first, second) = runs.split_at_mut(hi * RUN);
            swap_numbers(
                &mut first[lo * RUN..lo * RUN + used * GROUP_FEATURES],
                &mut second[..used * GROUP_FEATURES],
            );
            let (first, second) = h.groups.split_at_mut(hi);
            first[lo][..used].swap_with_slice(&mut second[0][..used]);
            h.len.swap(a, b);
            a = b;
        }
    }
}

/// Swaps two runs of numbers of the same length, eight at a time (a
/// few vector moves; `swap_with_slice` of `f32`s goes number by number
/// or through calls).
#[inline(always)]
fn swap_numbers(x: &mut [f32], y: &mut [f32]) {
    let (xs, xr) = x.as_chunks_mut::<8>();
    let (ys, yr) = y.as_chunks_mut::<8>();
    for (a, b) in xs.iter_mut().zip(ys) {
        std::mem::swap(a, b);
    }
    for (a, b) in xr.iter_mut().zip(yr) {
        std::mem::swap(a, b);
    }
}

/// What a table's [`TABLE_FLAGS`] numbers are read from, in one word:
/// equal words, equal numbers.
#[inline(always)]
fn table_key(t: &crate::table::Table) -> u64 {
    u64::from(t.opened)
        | u64::from(t.heart_aces) << 8
        | u64::from(t.heart_aces_new) << 16
        | u64::from(t.twins) << 24
        | u64::from(t.red_threes.len()) << 40
}

/// A table's [`TABLE_FLAGS`] numbers in the `table_flags` field.
#[inline(always)]
fn table_flags(f: &mut [f32; TABLE_FLAGS], t: &crate::table::Table) {
    f[0] = t.opened as u8 as f32;
    f[1] = scaled(t.red_threes.len() as f32, 4.0, 0.0, 1.0);
    f[2] = scaled(t.twins as f32, 8.0, 0.0, 1.0);
    f[3] = scaled(t.heart_aces as f32, 2.0, 0.0, 1.0);
    f[4] = scaled(t.heart_aces_new as f32, 2.0, 0.0, 1.0);
}

/// [`Encode::encode`] of a decorated view, into an `out` already
/// `zeroed` or not. The fields of a seat slot are written in one pass
/// over the slots, after the others.
fn encode_decorated(v: &SeatView<'_>, out: &mut [f32], zeroed: bool) {
    let n = v.players();
    let seat = v.seat();
    assert!(n <= P && seat < n, "{n} players, seat {seat}");
    let slot = |p: usize| wrap(p + n - seat, n);
    let pack = PACK as f32;
    let mut w = Writer::new(out, &DECORATED_FIELDS, zeroed);
    one_hot(w.field("players"), n.checked_sub(2));
    one_hot(w.field("phase"), Some(phase_index(v.phase())));
    one_hot(w.field("current"), Some(slot(v.current_player())));
    one_hot(w.field("starter"), Some(slot(v.starter())));
    w.field("heart_aces_rule")[0] = v.rules().heart_aces() as u8 as f32;
    cards(w.field("hand"), v.hand());
    cards(w.field("pending_wilds"), v.pending_wilds());
    let hand_sizes = w.field("hand_sizes");
    let (known, _) = w.field("known").as_chunks_mut::<K>();
    let pile = v.pile();
    count(kinds(w.field("pile")), pile);
    w.field("pile_size")[0] = pile.len() as f32 / pack;
    one_hot(
        w.field("pile_top"),
        v.pile_top().map(|c| c.index() as usize),
    );
    let f = w.field("pile_flags");
    f[0] = v.pile_frozen() as u8 as f32;
    f[1] = v.pile_top_fresh() as u8 as f32;
    one_hot(
        w.field("twin_card"),
        v.twin_card().map(|c| c.index() as usize),
    );
    w.field("stock_size")[0] = v.stock_len() as f32 / pack;
    count(kinds(w.field("stock_bottom")), v.stock_bottom());
    let f = kinds(w.field("cut_cards"));
    if v.phase() == Phase::Cut {
        count(f, &v.cut_cards());
    }
    let pickup = v.pickup();
    let f = w.field("turn");
    f[0] = v.free_pickup_offered() as u8 as f32;
    f[1] = v.must_go_out() as u8 as f32;
    f[2] = pickup.is_some() as u8 as f32;
    f[3] = pickup.is_some_and(|p| p.rest_taken) as u8 as f32;
    one_hot(
        w.field("pickup_top"),
        pickup.map(|p| p.top.index() as usize),
    );
    w.field("turns")[0] = scaled(v.turns() as f32, v.rules().turn_cap as f32, 0.0, 1.0);
    let totals = w.field("totals");
    let opening = w.field("opening_minimum");
    let (flags, _) = w.field("table_flags").as_chunks_mut::<TABLE_FLAGS>();
    let (runs, _) = w
        .field("groups")
        .as_chunks_mut::<{ MAX_GROUPS * GROUP_FEATURES }>();
    w.done();
    // Slot `q` holds player `p`, `q` places after the viewer.
    let mut p = seat;
    for q in 0..n {
        hand_sizes[q] = v.hand_size(p) as f32 / pack;
        cards(&mut known[q], v.known(p));
        totals[q] = scaled(v.totals()[p] as f32, 10_000.0, -2.0, 2.0);
        opening[q] = scaled(v.opening_minimum(p) as f32, 200.0, 0.0, 1.0);
        let t = v.table(p);
        table_flags(&mut flags[q], t);
        let (run, _) = runs[q].as_chunks_mut::<GROUP_FEATURES>();
        for (f, g) in run.iter_mut().zip(t.groups()) {
            group(f, g);
        }
        p = if p + 1 == n { 0 } else { p + 1 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Action, Rules};

    /// A row written from one seat and then from another holds what
    /// [`Encode::encode`] writes from the other, for every pair of seats
    /// of 2, 3, 4 and 6 players, at points of hands with groups on the
    /// table: the slots are moved by every distance [`runs_rotated`]
    /// takes, along one cycle or several (6 players 2, 3 or 4 places on).
    #[test]
    fn rows_moved_to_another_seat_encode_as_encode_does() {
        let mut row = vec![0.0f32; DECORATED_OBS_LEN];
        let mut want = vec![0.0f32; DECORATED_OBS_LEN];
        let mut legal = Vec::new();
        let mut grouped = 0;
        for n in [2, 3, 4, 6] {
            let mut rules = Rules::default();
            rules.set("players", &n.to_string()).unwrap();
            for seed in 0..3 {
                let mut g = GameState::new(rules, seed);
                for step in 0..400 {
                    if g.is_terminal() {
                        break;
                    }
                    g.legal_actions(&mut legal);
                    // Lays and extends three steps in four, so that
                    // tables fill, else one of the discards, else the first.
                    let meld = legal
                        .iter()
                        .position(|a| matches!(a, Action::Lay { .. } | Action::Extend { .. }));
                    let discard = legal.iter().position(|a| matches!(a, Action::Discard(_)));
                    let discards = legal
                        .iter()
                        .filter(|a| matches!(a, Action::Discard(_)))
                        .count();
                    let a = match (meld, discard) {
                        (Some(i), _) if step % 4 != 0 => i,
                        (_, Some(i)) => i + step % discards,
                        _ => 0,
                    };
                    g.apply(legal[a]).unwrap();
                    if step % 50 != 49 {
                        continue;
                    }
                    grouped += (0..n).filter(|&p| !g.table(p).groups().is_empty()).count();
                    for from in 0..n {
                        for to in 0..n {
                            let mut held = HeldRow::ZERO;
                            row.fill(0.0);
                            held.encode(&g.view(from), &mut row);
                            held.encode(&g.view(to), &mut row);
                            encode_decorated(&g.view(to), &mut want, false);
                            let differ = (0..DECORATED_OBS_LEN)
                                .find(|&i| row[i].to_bits() != want[i].to_bits());
                            assert_eq!(differ, None, "{n} players, seed {seed}, {from} to {to}");
                        }
                    }
                }
            }
        }
        assert!(grouped > 10, "{grouped} tables with groups");
    }
}
