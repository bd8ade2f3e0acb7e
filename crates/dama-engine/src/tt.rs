//! The transposition table, shared by all search threads without locks.
//!
//! Each slot holds a key and a data word. A writer stores `key ^ data` as the key, so a reader
//! that sees a key and a data word from two different writes finds that they do not match and
//! ignores the slot (the classic "lockless hashing" scheme): torn entries are never used.
//!
//! The best move is stored as its index in the position's legal move list (generation order is
//! deterministic) together with its destination square as a check, because a full move (with its
//! captured set) does not fit in a word on the larger boards.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What the stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at most the score.
    Upper = 1,
    /// The true value is at least the score.
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// Index of the best move in the legal move list, and its destination square.
    pub best: Option<(u8, u8)>,
}

#[derive(Debug, Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// Slots per bucket: a probe looks at this many neighbouring slots.
const BUCKET: usize = 4;

/// One cache line: a probe costs at most one memory access.
#[derive(Debug)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET]);
const NO_MOVE: u64 = 0xFF;

/// A shared transposition table.
#[derive(Debug)]
pub(crate) struct Table {
    buckets: Buckets,
    /// Number of buckets minus one (a power of two).
    mask: usize,
    generation: AtomicU8,
}

impl Table {
    /// A table of `megabytes` MiB, or of the largest power of two of MiB below it (the bucket
    /// count is a power of two); at least 1 MiB.
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let fit = bytes / std::mem::size_of::<Bucket>();
        let buckets = 1usize << fit.ilog2();
        Table {
            buckets: Buckets::new(buckets),
            mask: buckets - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for s in self.buckets.iter().flat_map(|b| b.0.iter()) {
            s.key.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        // The high bits pick the bucket; the low bits are also in the key check.
        &self.buckets[(key >> 32) as usize & self.mask].0
    }

    /// Asks the processor to start loading the bucket of `key` (the search calls it as soon
    /// as a child's hash is known, so that the probe finds the line in the cache).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = self.bucket(key) as *const [Slot; BUCKET] as *const i8;
            // SAFETY: prefetching is only a hint; `bucket` points into the table, and SSE is
            // part of the x86-64 baseline.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(bucket)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            let stored = slot.key.load(Ordering::Relaxed);
            if stored ^ data == key && data != 0 {
                return Some(decode(data));
            }
        }
        None
    }

    /// Stores a search result.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let stored = slot.key.load(Ordering::Relaxed);
            if data == 0 || stored ^ data == key {
                victim = i;
                if data != 0 {
                    let old = decode(data);
                    // Keep a deeper result of the same position unless the new one is exact,
                    // but keep its move if the new result has none.
                    if entry.bound != Bound::Exact && old.depth > entry.depth + 2 {
                        return;
                    }
                    if entry.best.is_none() && old.best.is_some() {
                        let merged = Entry {
                            best: old.best,
                            ..entry
                        };
                        write(slot, key, encode(merged, generation));
                        return;
                    }
                }
                break;
            }
            // Replace the shallowest entry, preferring those of older searches.
            let age = (generation + 64 - ((data >> 26) & 63)) & 63;
            let value = ((data >> 16) & 0xFF) as i32 - 8 * age as i32;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        write(&bucket[victim], key, encode(entry, generation));
    }

    /// Per mille of the first slots used by the current search (an estimate of how full the
    /// table is).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let n = (self.buckets.len() * BUCKET).min(1000);
        let used = self
            .buckets
            .iter()
            .flat_map(|b| b.0.iter())
            .take(n)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 26) & 63 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// The bucket array: zeroed memory aligned to 2 MiB, which Linux is asked to back with huge
/// pages, because random probes over many megabytes otherwise miss the TLB at nearly every
/// node. On Linux the memory is mapped directly (the advice must come before the first touch:
/// the allocator's over-aligned `alloc_zeroed` writes the zeros itself, which would fault every
/// page in at the small size first).
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    memory: Memory,
}

/// Where the buckets live, for freeing them.
#[derive(Debug)]
enum Memory {
    /// From the global allocator.
    Heap(std::alloc::Layout),
    /// A private anonymous mapping: its start and length.
    #[cfg(target_os = "linux")]
    Mapped(*mut libc::c_void, usize),
}

// SAFETY: the buckets hold only atomics, which are shared between threads by design; the
// mapping is owned by the one `Buckets` value.
unsafe impl Send for Buckets {}
// SAFETY: as above.
unsafe impl Sync for Buckets {}

impl std::fmt::Debug for Buckets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buckets({})", self.len)
    }
}

const HUGE_PAGE: usize = 2 << 20;

impl Buckets {
    fn new(len: usize) -> Buckets {
        let len = len.max(1);
        let bytes = len * std::mem::size_of::<Bucket>();
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            if let Some(b) = Self::mapped(len, bytes) {
                return b;
            }
        }
        let layout = std::alloc::Layout::from_size_align(bytes, 64)
            .unwrap_or_else(|_| std::alloc::Layout::new::<Bucket>());
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let Some(ptr) = std::ptr::NonNull::new(raw as *mut Bucket) else {
            std::alloc::handle_alloc_error(layout);
        };
        Buckets {
            ptr,
            len: layout.size() / std::mem::size_of::<Bucket>(),
            memory: Memory::Heap(layout),
        }
    }

    /// `len` buckets in a fresh mapping (zero pages), 2 MiB aligned and advised to use huge
    /// pages before anything touches it; `None` if the mapping fails.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, bytes: usize) -> Option<Buckets> {
        let total = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: a new private anonymous mapping; no existing memory is affected.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return None;
        }
        let offset = (HUGE_PAGE - raw as usize % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `offset < HUGE_PAGE`, so `offset + bytes <= total` stays inside the mapping;
        // the advice is only a hint.
        let start = unsafe {
            let start = (raw as *mut u8).add(offset);
            libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            start
        };
        Some(Buckets {
            ptr: std::ptr::NonNull::new(start as *mut Bucket)?,
            len,
            memory: Memory::Mapped(raw, total),
        })
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` buckets, zero-initialised (all-zero atomics are valid)
        // and alive until drop.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        match self.memory {
            // SAFETY: allocated in `new` with this layout.
            Memory::Heap(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout)
            },
            // SAFETY: the mapping made in `mapped`, unmapped once.
            #[cfg(target_os = "linux")]
            Memory::Mapped(raw, total) => unsafe {
                libc::munmap(raw, total);
            },
        }
    }
}

#[inline(always)]
fn write(slot: &Slot, key: u64, data: u64) {
    slot.key.store(key ^ data, Ordering::Relaxed);
    slot.data.store(data, Ordering::Relaxed);
}

#[inline(always)]
fn encode(e: Entry, generation: u64) -> u64 {
    let (index, to) = e.best.map_or((NO_MOVE, 0), |(i, t)| (i as u64, t as u64));
    (e.score as i16 as u16 as u64)
        | ((e.depth.clamp(0, 255) as u64) << 16)
        | ((e.bound as u64) << 24)
        | (generation << 26)
        | (index << 32)
        | (to << 40)
        | (1 << 63)
}

#[inline(always)]
fn decode(data: u64) -> Entry {
    let index = (data >> 32) & 0xFF;
    Entry {
        score: data as u16 as i16 as i32,
        depth: ((data >> 16) & 0xFF) as i32,
        bound: match (data >> 24) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        },
        best: (index != NO_MOVE).then_some((index as u8, ((data >> 40) & 0xFF) as u8)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let t = Table::new(1);
        let e = Entry {
            score: -1234,
            depth: 7,
            bound: Bound::Lower,
            best: Some((3, 44)),
        };
        t.store(0xDEAD_BEEF_0123_4567, e);
        assert_eq!(t.probe(0xDEAD_BEEF_0123_4567), Some(e));
        assert_eq!(t.probe(0xDEAD_BEEF_0123_4568), None);
        // A shallower result without a move keeps the stored move.
        let shallower = Entry {
            score: 5,
            depth: 6,
            bound: Bound::Exact,
            best: None,
        };
        t.store(0xDEAD_BEEF_0123_4567, shallower);
        let got = t.probe(0xDEAD_BEEF_0123_4567).unwrap();
        assert_eq!(got.score, 5);
        assert_eq!(got.best, Some((3, 44)));
        t.clear();
        assert_eq!(t.probe(0xDEAD_BEEF_0123_4567), None);
    }

    #[test]
    fn the_table_takes_the_memory_asked_for() {
        let mib = |t: &Table| (t.buckets.len() * std::mem::size_of::<Bucket>()) >> 20;
        for (asked, got) in [
            (0, 1),
            (1, 1),
            (2, 2),
            (3, 2),
            (16, 16),
            (64, 64),
            (100, 64),
        ] {
            assert_eq!(mib(&Table::new(asked)), got, "{asked} MiB");
        }
    }

    /// Pages of the table's memory that are resident (mapped), and all its pages.
    #[cfg(target_os = "linux")]
    fn resident_pages(t: &Table) -> (usize, usize) {
        let page = 4096;
        let bytes = t.buckets.len() * std::mem::size_of::<Bucket>();
        let pages = bytes.div_ceil(page);
        let mut residency = vec![0u8; pages];
        // SAFETY: the buckets start on a page boundary (2 MiB aligned) and span `bytes`;
        // `residency` has one byte per page.
        let r = unsafe {
            libc::mincore(
                t.buckets.ptr.as_ptr() as *mut libc::c_void,
                bytes,
                residency.as_mut_ptr(),
            )
        };
        assert_eq!(r, 0, "mincore");
        (residency.iter().filter(|&&b| b & 1 != 0).count(), pages)
    }

    /// A new table's memory is mapped on its first touch, which would fall in the first
    /// search's time; clearing it (what `Engine::new_game` does before a game or a timed
    /// analysis) maps it all.
    #[cfg(target_os = "linux")]
    #[test]
    fn clearing_maps_the_whole_table() {
        let t = Table::new(4);
        assert!(matches!(t.buckets.memory, Memory::Mapped(..)));
        let (before, pages) = resident_pages(&t);
        assert!(
            before < pages,
            "{before} of {pages} pages resident before any touch"
        );
        t.clear();
        assert_eq!(resident_pages(&t), (pages, pages));
    }

    #[test]
    fn many_keys_in_a_small_table() {
        let t = Table::new(1);
        for k in 0..100_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            t.store(
                key,
                Entry {
                    score: (k % 1000) as i32,
                    depth: (k % 20) as i32,
                    bound: Bound::Exact,
                    best: None,
                },
            );
            // What is found is always what was stored for that key.
            if let Some(e) = t.probe(key) {
                assert_eq!(e.score, (k % 1000) as i32);
            }
        }
        assert!(t.hashfull() > 0);
    }
}
