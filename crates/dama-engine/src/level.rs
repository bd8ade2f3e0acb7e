//! Playing levels 1 to 10.
//!
//! Level 10 is full strength. Below it the engine plays like a weaker player in a way that
//! still looks natural: it looks only a few plies ahead (so it walks into shots and misses
//! combinations), the gentlest levels count only material, and it chooses among the moves
//! that are nearly as good as the best with a random margin (so it sometimes takes the worse
//! of two captures, or lets a piece go). It never picks a move that loses more than the level's
//! "largest mistake" compared with the best move it saw, so its moves never look broken.
//!
//! | level | looks ahead | evaluation | random margin | largest mistake | node cap |
//! |---|---|---|---|---|---|
//! | 1 | 1 ply + captures | material | 2.5 men | 2.5 men | — |
//! | 2 | 2 plies | material | 2 men | 2 men | — |
//! | 3 | 3 plies | full | 1.5 men | 1.5 men | — |
//! | 4 | 4 plies | full | 1 man | 1 man | — |
//! | 5 | 5 plies | full | 0.6 men | 0.7 men | — |
//! | 6 | 6 plies | full | 0.35 men | 0.4 men | — |
//! | 7 | 8 plies | full | 0.15 men | 0.2 men | — |
//! | 8 | search | full | — | — | 150 000 nodes |
//! | 9 | search | full | — | — | 600 000 nodes |
//! | 10 | search | full (International, Russian, English, Brazilian, Pool: the built-in pattern model) | — | — | as the limits allow |
//!
//! Where a variant has a built-in pattern model ([`crate::pattern`]), only level 10 uses it:
//! levels 1–9 keep the linear evaluation their ladder was measured with. Likewise only level
//! 10 scores the 8x8 endings of up to four pieces from the endgame database
//! ([`crate::endgame`]).

use core::fmt;

/// A playing level from 1 (gentlest) to 10 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// How a level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelParams {
    /// Deepest search, in plies.
    pub depth: Option<u32>,
    /// Node budget per move.
    pub nodes: Option<u64>,
    /// Evaluate material only.
    pub material_only: bool,
    /// Random margin added to each candidate's score, in centi-men (0: always the best).
    pub noise: i32,
    /// Largest score loss, in centi-men, a chosen move may have against the best one.
    pub max_loss: i32,
}

impl Level {
    /// The gentlest level.
    pub const MIN: Level = Level(1);
    /// Full strength.
    pub const MAX: Level = Level(10);

    /// The level with this number, if it is between 1 and 10.
    pub fn new(n: u8) -> Option<Level> {
        (1..=10).contains(&n).then_some(Level(n))
    }

    /// The level's number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Every level, gentlest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=10).map(Level)
    }

    /// How this level plays.
    pub fn params(self) -> LevelParams {
        let p = |depth, material_only, noise, max_loss| LevelParams {
            depth: Some(depth),
            nodes: None,
            material_only,
            noise,
            max_loss,
        };
        match self.0 {
            1 => p(1, true, 250, 250),
            2 => p(2, true, 200, 200),
            3 => p(3, false, 150, 150),
            4 => p(4, false, 100, 100),
            5 => p(5, false, 60, 70),
            6 => p(6, false, 35, 40),
            7 => p(8, false, 15, 20),
            8 => LevelParams {
                nodes: Some(150_000),
                ..p(0, false, 0, 0)
            },
            9 => LevelParams {
                nodes: Some(600_000),
                ..p(0, false, 0, 0)
            },
            _ => LevelParams {
                depth: None,
                nodes: None,
                material_only: false,
                noise: 0,
                max_loss: 0,
            },
        }
        .fix()
    }

    /// One line saying how the level plays.
    pub fn description(self) -> &'static str {
        match self.0 {
            1 => "beginner: sees one move ahead, counts only pieces, often picks a worse move",
            2 => "novice: sees two moves ahead, counts only pieces, often careless",
            3 => "casual: three moves ahead with positional sense, makes real mistakes",
            4 => "club beginner: four moves ahead, sometimes careless",
            5 => "club player: five moves ahead, small inaccuracies",
            6 => "good club player: six moves ahead, rare inaccuracies",
            7 => "strong player: eight moves ahead, nearly always the best move it sees",
            8 => "expert: a short full search",
            9 => "master: a longer full search",
            _ => "full strength",
        }
    }
}

impl LevelParams {
    /// Levels with a node cap search normally (no fixed depth).
    fn fix(mut self) -> Self {
        if self.nodes.is_some() {
            self.depth = None;
        }
        self
    }
}

impl Default for Level {
    fn default() -> Self {
        Level::MAX
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Chooses among scored moves as a level does: the best score plus a random margin, among the
/// moves that lose at most `max_loss` against the best. `random` yields numbers in `0..n`.
pub(crate) fn choose(
    scores: &[i32],
    params: &LevelParams,
    mut random: impl FnMut(u32) -> u32,
) -> Option<usize> {
    let best = *scores.iter().max()?;
    let mut pick = None;
    let mut pick_value = i64::MIN;
    for (i, &s) in scores.iter().enumerate() {
        if (s as i64) < best as i64 - params.max_loss as i64 {
            continue;
        }
        let noise = if params.noise > 0 {
            random(params.noise as u32 + 1) as i64
        } else {
            0
        };
        let value = s as i64 + noise;
        if value > pick_value {
            pick_value = value;
            pick = Some(i);
        }
    }
    pick
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(11), None);
        assert_eq!(Level::all().count(), 10);
        assert_eq!(Level::MAX.params().noise, 0);
        assert_eq!(Level::MAX.params().depth, None);
        // Weaker levels look less far and err more.
        let depths: Vec<u32> = (1..=7).map(|n| Level(n).params().depth.unwrap()).collect();
        assert!(depths.windows(2).all(|w| w[0] <= w[1]));
        let noise: Vec<i32> = (1..=10).map(|n| Level(n).params().noise).collect();
        assert!(noise.windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn choice_respects_the_largest_mistake() {
        let p = Level(1).params();
        let scores = [0, -1000, -140, 50];
        let mut seed = 1u32;
        let mut counts = [0; 4];
        for _ in 0..2000 {
            let i = choose(&scores, &p, |n| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (seed >> 8) % n
            })
            .unwrap();
            counts[i] += 1;
        }
        assert_eq!(counts[1], 0, "a move losing ten men is never chosen");
        assert!(counts[3] > counts[2], "{counts:?}");
        assert!(counts[0] > 0 && counts[2] > 0, "{counts:?}");
        // Full strength always takes the best.
        assert_eq!(choose(&scores, &Level::MAX.params(), |_| 0), Some(3));
    }
}
