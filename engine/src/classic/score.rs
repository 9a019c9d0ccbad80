//! A side's hand score (C-23) with its parts.

use super::state::*;

/// One side's score for a hand (C-23), by part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClassicScore {
    /// Card values of the side's melds (C-9).
    pub melds: i32,
    /// Canasta bonuses (C-5): natural 500, mixed 300, wild 700 or 1,000.
    pub canastas: i32,
    /// Red threes (C-8): plus, or minus for a side that melded nothing.
    pub red_threes: i32,
    /// Going out: 100, or 200 concealed (C-10, C-19).
    pub going_out: i32,
    /// Card values left in the side's hands, counted minus (C-23).
    pub in_hand: i32,
    /// 100 per failed "yes" (C-18), counted minus.
    pub failed_yes: i32,
    /// The sum.
    pub total: i32,
}

impl ClassicState {
    /// The score of `side` for this hand as it stands (C-23).
    pub fn side_score(&self, side: usize) -> ClassicScore {
        let r = &self.rules;
        let t = &self.tables[side];
        let melds = t.melded_value();
        let mut canastas = 0;
        for m in t.melds {
            if m.len() >= 7 {
                canastas += if m.wild_count() == 0 { 500 } else { 300 };
            }
        }
        for w in t.wild_canastas {
            if !w.is_empty() {
                canastas += r.wild_canasta;
            }
        }
        let n = t.red_threes.len() as i32;
        let plus = if n == 4 { 800 } else { 100 * n };
        let red_threes = if t.has_melds() {
            plus
        } else {
            -(plus + r.red_three_extra * n)
        };
        let going_out = match self.end {
            Some(ClassicEnd::WentOut { player, concealed })
                if r.side_of(player as usize) == side =>
            {
                if concealed {
                    200
                } else {
                    100
                }
            }
            _ => 0,
        };
        let in_hand = -(0..self.players())
            .filter(|&p| r.side_of(p) == side)
            .map(|p| value_of(self.hands[p]))
            .sum::<i32>();
        let failed_yes = -100 * self.failed_yes[side] as i32;
        ClassicScore {
            melds,
            canastas,
            red_threes,
            going_out,
            in_hand,
            failed_yes,
            total: melds + canastas + red_threes + going_out + in_hand + failed_yes,
        }
    }

    /// Every side's total for this hand, by side index.
    pub fn scores(&self) -> [i32; CLASSIC_MAX_PLAYERS] {
        let mut s = [0; CLASSIC_MAX_PLAYERS];
        for (side, x) in s.iter_mut().enumerate().take(self.rules.sides()) {
            *x = self.side_score(side).total;
        }
        s
    }
}
