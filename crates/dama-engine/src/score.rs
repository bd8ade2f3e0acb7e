//! Search scores.
//!
//! A score is from the point of view of the side to move, in hundredths of a man ("centi-men").
//! Scores near `WIN` (30,000) encode a forced end of the game: `WIN - n` wins after `n` plies, and
//! `-(WIN - n)` loses after `n` plies.

use core::fmt;

/// Larger than any score; the initial bounds of a search.
pub(crate) const INFINITE: i32 = 32_000;
/// The score of a won game at the root (won in 0 plies).
pub(crate) const WIN: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub(crate) const WIN_BOUND: i32 = WIN - 1_000;

/// A score as reported to users: an evaluation or a forced result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An evaluation in hundredths of a man, positive when the side to move stands better.
    Eval(i32),
    /// The side to move wins in this many plies (moves of either side) with best play.
    Win(u32),
    /// The side to move loses in this many plies with best play.
    Loss(u32),
}

impl Score {
    /// Converts an internal score (side-to-move view, ply distance from the root).
    pub(crate) fn from_internal(value: i32) -> Score {
        if value >= WIN_BOUND {
            Score::Win((WIN - value) as u32)
        } else if value <= -WIN_BOUND {
            Score::Loss((WIN + value) as u32)
        } else {
            Score::Eval(value)
        }
    }

    /// The score as one number: evaluations as they are, wins and losses as ±(30000 − plies).
    pub fn to_internal(self) -> i32 {
        match self {
            Score::Eval(v) => v,
            Score::Win(n) => WIN - n as i32,
            Score::Loss(n) => -(WIN - n as i32),
        }
    }

    /// The same score seen by the other side.
    pub fn flip(self) -> Score {
        match self {
            Score::Eval(v) => Score::Eval(-v),
            Score::Win(n) => Score::Loss(n),
            Score::Loss(n) => Score::Win(n),
        }
    }

    /// Whether the score is a forced win or loss.
    pub fn is_decisive(self) -> bool {
        !matches!(self, Score::Eval(_))
    }
}

impl fmt::Display for Score {
    /// `+1.25` (men), `win in 7` or `loss in 4` (plies).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Eval(v) => write!(f, "{:+.2}", v as f64 / 100.0),
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

/// Adjusts a score read from the transposition table (stored relative to its node) to the ply
/// where it is used.
#[inline]
pub(crate) fn from_tt(value: i32, ply: usize) -> i32 {
    if value >= WIN_BOUND {
        value - ply as i32
    } else if value <= -WIN_BOUND {
        value + ply as i32
    } else {
        value
    }
}

/// The inverse of [`from_tt`]: makes a win score relative to the node that stores it.
#[inline]
pub(crate) fn to_tt(value: i32, ply: usize) -> i32 {
    if value >= WIN_BOUND {
        value + ply as i32
    } else if value <= -WIN_BOUND {
        value - ply as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(Score::from_internal(WIN - 7), Score::Win(7));
        assert_eq!(Score::from_internal(-(WIN - 4)), Score::Loss(4));
        assert_eq!(Score::from_internal(125), Score::Eval(125));
        assert_eq!(Score::Win(7).to_internal(), WIN - 7);
        assert_eq!(Score::Eval(125).to_string(), "+1.25");
        assert_eq!(Score::Eval(-5).to_string(), "-0.05");
        assert_eq!(Score::Win(3).flip(), Score::Loss(3));
        // A win 5 plies below a node at ply 3 is stored as "win in 5" and read back as 8.
        let at_node = WIN - 8;
        assert_eq!(to_tt(at_node, 3), WIN - 5);
        assert_eq!(from_tt(WIN - 5, 3), at_node);
        assert_eq!(from_tt(to_tt(-(WIN - 9), 4), 4), -(WIN - 9));
    }
}
