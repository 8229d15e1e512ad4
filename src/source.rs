//! Sources are bytes (docs/diagnostics.md, "Encodings"). Fortran and C codes carry
//! Shift-JIS or EUC-JP comments and strings; they must compile, with those bytes passed
//! through unchanged. The front end works on `str`, so a source is decoded with every
//! byte that is not part of valid UTF-8 escaped as one private-use character
//! U+F700 + byte (U+F780..U+F7FF, as Python's `surrogateescape` does with surrogates),
//! and every output is restored byte for byte. A genuine U+F780..U+F7FF in a UTF-8
//! source is escaped the same way, byte by byte, so the round trip is exact for any
//! input. Lines stay lines (the escaped bytes are never ASCII), so diagnostics keep
//! their `file:line:col`; a column counts an escaped byte as one character.

use std::borrow::Cow;
use std::path::Path;

/// The largest source read (an endless input such as `/dev/zero` is refused).
pub const MAX_SOURCE_BYTES: u64 = 64 << 20;

const BASE: u32 = 0xF700;

fn is_escape(c: char) -> bool {
    (0xF780..=0xF7FF).contains(&(c as u32))
}

fn escape(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        out.push(char::from_u32(BASE + b as u32).expect("U+F780..U+F7FF are characters"));
    }
}

/// Bytes to text: valid UTF-8 as it is, every other byte escaped.
pub fn decode(mut bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        if !s.chars().any(is_escape) {
            return Cow::Borrowed(s);
        }
    }
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 2);
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                push_valid(&mut out, s);
                return Cow::Owned(out);
            }
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                push_valid(&mut out, std::str::from_utf8(good).expect("valid up to here"));
                let bad = e.error_len().unwrap_or(rest.len());
                escape(&mut out, &rest[..bad]);
                bytes = &rest[bad..];
            }
        }
    }
}

fn push_valid(out: &mut String, s: &str) {
    for c in s.chars() {
        if is_escape(c) {
            let mut b = [0u8; 4];
            escape(out, c.encode_utf8(&mut b).as_bytes());
        } else {
            out.push(c);
        }
    }
}

/// Text to bytes: every escape back to its byte.
pub fn restore(text: &str) -> Cow<'_, [u8]> {
    if !text.chars().any(is_escape) {
        return Cow::Borrowed(text.as_bytes());
    }
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        if is_escape(c) {
            out.push((c as u32 - BASE) as u8);
        } else {
            let mut b = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
        }
    }
    Cow::Owned(out)
}

/// Reads and decodes a source file (at most [`MAX_SOURCE_BYTES`]).
pub fn read(path: &Path) -> Result<String, String> {
    let bytes = xmpc_outfile::read_bounded(path, MAX_SOURCE_BYTES)?;
    Ok(decode(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_exact() {
        let sjis: &[u8] = b"! \x93\xfa\x96\x7b\x8c\xea\n      x = 1\n"; // 日本語 in Shift-JIS
        let euc: &[u8] = b"/* \xc6\xfc\xcb\xdc */ int x;\n";
        let pua = "a\u{f781}b".as_bytes();
        let lone: &[u8] = b"\xff\xfe\x80";
        let trunc: &[u8] = b"x \xe6\x97";
        for b in [sjis, euc, pua, lone, trunc, "plain 日本".as_bytes()] {
            let t = decode(b);
            assert_eq!(t.lines().count(), std::str::from_utf8(b).map_or_else(|_| t.lines().count(), |s| s.lines().count()));
            assert_eq!(&*restore(&t), b, "{t:?}");
        }
        assert!(matches!(decode(b"plain"), Cow::Borrowed(_)));
        assert_eq!(decode(sjis).lines().nth(1), Some("      x = 1"));
    }
}
