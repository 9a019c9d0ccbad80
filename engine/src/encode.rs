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
        Writer::new_but(out, fields, zeroed, total(fields))
    }

    /// [`Writer::new`], where a `zeroed` buffer is zero only in
    /// `out[..zero]` (the rest is the encoder's to clear).
    fn new_but(
        out: &'a mut [f32],
        fields: &'static [Field],
        zeroed: bool,
        zero: usize,
    ) -> Writer<'a> {
        let n = total(fields);
        assert!(
            out.len() >= n,
            "the buffer holds {} numbers; the encoding has {n}",
            out.len()
        );
        if zeroed {
            debug_assert!(out[..zero].iter().all(|&x| x.to_bits() == 0), "not zeroed");
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
        encode_decorated(v, out, false, None)
    }

    fn encode_zeroed(v: &SeatView<'_>, out: &mut [f32]) {
        encode_decorated(v, out, true, None)
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

/// What the `groups` field of a decorated row holds: each seat slot's
/// run of groups as last encoded there (the rest of the field zero), so
/// that [`HeldGroups::encode`] writes only the groups that changed. A
/// row's groups are those of a table seen from a seat and change a
/// group or two a step, while the same seat is to act.
#[derive(Clone, Copy)]
pub struct HeldGroups {
    /// Slot `q`'s groups are `groups[q][..len[q]]`, each as its
    /// `packed` word (one comparison a group; what follows is never read).
    len: [u8; P],
    groups: [[u64; MAX_GROUPS]; P],
    /// False while an encoding is under way: a row left so (an encoder
    /// that stopped) may hold anything in its `groups` field.
    known: bool,
}

impl HeldGroups {
    /// The `groups` field of a row all zero.
    pub const ZERO: HeldGroups = HeldGroups {
        len: [0; P],
        groups: [[0; MAX_GROUPS]; P],
        known: true,
    };

    /// [`Encode::encode_zeroed`] of decorated view `v` into a row whose
    /// fields before `groups` are zero and whose `groups` field holds
    /// what `self` says; `self` then says what it holds now. The same
    /// numbers as [`Encode::encode`], the groups that the row holds
    /// already in the same place not written again.
    pub fn encode(&mut self, v: &SeatView<'_>, out: &mut [f32]) {
        encode_decorated(v, out, true, Some(self))
    }
}

/// Writes slot run `run` (zero but for the `*len` groups of `held`)
/// with `groups`, each only where it is not there already; `held` then
/// holds them.
#[inline(always)]
fn held_run(
    run: &mut [[f32; GROUP_FEATURES]],
    held: &mut [u64; MAX_GROUPS],
    len: &mut u8,
    groups: &[Group],
) {
    let old = usize::from(*len);
    let new = groups.len();
    let same = old.min(new);
    for ((f, h), g) in run.iter_mut().zip(held.iter_mut()).zip(&groups[..same]) {
        let k = g.packed();
        if *h != k {
            *f = [0.0; GROUP_FEATURES];
            group(f, g);
            *h = k;
        }
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

/// [`Encode::encode`] of a decorated view, into an `out` already
/// `zeroed` or not (but for the `groups` field, which holds what `held`
/// says, if some). The fields of a seat slot are written in one pass
/// over the slots, after the others.
fn encode_decorated(
    v: &SeatView<'_>,
    out: &mut [f32],
    zeroed: bool,
    mut held: Option<&mut HeldGroups>,
) {
    let n = v.players();
    let seat = v.seat();
    assert!(n <= P && seat < n, "{n} players, seat {seat}");
    let slot = |p: usize| wrap(p + n - seat, n);
    let pack = PACK as f32;
    let groups_at = DECORATED_FIELDS[DECORATED_FIELDS.len() - 1].offset;
    let zero = if held.is_some() {
        groups_at
    } else {
        DECORATED_OBS_LEN
    };
    let mut w = Writer::new_but(out, &DECORATED_FIELDS, zeroed, zero);
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
    if let Some(h) = held.as_deref_mut() {
        if !h.known {
            // Left half written: clear it all.
            runs.iter_mut().for_each(|r| r.fill(0.0));
            *h = HeldGroups::ZERO;
        }
        h.known = false;
        // Slots of absent players: none unless the row was another's.
        let absent = runs.iter_mut().zip(&mut h.groups).zip(&mut h.len).skip(n);
        for ((run, groups), len) in absent {
            if *len != 0 {
                held_run(run.as_chunks_mut().0, groups, len, &[]);
            }
        }
    }
    // Slot `q` holds player `p`, `q` places after the viewer.
    let mut p = seat;
    for q in 0..n {
        hand_sizes[q] = v.hand_size(p) as f32 / pack;
        cards(&mut known[q], v.known(p));
        totals[q] = scaled(v.totals()[p] as f32, 10_000.0, -2.0, 2.0);
        opening[q] = scaled(v.opening_minimum(p) as f32, 200.0, 0.0, 1.0);
        let t = v.table(p);
        let f = &mut flags[q];
        f[0] = t.opened as u8 as f32;
        f[1] = scaled(t.red_threes.len() as f32, 4.0, 0.0, 1.0);
        f[2] = scaled(t.twins as f32, 8.0, 0.0, 1.0);
        f[3] = scaled(t.heart_aces as f32, 2.0, 0.0, 1.0);
        f[4] = scaled(t.heart_aces_new as f32, 2.0, 0.0, 1.0);
        let (run, _) = runs[q].as_chunks_mut::<GROUP_FEATURES>();
        match held.as_deref_mut() {
            Some(h) => held_run(run, &mut h.groups[q], &mut h.len[q], t.groups()),
            None => {
                for (f, g) in run.iter_mut().zip(t.groups()) {
                    group(f, g);
                }
            }
        }
        p = if p + 1 == n { 0 } else { p + 1 };
    }
    if let Some(h) = held {
        h.known = true;
        #[cfg(debug_assertions)]
        {
            let mut again = vec![0.0f32; DECORATED_OBS_LEN];
            encode_decorated(v, &mut again, true, None);
            debug_assert!(
                out[groups_at..DECORATED_OBS_LEN]
                    .iter()
                    .zip(&again[groups_at..])
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "the held groups encode otherwise"
            );
        }
    }
}
