//! The random streams of a game, each named once: the deal of a game in a
//! run, the starter, the hands of a match, and each seat's agent. Every
//! generator is a `rand_pcg::Pcg64Mcg` seeded from one of these, so a game
//! depends only on (master seed, its index, its settings): the same for any
//! thread count or sharding. Play, replay and the demo use these alone.

/// SplitMix64: a seed derived from `(seed, index)`, independent for
/// distinct indices.
pub const fn derive_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        ^ index
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of deal `deal` of a run whose master seed is `run_seed`: the
/// seed of its hand, or of its match.
pub const fn deal(run_seed: u64, deal: u64) -> u64 {
    derive_seed(run_seed, deal)
}

/// The stream that draws the starter of a lone hand (I-1) from its seed.
pub const fn hand_starter(hand_seed: u64) -> u64 {
    derive_seed(hand_seed, u64::MAX - 1)
}

/// The stream that draws the first starter of a match (I-1) from its seed.
pub const fn match_starter(match_seed: u64) -> u64 {
    derive_seed(match_seed, u64::MAX)
}

/// The seed of hand `index` (from 0) of a match.
pub const fn match_hand(match_seed: u64, index: u32) -> u64 {
    derive_seed(match_seed, index as u64)
}

/// The seed of the generator of the agent in seat `seat` of a game (a
/// hand or a match) whose seed is `game_seed`.
pub const fn seat(game_seed: u64, seat: usize) -> u64 {
    derive_seed(game_seed ^ 0xA6E7_5EA7, seat as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The streams of one seed differ from each other (a match's hands
    /// are derived from the match's seed as the deals from the run's, so
    /// `match_hand(s, i)` is `deal(s, i)`: they are never given one seed).
    #[test]
    fn streams_are_distinct() {
        assert_ne!(derive_seed(1, 0), derive_seed(1, 1));
        assert_ne!(derive_seed(1, 0), derive_seed(2, 0));
        let all = [
            deal(7, 0),
            hand_starter(7),
            match_starter(7),
            seat(7, 0),
            seat(7, 1),
        ];
        assert_eq!(match_hand(7, 3), deal(7, 3));
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
