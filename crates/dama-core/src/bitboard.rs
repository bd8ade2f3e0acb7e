//! Bitboards: one bit per square of a padded board layout (see [`crate::geometry`]).
//!
//! The hot code is generic over the integer that holds a board, so that the 8x8, 10x8 and 10x10
//! boards use a `u64` and only the 12x12 board pays for a `u128`.

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// An integer used as a set of squares.
pub trait Bitboard:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const EMPTY: Self;
    /// Number of bits.
    const BITS: u32;

    /// The set holding only bit `index` (which must be below [`Bitboard::BITS`]).
    fn single(index: u32) -> Self;
    /// Number of members.
    fn count(self) -> u32;
    /// Index of the lowest member; [`Bitboard::BITS`] if empty.
    fn lowest(self) -> u32;
    /// Index of the highest member; meaningless if empty.
    fn highest(self) -> u32;
    /// The set without its lowest member (`x & (x - 1)`; the empty set stays empty).
    fn without_lowest(self) -> Self;
    /// Widens to `u128` (the type used at the crate's dynamic boundary).
    fn to_u128(self) -> u128;
    /// Narrows from `u128`, dropping bits that do not fit.
    fn from_u128(bits: u128) -> Self;

    /// Whether the set is empty.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
    /// Whether bit `index` is set.
    #[inline(always)]
    fn has(self, index: u32) -> bool {
        !(self & Self::single(index)).is_empty()
    }
    /// Iterates over the members in increasing order.
    #[inline(always)]
    fn iter(self) -> Bits<Self> {
        Bits(self)
    }
}

macro_rules! impl_bitboard {
    ($t:ty) => {
        impl Bitboard for $t {
            const EMPTY: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn single(index: u32) -> Self {
                1 << index
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(bits: u128) -> Self {
                bits as $t
            }
        }
    };
}

impl_bitboard!(u64);
impl_bitboard!(u128);

/// Iterator over the members of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits<B>(B);

impl<B: Bitboard> Iterator for Bits<B> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let index = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(index)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bitboard> ExactSizeIterator for Bits<B> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_extremes() {
        let b: u64 = (1 << 3) | (1 << 17) | (1 << 63);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 17, 63]);
        assert_eq!(b.lowest(), 3);
        assert_eq!(b.highest(), 63);
        assert_eq!(b.count(), 3);
        let w: u128 = (1 << 5) | (1 << 100);
        assert_eq!(w.iter().collect::<Vec<_>>(), vec![5, 100]);
        assert_eq!(w.highest(), 100);
        assert_eq!(u64::from_u128(w), 1 << 5);
        assert!(w.has(100) && !w.has(99));
    }
}
