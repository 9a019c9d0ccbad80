//! The classic family's encoding ([`Encode`] for [`ClassicState`]), laid
//! out in docs/ENCODING.md. Cards are counted by classic kind (suits
//! matter only for the colour of threes): 15 numbers a set, the kinds of
//! [`Kind`] in index order and the red three last, each count / 8. Sides
//! are relative as seats are: side slot 0 is the viewer's side.

use crate::card::{Card, Rank};
use crate::card_set::CardSet;
use crate::classic::{
    ClassicPhase, ClassicState, ClassicView, Kind, MeldKey, CLASSIC_MAX_PACK, CLASSIC_MAX_PLAYERS,
};
use crate::encode::{layout, one_hot, scaled, total, wrap, Encode, Field, Writer};

/// Numbers per card set: the 14 kinds and the red three.
const KINDS: usize = 15;
/// Numbers per side in the `tables` field.
pub const SIDE_FEATURES: usize = 42;
const P: usize = CLASSIC_MAX_PLAYERS;

const CLASSIC_FIELDS: [Field; 21] = layout([
    ("players", 5, 0.0, 1.0),
    ("phase", 4, 0.0, 1.0),
    ("current", P, 0.0, 1.0),
    ("partnerships", 1, 0.0, 1.0),
    ("jokers_rule", 1, 0.0, 1.0),
    ("hand", KINDS, 0.0, 1.0),
    ("hand_sizes", P, 0.0, 1.0),
    ("known", P * KINDS, 0.0, 1.0),
    ("pile", KINDS, 0.0, 1.0),
    ("pile_size", 1, 0.0, 1.0),
    ("pile_top", KINDS, 0.0, 1.0),
    ("pile_frozen", 1, 0.0, 1.0),
    ("stock_size", 1, 0.0, 1.0),
    ("turn", 5, 0.0, 1.0),
    ("pickup_key", 13, 0.0, 1.0),
    ("melded_before", P, 0.0, 1.0),
    ("turns", 1, 0.0, 1.0),
    ("totals", P, -2.0, 2.0),
    ("minimum", P, 0.0, 1.0),
    ("tables", P * SIDE_FEATURES, 0.0, 1.0),
    ("canastas", P, 0.0, 1.0),
]);

/// Length of the classic encoding.
pub const CLASSIC_OBS_LEN: usize = total(&CLASSIC_FIELDS);

/// `i / 8` for every count a nibble can hold: a count's number by one
/// load, the same float as `i as f32 / 8.0`.
const EIGHTHS: [f32; 16] = {
    let mut a = [0.0f32; 16];
    let mut i = 0;
    while i < 16 {
        a[i] = i as f32 / 8.0;
        i += 1;
    }
    a
};

/// The two black threes' bits of a set's words (3♣, 3♠) and the two red
/// threes' (3♦, 3♥).
const BLACK_THREES: u64 = 0b1001 << 4;
const RED_THREES: u64 = 0b0110 << 4;

/// The number of `count` / 8 (`count` at most 15).
fn eighths(count: u64) -> f32 {
    EIGHTHS[(count & 0xF) as usize]
}

/// `EIGHTHS_PAIRS[b]`: the counts in the two nibbles of the byte `b`
/// (low nibble first), each / 8.
const EIGHTHS_PAIRS: [[f32; 2]; 256] = {
    let mut a = [[0.0f32; 2]; 256];
    let mut b = 0;
    while b < 256 {
        a[b] = [EIGHTHS[b & 0xF], EIGHTHS[b >> 4]];
        b += 1;
    }
    a
};

/// The 15 kind counts of `set` / 8 into `out` (zeroed): the natural kinds
/// and the 2s read off the set's rank counts, a nibble a rank, at once;
/// an empty set writes nothing.
fn kinds(out: &mut [f32], set: CardSet) {
    if set.is_empty() {
        return;
    }
    let out = &mut out[..KINDS];
    let (lo, hi, jokers) = set.raw();
    let counts = set.rank_counts();
    // Kinds 0..11 are the ranks 4..A, nibbles 2..12: two a byte, from
    // byte 1. Byte 6's high nibble (no rank, 0) lands on kind 11, the
    // black three's, written after.
    for (k, x) in out[..12].as_chunks_mut::<2>().0.iter_mut().enumerate() {
        *x = EIGHTHS_PAIRS[(counts >> (8 * (k + 1)) & 0xFF) as usize];
    }
    let threes = |mask: u64| ((lo & mask).count_ones() + (hi & mask).count_ones()) as u64;
    out[Kind::BLACK_THREE.index()] = eighths(threes(BLACK_THREES));
    out[Kind::TWO.index()] = eighths(counts);
    out[Kind::JOKER.index()] = eighths(jokers as u64);
    out[14] = eighths(threes(RED_THREES));
}

/// The slot of each card (by index) in a 15-kind set.
const KIND_SLOT: [u8; Card::KINDS] = {
    let mut a = [0u8; Card::KINDS];
    let mut i = 0;
    while i < Card::KINDS {
        a[i] = match Kind::of(Card::of_index(i as u8)) {
            Some(k) => k.index() as u8,
            None => 14,
        };
        i += 1;
    }
    a
};

/// The slot of a card in a 15-kind set.
fn kind_slot(c: Card) -> usize {
    KIND_SLOT[c.index() as usize] as usize
}

/// naturals, 2s, jokers of a natural or black-three meld, each / 8, into
/// `out[..3]` (zeroed); the meld's size.
fn meld(out: &mut [f32], m: CardSet) -> u32 {
    let (lo, hi, jokers) = m.raw();
    let twos = m.rank_count(Rank::Two);
    let len = lo.count_ones() + hi.count_ones() + jokers as u32;
    out[0] = (len - twos - jokers as u32) as f32 / 8.0;
    out[1] = eighths(twos as u64);
    out[2] = eighths(jokers as u64);
    len
}

impl Encode for ClassicState {
    const OBS_LEN: usize = CLASSIC_OBS_LEN;
    const FIELDS: &'static [Field] = &CLASSIC_FIELDS;

    fn encode(v: &ClassicView<'_>, out: &mut [f32]) {
        encode_classic(v, out, false)
    }

    fn encode_zeroed(v: &ClassicView<'_>, out: &mut [f32]) {
        encode_classic(v, out, true)
    }
}

/// [`Encode::encode`] of a classic view, into an `out` already `zeroed`
/// or not.
fn encode_classic(v: &ClassicView<'_>, out: &mut [f32], zeroed: bool) {
    let r = v.rules();
    let n = r.players as usize;
    let sides = r.sides();
    let seat = v.seat();
    // (p + n - seat) % n without a division: p and seat are below n.
    let slot = |p: usize| wrap(p + n - seat, n);
    let own_side = r.side_of(seat);
    let side_slot = |s: usize| wrap(s + sides - own_side, sides);
    let pack = CLASSIC_MAX_PACK as f32;
    let mut w = Writer::new(out, &CLASSIC_FIELDS, zeroed);
    one_hot(w.field("players"), n.checked_sub(2));
    let phase = match v.phase() {
        ClassicPhase::Draw => 0,
        ClassicPhase::Answer => 1,
        ClassicPhase::Meld => 2,
        ClassicPhase::Over => 3,
    };
    one_hot(w.field("phase"), Some(phase));
    one_hot(w.field("current"), Some(slot(v.current_player())));
    w.field("partnerships")[0] = r.partnerships() as u8 as f32;
    w.field("jokers_rule")[0] = scaled(r.jokers as f32, 6.0, 0.0, 1.0);
    kinds(w.field("hand"), v.hand());
    let f = w.field("hand_sizes");
    for p in 0..n {
        f[slot(p)] = v.hand_len(p) as f32 / pack;
    }
    let f = w.field("known");
    for p in 0..n {
        let q = slot(p);
        kinds(&mut f[q * KINDS..(q + 1) * KINDS], v.known(p));
    }
    let pile = v.pile();
    let mut counts = [0u8; KINDS];
    for &c in pile {
        counts[kind_slot(c)] += 1;
    }
    for (x, &c) in w.field("pile").iter_mut().zip(counts.iter()) {
        *x = c as f32 / 8.0;
    }
    w.field("pile_size")[0] = pile.len() as f32 / pack;
    one_hot(w.field("pile_top"), pile.last().map(|&c| kind_slot(c)));
    w.field("pile_frozen")[0] = v.pile_frozen() as u8 as f32;
    w.field("stock_size")[0] = v.stock_len() as f32 / pack;
    let pickup = v.pickup();
    let f = w.field("turn");
    f[0] = v.drew() as u8 as f32;
    f[1] = (v.answer() == Some(true)) as u8 as f32;
    f[2] = (v.answer() == Some(false)) as u8 as f32;
    f[3] = pickup.is_some() as u8 as f32;
    f[4] = pickup.is_some_and(|p| p.rest_pending) as u8 as f32;
    let key = pickup.map(|p| match p.key {
        MeldKey::Rank(k) => k.index(),
        MeldKey::BlackThrees => 11,
        MeldKey::Wilds => 12,
    });
    one_hot(w.field("pickup_key"), key);
    let f = w.field("melded_before");
    for p in 0..n {
        f[slot(p)] = v.melded_before(p) as u8 as f32;
    }
    w.field("turns")[0] = scaled(v.turns() as f32, r.turn_cap as f32, 0.0, 1.0);
    let f = w.field("totals");
    for s in 0..sides {
        f[side_slot(s)] = scaled(v.total(s) as f32, 5_000.0, -2.0, 2.0);
    }
    let f = w.field("minimum");
    for s in 0..sides {
        f[side_slot(s)] = scaled(v.minimum(s) as f32, 150.0, 0.0, 1.0);
    }
    // A side's canastas (C-5) counted as its melds are written.
    let mut canastas = [0u32; P];
    let f = w.field("tables");
    for s in 0..sides {
        let t = v.table(s);
        let f = &mut f[side_slot(s) * SIDE_FEATURES..][..SIDE_FEATURES];
        let mut any = false;
        for (k, m) in t.melds.iter().enumerate() {
            if !m.is_empty() {
                any = true;
                canastas[s] += (meld(&mut f[3 * k..], *m) >= 7) as u32;
            }
        }
        meld(&mut f[33..], t.black_threes);
        for (i, m) in t.wild_canastas.iter().enumerate() {
            f[36 + 2 * i] = Kind::TWO.count_in(*m) as f32 / 8.0;
            f[37 + 2 * i] = m.jokers() as f32 / 8.0;
            canastas[s] += !m.is_empty() as u32;
        }
        f[40] = t.red_threes.len() as f32 / 8.0;
        f[41] = any as u8 as f32;
    }
    let f = w.field("canastas");
    for s in 0..sides {
        debug_assert_eq!(canastas[s], v.table(s).canastas());
        f[side_slot(s)] = scaled(canastas[s] as f32, 8.0, 0.0, 1.0);
    }
    w.done();
}
