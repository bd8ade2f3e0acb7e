//! Static evaluation, one weight set per family of variants.
//!
//! The evaluation is a weighted sum of features (piece counts, advancement by row, centre,
//! edges, support, mobility, runaway men, king placement), each measured as White's count minus
//! Black's, then scaled down in endings known to be drawn. Because the sum is linear in the
//! weights, the same feature code serves the search (through [`Weighted`]) and the tuner
//! (through [`Features`]), which fits the weights to game results by logistic regression.

use dama_core::bitboard::Bitboard;
use dama_core::geometry::{dir, Geometry};
use dama_core::position::Bb;
use dama_core::rules::{CaptureChoice, Goal, Rules};
use dama_core::{Color, Position, Variant};

/// Families of variants that share an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Short (one-step) kings on 8x8: English, Circassian, Italian.
    ShortKing,
    /// Flying kings on small boards: Russian, Brazilian, Pool, Spanish, Portuguese, Czech,
    /// diagonal Russian, 80-square.
    Flying8,
    /// Flying kings on 10x10 and 12x12: International, Canadian, German, Frisian.
    Large,
    /// Reversed goal: antidraughts, Russian giveaway.
    Giveaway,
}

impl Family {
    /// The family of a variant.
    pub fn of(variant: Variant) -> Family {
        use Variant::*;
        match variant {
            English | Circassian | Italian => Family::ShortKing,
            International | Canadian | German | Frisian => Family::Large,
            Antidraughts | RussianGiveaway => Family::Giveaway,
            _ => Family::Flying8,
        }
    }

    /// Every family.
    pub const ALL: [Family; 4] = [
        Family::ShortKing,
        Family::Flying8,
        Family::Large,
        Family::Giveaway,
    ];

    /// A short lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Family::ShortKing => "short-king",
            Family::Flying8 => "flying-8x8",
            Family::Large => "large",
            Family::Giveaway => "giveaway",
        }
    }
}

/// Number of rows a man can stand on, counted from its own side (12x12 has 11).
pub const ROWS: usize = 11;

/// Feature indices.
pub mod feature {
    use super::ROWS;
    /// Men.
    pub const MAN: usize = 0;
    /// Kings.
    pub const KING: usize = 1;
    /// Men on each row, from the side's own back row (0) forwards.
    pub const ROW: usize = 2;
    /// Men on the two edge files.
    pub const EDGE: usize = ROW + ROWS;
    /// Men on the central squares.
    pub const CENTRE: usize = EDGE + 1;
    /// Men covered from behind on both sides (by own pieces or the board edge).
    pub const SUPPORTED: usize = CENTRE + 1;
    /// Quiet moves available to men.
    pub const MAN_MOBILITY: usize = SUPPORTED + 1;
    /// Squares a king can reach with a quiet move.
    pub const KING_MOBILITY: usize = MAN_MOBILITY + 1;
    /// Kings on the long diagonal.
    pub const KING_DIAGONAL: usize = KING_MOBILITY + 1;
    /// Men one step from crowning with a free square to step to.
    pub const RUNAWAY1: usize = KING_DIAGONAL + 1;
    /// Men two steps from crowning with the squares ahead free.
    pub const RUNAWAY2: usize = RUNAWAY1 + 1;
    /// Difference of men between the left and right halves of the board (absolute value).
    pub const IMBALANCE: usize = RUNAWAY2 + 1;
    /// Material advantage, in men, times how far the game has simplified: rewards trading
    /// down when ahead.
    pub const TRADE: usize = IMBALANCE + 1;
    /// The side to move (tempo).
    pub const TO_MOVE: usize = TRADE + 1;
    /// Number of features.
    pub const COUNT: usize = TO_MOVE + 1;
}

/// Feature names, for the tuner's output.
pub fn feature_name(i: usize) -> String {
    use feature::*;
    match i {
        MAN => "man".into(),
        KING => "king".into(),
        r if (ROW..ROW + ROWS).contains(&r) => format!("row{}", r - ROW),
        EDGE => "edge".into(),
        CENTRE => "centre".into(),
        SUPPORTED => "supported".into(),
        MAN_MOBILITY => "man_mobility".into(),
        KING_MOBILITY => "king_mobility".into(),
        KING_DIAGONAL => "king_diagonal".into(),
        RUNAWAY1 => "runaway1".into(),
        RUNAWAY2 => "runaway2".into(),
        IMBALANCE => "imbalance".into(),
        TRADE => "trade".into(),
        TO_MOVE => "to_move".into(),
        _ => format!("f{i}"),
    }
}

/// The weights of one family, in hundredths of a man per unit of each feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; feature::COUNT]);

impl Weights {
    /// The built-in weights of a family.
    pub fn of(family: Family) -> Weights {
        match family {
            Family::ShortKing => SHORT_KING,
            Family::Flying8 => FLYING8,
            Family::Large => LARGE,
            Family::Giveaway => GIVEAWAY,
        }
    }

    /// The built-in weights for a variant: its family's, except where weights were fitted to
    /// the variant's own games.
    pub fn for_variant(variant: Variant) -> Weights {
        match variant {
            Variant::International | Variant::Canadian => INTERNATIONAL,
            _ => Weights::of(Family::of(variant)),
        }
    }

    /// Material only: a man 100, a king the family's king value (used by the gentlest levels).
    pub fn material_only(&self) -> Weights {
        let mut w = [0; feature::COUNT];
        w[feature::MAN] = self.0[feature::MAN];
        w[feature::KING] = self.0[feature::KING];
        Weights(w)
    }
}

// Hand-set starting points; `dama-engine`'s tuner refines them from game data (see
// BENCHMARKS.md for the before/after matches).
const SHORT_KING: Weights = Weights([
    100, 140, // man, king
    6, 2, 0, 1, 3, 6, 10, 0, 0, 0, 0, // rows
    -3, 4, 3, 1, 2, 4, 10, 4, 0, 6,
    3, // edge centre supported mob kmob kdiag run1 run2 imb trade
]);
const FLYING8: Weights = Weights([
    100, 280, // man, king
    5, 2, 0, 2, 5, 10, 20, 0, 0, 0, 0, // rows
    -2, 5, 3, 1, 1, 12, 40, 10, -2, 8, 3,
]);
const LARGE: Weights = Weights([
    100, 300, // man, king
    4, 1, 0, 1, 3, 6, 10, 16, 24, 0, 0, // rows
    -4, 4, 3, 1, 1, 8, 50, 15, -3, 8, 3,
]);
/// Fitted with `dama tune --variant international --games 1000 --nodes 3000 --epochs 1000`
/// from the LARGE weights (91 780 positions; mean squared error 0.0424 -> 0.0361); against
/// the LARGE weights at 20 000 nodes a move it scored 62% (see BENCHMARKS.md).
const INTERNATIONAL: Weights = Weights([
    100, 358, // man, king
    29, 30, 27, 20, 20, 23, 16, 34, -2, 0, 0, // rows
    3, 10, 1, 1, -2, -6, 161, 43, -5, -15, 2,
]);
const GIVEAWAY: Weights = Weights([
    -100, -150, // man, king
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // rows
    0, 0, 0, -2, -1, 0, 0, 0, 0, 0, 5,
]);

/// The evaluation a search uses.
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The linear features alone.
    Linear(Weights),
    /// A fitted pattern model (linear features and window configurations, by phase), made
    /// ready for the search.
    Pattern(std::sync::Arc<crate::pattern::Prepared>),
    /// A fitted neural network.
    Network(std::sync::Arc<crate::network::Prepared>),
}

/// Receives features.
pub trait Sink {
    /// Feature `index` has the value `value` (White's count minus Black's).
    fn add(&mut self, index: usize, value: i32);
}

/// Accumulates the weighted sum.
#[derive(Debug)]
pub struct Weighted<'a> {
    weights: &'a [i32; feature::COUNT],
    /// The sum so far.
    pub sum: i32,
}

impl Sink for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, value: i32) {
        self.sum += self.weights[index] * value;
    }
}

/// Records the feature values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features(pub [i32; feature::COUNT]);

impl Default for Features {
    fn default() -> Self {
        Features([0; feature::COUNT])
    }
}

impl Sink for Features {
    #[inline]
    fn add(&mut self, index: usize, value: i32) {
        self.0[index] += value;
    }
}

/// Per-board masks the evaluation uses, built once per search.
#[derive(Clone, Debug)]
pub struct Tables<B> {
    /// `row[color][r]`: the squares on row `r` counted from `color`'s own back row.
    row: [[B; ROWS + 1]; 2],
    edge: B,
    centre: B,
    left: B,
    right: B,
    long_diagonal: B,
    /// Squares without a neighbour in each diagonal direction.
    no_next: [B; 4],
    height: usize,
}

impl<B: Bitboard> Tables<B> {
    /// The tables of the board of rules `R`.
    pub fn new<R: Rules>() -> Tables<Bb<R>> {
        type G<R> = <R as Rules>::G;
        let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
        let mut t = Tables {
            row: [[Bb::<R>::EMPTY; ROWS + 1]; 2],
            edge: Bb::<R>::EMPTY,
            centre: Bb::<R>::EMPTY,
            left: Bb::<R>::EMPTY,
            right: Bb::<R>::EMPTY,
            long_diagonal: Bb::<R>::EMPTY,
            no_next: [Bb::<R>::EMPTY; 4],
            height: h as usize,
        };
        for sq in G::<R>::VALID.iter() {
            let Some((col, row)) = G::<R>::coords(sq) else {
                continue;
            };
            let bit = Bb::<R>::single(sq);
            let r = row as usize;
            if r <= ROWS {
                t.row[0][r] |= bit;
            }
            if (h as usize - 1 - r) <= ROWS {
                t.row[1][h as usize - 1 - r] |= bit;
            }
            if col == 0 || col == w - 1 {
                t.edge |= bit;
            }
            let central_col = col >= w / 2 - 2 && col <= w / 2 + 1;
            let central_row = row >= h / 2 - 2 && row <= h / 2 + 1;
            if central_col && central_row {
                t.centre |= bit;
            }
            if col < w / 2 {
                t.left |= bit;
            } else {
                t.right |= bit;
            }
            if col == row {
                t.long_diagonal |= bit;
            }
            for d in dir::DIAGONAL {
                if G::<R>::next(d, sq).is_none() {
                    t.no_next[d] |= bit;
                }
            }
        }
        t
    }
}

/// Quiet moves available to flying or short kings of a colour.
#[inline]
fn king_mobility<R: Rules>(kings: Bb<R>, empty: Bb<R>) -> i32 {
    if kings.is_empty() {
        return 0;
    }
    let mut n = 0;
    if R::FLYING_KINGS {
        for sq in kings.iter() {
            for d in dir::DIAGONAL {
                let ray = R::G::ray(d, sq);
                let blockers = ray & !empty;
                let run = if blockers.is_empty() {
                    ray
                } else {
                    let stop = if dir::is_positive(d) {
                        blockers.lowest()
                    } else {
                        blockers.highest()
                    };
                    ray & !(R::G::ray(d, stop) | <Bb<R>>::single(stop))
                };
                n += run.count() as i32;
            }
        }
    } else {
        for d in dir::DIAGONAL {
            n += (R::G::shift(kings, d) & empty).count() as i32;
        }
    }
    n
}

/// The features of one side, added with `sign` (+1 White, −1 Black).
#[inline(always)]
fn side_features<R: Rules, S: Sink>(
    pos: &Position<R>,
    t: &Tables<Bb<R>>,
    color: Color,
    sign: i32,
    sink: &mut S,
) {
    use feature::*;
    let c = color.index();
    let own = pos.pieces(color);
    let men = pos.men(color);
    let kings = own & pos.kings();
    let empty = R::G::VALID & !pos.occupied();
    let count = |b: Bb<R>| b.count() as i32;
    sink.add(MAN, sign * count(men));
    sink.add(KING, sign * count(kings));
    if men.is_empty() && kings.is_empty() {
        return;
    }
    let rows = (t.height - 1).min(ROWS);
    for r in 0..rows {
        let n = count(men & t.row[c][r]);
        if n != 0 {
            sink.add(ROW + r, sign * n);
        }
    }
    sink.add(EDGE, sign * count(men & t.edge));
    sink.add(CENTRE, sign * count(men & t.centre));
    // Forward and backward directions of this colour.
    let (fl, fr, bl, br) = match color {
        Color::White => (dir::NW, dir::NE, dir::SW, dir::SE),
        Color::Black => (dir::SW, dir::SE, dir::NW, dir::NE),
    };
    let cover_l = R::G::shift(own, opposite(bl)) | t.no_next[bl];
    let cover_r = R::G::shift(own, opposite(br)) | t.no_next[br];
    sink.add(SUPPORTED, sign * count(men & cover_l & cover_r));
    let mob = count(R::G::shift(men, fl) & empty) + count(R::G::shift(men, fr) & empty);
    sink.add(MAN_MOBILITY, sign * mob);
    if !kings.is_empty() {
        sink.add(KING_MOBILITY, sign * king_mobility::<R>(kings, empty));
        sink.add(KING_DIAGONAL, sign * count(kings & t.long_diagonal));
    }
    // Runaway men: squares from which a step forward lands on an empty square.
    let step_free = R::G::shift(empty, opposite(fl)) | R::G::shift(empty, opposite(fr));
    let last = t.height - 2;
    sink.add(RUNAWAY1, sign * count(men & t.row[c][last] & step_free));
    if last >= 1 {
        let both_free = R::G::shift(empty, opposite(fl)) & R::G::shift(empty, opposite(fr));
        // Both squares ahead free, and the three squares two rows ahead free too.
        let ahead2 = R::G::shift(both_free, opposite(fl)) & R::G::shift(both_free, opposite(fr));
        let cone = men & t.row[c][last - 1] & both_free & ahead2;
        sink.add(RUNAWAY2, sign * count(cone));
    }
    let imbalance = (count(men & t.left) - count(men & t.right)).abs();
    sink.add(IMBALANCE, sign * imbalance);
}

#[inline(always)]
const fn opposite(d: usize) -> usize {
    match d {
        dir::NE => dir::SW,
        dir::NW => dir::SE,
        dir::SE => dir::NW,
        _ => dir::NE,
    }
}

/// Sends the features of `pos` to `sink` (White minus Black) and returns the draw scale, out
/// of 16, that the evaluation applies to the weighted sum.
#[inline(always)]
pub fn features<R: Rules, S: Sink>(pos: &Position<R>, t: &Tables<Bb<R>>, sink: &mut S) -> i32 {
    side_features(pos, t, Color::White, 1, sink);
    side_features(pos, t, Color::Black, -1, sink);
    let wm = pos.men(Color::White).count() as i32;
    let bm = pos.men(Color::Black).count() as i32;
    let wk = (pos.pieces(Color::White) & pos.kings()).count() as i32;
    let bk = (pos.pieces(Color::Black) & pos.kings()).count() as i32;
    // Trading down when ahead: the material lead (a king counts as three men) weighted by
    // how much of the starting material is gone.
    let lead = (wm + 3 * wk) - (bm + 3 * bk);
    let total = wm + wk + bm + bk;
    // A constant of the rules, so the division below is a multiplication.
    let start = (Position::<R>::START_PIECES as i32).max(1);
    let gone = (2 * start - total).max(0);
    sink.add(
        feature::TRADE,
        lead.signum() * lead.abs().min(4) * gone / start,
    );
    sink.add(
        feature::TO_MOVE,
        if pos.side_to_move() == Color::White {
            1
        } else {
            -1
        },
    );
    draw_scale::<R>(pos, t, [wm, wk, bm, bk])
}

/// The draw scale of `pos` (out of 16) that [`features`] returns, alone.
#[inline]
pub fn draw_scale_of<R: Rules>(pos: &Position<R>, t: &Tables<Bb<R>>) -> i32 {
    if pos.kings().is_empty() {
        // Every scaled ending has a king.
        return 16;
    }
    let wm = pos.men(Color::White).count() as i32;
    let bm = pos.men(Color::Black).count() as i32;
    let wk = (pos.pieces(Color::White) & pos.kings()).count() as i32;
    let bk = (pos.pieces(Color::Black) & pos.kings()).count() as i32;
    draw_scale::<R>(pos, t, [wm, wk, bm, bk])
}

/// Scale (out of 16) for endings that are drawn or hard to win whatever the material says.
#[inline]
fn draw_scale<R: Rules>(pos: &Position<R>, t: &Tables<Bb<R>>, m: [i32; 4]) -> i32 {
    if R::GOAL == Goal::Giveaway {
        return 16;
    }
    let [wm, wk, bm, bk] = m;
    // A lone king against kings (and perhaps men) of the other side.
    let lone = |men: i32, kings: i32| men == 0 && kings == 1;
    let (strong_men, strong_kings, weak) = if lone(bm, bk) {
        (wm, wk, Color::Black)
    } else if lone(wm, wk) {
        (bm, bk, Color::White)
    } else if R::FLYING_KINGS && matches!(R::CHOICE, CaptureChoice::MostPieces) && t.height == 10 {
        return kings_on_both_sides(m);
    } else {
        return 16;
    };
    let strong = strong_men + strong_kings;
    if strong_kings == 0 {
        return 16;
    }
    if R::FLYING_KINGS {
        if t.height >= 10 {
            // 10x10: a lone king draws against up to three pieces (one of them a king) in
            // nearly every position.
            if strong <= 3 {
                return 1;
            }
        } else {
            // 8x8: two kings cannot win against one; three win only if the lone king does not
            // hold the long diagonal.
            if strong <= 2 {
                return 1;
            }
            if strong == 3 {
                let weak_king = pos.pieces(weak) & pos.kings();
                if !(weak_king & t.long_diagonal).is_empty() {
                    return 1;
                }
            }
        }
    } else if strong == 1 {
        // One short king against one: a draw.
        return 1;
    }
    16
}

/// International endings where both sides have kings (the rules of 10x10 with flying kings and
/// the most pieces to be taken; measured there only): three pieces or fewer seldom
/// win against a king (scale 1/8), and an extra man seldom wins when the kings are even (1/2).
/// The side with the larger material (a king counts as three men) stands for the side the
/// score favours.
#[inline]
fn kings_on_both_sides(m: [i32; 4]) -> i32 {
    let [wm, wk, bm, bk] = m;
    if wk == 0 || bk == 0 {
        return 16;
    }
    let (white, black) = (wm + 3 * wk, bm + 3 * bk);
    let (few_white, few_black) = (wm + wk <= 3, bm + bk <= 3);
    if (few_white && (few_black || white >= black)) || (few_black && black >= white) {
        return 2;
    }
    if wk == bk && (wm - bm).abs() <= 1 {
        return 8;
    }
    16
}

/// The evaluation of `pos` for the side to move.
#[inline]
pub fn evaluate<R: Rules>(pos: &Position<R>, t: &Tables<Bb<R>>, w: &Weights) -> i32 {
    let mut acc = Weighted {
        weights: &w.0,
        sum: 0,
    };
    let scale = features(pos, t, &mut acc);
    for_side_to_move(pos, acc.sum, scale)
}

/// A score from White's view, scaled by the drawishness `scale` of [`features`] (16: none),
/// as seen by the side to move of `pos`.
#[inline(always)]
pub(crate) fn for_side_to_move<R: Rules>(pos: &Position<R>, white: i32, scale: i32) -> i32 {
    let scaled = white * scale / 16;
    if pos.side_to_move() == Color::White {
        scaled
    } else {
        -scaled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::{rules, AnyPosition};

    fn eval_fen<R: Rules>(variant: Variant, fen: &str) -> i32 {
        let pos = AnyPosition::from_fen(variant, fen)
            .unwrap()
            .to_position::<R>();
        let t = Tables::<Bb<R>>::new::<R>();
        evaluate(&pos, &t, &Weights::for_variant(variant))
    }

    #[test]
    fn start_positions_are_balanced() {
        for v in Variant::ALL {
            dama_core::with_rules!(v, R => {
                let pos = AnyPosition::start(v).to_position::<R>();
                let t = Tables::<Bb<R>>::new::<R>();
                let mut f = Features::default();
                features(&pos, &t, &mut f);
                // Symmetric start positions: everything cancels but the side to move.
                if v != Variant::DiagonalRussian {
                    for (i, x) in f.0.iter().enumerate() {
                        if i != feature::TO_MOVE && i != feature::IMBALANCE {
                            assert_eq!(*x, 0, "{v} feature {}", feature_name(i));
                        }
                    }
                }
                let e = evaluate(&pos, &t, &Weights::for_variant(v));
                assert!(e.abs() < 50, "{v}: {e}");
            });
        }
    }

    #[test]
    fn material_counts() {
        // White a man up.
        let e = eval_fen::<rules::International>(Variant::International, "W:W31,32,33:B1,2");
        assert!(e > 50, "{e}");
        let e = eval_fen::<rules::International>(Variant::International, "B:W31,32,33:B1,2");
        assert!(e < -50, "{e}");
        // A king is worth more than a man.
        let e = eval_fen::<rules::Russian>(Variant::Russian, "W:WKa1:Bh8");
        assert!(e > 100, "{e}");
    }

    #[test]
    fn drawn_king_endings_are_scaled() {
        // Two kings against one on 8x8 with flying kings: drawn.
        let e = eval_fen::<rules::Russian>(Variant::Russian, "W:WKa1,Kc1:BKh2");
        assert!(e.abs() < 60, "{e}");
        // Three kings against one that holds the long diagonal: drawn.
        let e = eval_fen::<rules::Russian>(Variant::Russian, "W:WKa3,Kc1,Ke1:BKd4");
        assert!(e.abs() < 60, "{e}");
        // ... and winning when it does not.
        let e = eval_fen::<rules::Russian>(Variant::Russian, "W:WKa3,Kc1,Ke1:BKb8");
        assert!(e > 300, "{e}");
        // International: three kings against one draw.
        let e = eval_fen::<rules::International>(Variant::International, "W:WK1,K2,K3:BK50");
        assert!(e.abs() < 80, "{e}");
    }

    #[test]
    fn kings_on_both_sides_scale_international_endings() {
        // Even kings, one man more: half the score of the same material without the rule.
        assert_eq!(kings_on_both_sides([3, 1, 2, 1]), 8);
        assert_eq!(kings_on_both_sides([5, 1, 4, 1]), 8);
        // Two men more, or uneven kings: no scaling.
        assert_eq!(kings_on_both_sides([4, 1, 2, 1]), 16);
        assert_eq!(kings_on_both_sides([4, 2, 3, 1]), 16);
        // A side with three pieces or fewer and at least the other side's material cannot win.
        assert_eq!(kings_on_both_sides([1, 2, 4, 1]), 2);
        // ... but the side with more material against them still can.
        assert_eq!(kings_on_both_sides([0, 1, 8, 1]), 16);
        // No king on one side: no scaling (men against men, or a king against men only).
        assert_eq!(kings_on_both_sides([3, 0, 2, 1]), 16);
        // Through the evaluation: a king and three men against a king and two men is worth
        // half of what the material says, a long way from a won ending.
        let e =
            eval_fen::<rules::International>(Variant::International, "W:WK1,30,35,40:BK50,11,16");
        assert!(e > 0 && e < 80, "{e}");
    }

    #[test]
    fn giveaway_prefers_fewer_pieces() {
        let e = eval_fen::<rules::RussianGiveaway>(Variant::RussianGiveaway, "W:Wc3:Bf6,h6");
        assert!(e > 50, "{e}");
    }
}
