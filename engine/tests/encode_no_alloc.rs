//! Encoding a seat's view allocates nothing, in either family, at every
//! step of random hands. Counted per thread by a global allocator wrapper
//! in this test binary, so that the harness's own threads do not count.

// The counting allocator wraps the system allocator: unsafe code in this
// test binary alone.
#![allow(unsafe_code)]

use kanaszta_engine::classic::{ClassicRules, ClassicState};
use kanaszta_engine::{Encode, GameState, Rules};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

/// Allocations made by this thread so far.
fn allocs() -> usize {
    ALLOCS.with(|a| a.get())
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // Not counted while the thread's locals are torn down.
        let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Plays `g` at random; returns (encodings made, allocations during them).
fn encodings<G: Encode>(mut g: G, seed: u64) -> (u64, usize) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut obs = vec![0.0f32; G::OBS_LEN];
    let mut legal = Vec::with_capacity(4096);
    let (mut made, mut allocated) = (0, 0);
    let mut steps = 0;
    while !g.is_terminal() && steps < 3000 {
        for seat in 0..g.players() {
            let before = allocs();
            G::encode(&g.view(seat), &mut obs);
            allocated += allocs() - before;
            made += 1;
        }
        g.legal_actions(&mut legal);
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(a).unwrap();
        steps += 1;
    }
    (made, allocated)
}

#[test]
fn encoding_a_view_does_not_allocate() {
    // The counter counts.
    let before = allocs();
    let v = std::hint::black_box(vec![1u8; 10]);
    assert!(allocs() > before && v.len() == 10);
    let mut made = 0;
    for seed in 0..4 {
        for players in [2, 4] {
            let r = Rules {
                players,
                ..Rules::default()
            };
            let (n, a) = encodings(GameState::new(r, seed), seed);
            assert_eq!(
                a, 0,
                "decorated seed {seed}: {a} allocations in {n} encodings"
            );
            made += n;
            let c = ClassicRules {
                players,
                ..ClassicRules::default()
            };
            let (n, a) = encodings(ClassicState::new(c, seed, 0, [0; 6]), seed);
            assert_eq!(
                a, 0,
                "classic seed {seed}: {a} allocations in {n} encodings"
            );
            made += n;
        }
    }
    assert!(made > 1000, "{made}");
}
