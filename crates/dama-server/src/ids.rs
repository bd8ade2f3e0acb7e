//! Random identifiers and secrets.

/// `n` random bytes from the operating system.
fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    // The OS random source only fails on broken systems; a server that cannot make secrets
    // must not hand out predictable ones, so this stops the request (the caller's task).
    getrandom::fill(&mut buf).expect("the operating system's random source failed");
    buf
}

const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

fn encode(bytes: &[u8], len: usize) -> String {
    // 5 bits per character from a 32-letter alphabet without look-alikes (l, o, 0, 1).
    let mut out = String::with_capacity(len);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for &b in bytes {
        acc = acc << 8 | b as u32;
        bits += 8;
        while bits >= 5 && out.len() < len {
            bits -= 5;
            out.push(ALPHABET[(acc >> bits & 31) as usize] as char);
        }
    }
    out
}

/// A public game id: 10 characters (50 bits), short enough to read out.
pub fn game_id() -> String {
    encode(&random_bytes::<7>(), 10)
}

/// A secret: 26 characters (130 bits): seat tokens and invite codes.
pub fn random_token() -> String {
    encode(&random_bytes::<17>(), 26)
}

/// Whether a string could be a game id or token (checked before touching the store).
pub fn is_well_formed(s: &str, max_len: usize) -> bool {
    !s.is_empty() && s.len() <= max_len && s.bytes().all(|b| ALPHABET.contains(&b))
}

/// Compares two secrets in time independent of where they first differ.
pub fn secrets_equal(a: &str, b: &str) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.bytes()
        .zip(b.bytes())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_their_length_and_alphabet_and_differ() {
        let a = game_id();
        let b = game_id();
        assert_eq!(a.len(), 10);
        assert_ne!(a, b);
        assert!(is_well_formed(&a, 10));
        let t = random_token();
        assert_eq!(t.len(), 26);
        assert!(is_well_formed(&t, 26));
        assert!(!is_well_formed("ABC", 10));
        assert!(!is_well_formed("", 10));
        assert!(!is_well_formed(&t, 10));
    }

    #[test]
    fn secrets_compare() {
        assert!(secrets_equal("abc", "abc"));
        assert!(!secrets_equal("abc", "abd"));
        assert!(!secrets_equal("abc", "abcd"));
    }
}
