//! The JSON text of a position, laid out to fit lines of 80 characters.

// ----- layout of the JSON text ----------------------------------------------

/// Line width [`Position::to_json`] fits arrays and objects in.
pub(super) const WIDTH: usize = 80;

/// Lays out compact JSON (as `serde_json::to_string` writes it: no
/// whitespace, keys in order): every array or object whose one-line form
/// (`, ` and `: ` separators) fits in [`WIDTH`] columns on one line, the
/// others one entry a line, indented by two.
pub(crate) fn layout(src: &str) -> String {
    let b = src.as_bytes();
    // Pass 1: where each array or object ends, and its one-line width.
    let mut end = vec![0u32; b.len()];
    let mut width = vec![0u32; b.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut seps = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => i = skip_string(b, i) - 1,
            b'[' | b'{' => stack.push((i, seps)),
            b']' | b'}' => {
                if let Some((start, s0)) = stack.pop() {
                    end[start] = i as u32;
                    width[start] = (i - start + 1 + seps - s0) as u32;
                }
            }
            b',' | b':' => seps += 1,
            _ => {}
        }
        i += 1;
    }
    let mut out = Vec::with_capacity(b.len() * 2);
    let mut i = 0;
    emit(b, &end, &width, &mut i, 0, 0, &mut out);
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_else(|_| src.to_string())
}

/// The index just past the string starting at `i`.
pub(super) fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() && b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

/// Writes the value at `*i` (starting at column `col`, its lines indented
/// by `indent`) and moves `*i` past it.
pub(super) fn emit(
    b: &[u8],
    end: &[u32],
    width: &[u32],
    i: &mut usize,
    col: usize,
    indent: usize,
    out: &mut Vec<u8>,
) {
    let start = *i;
    match b.get(start) {
        Some(b'[' | b'{') => {
            let e = (end[start] as usize).max(start);
            if col + (width[start] as usize) < WIDTH || e == start + 1 {
                let mut k = start;
                while k <= e {
                    if b[k] == b'"' {
                        let n = skip_string(b, k).min(e + 1);
                        out.extend_from_slice(&b[k..n]);
                        k = n;
                        continue;
                    }
                    out.push(b[k]);
                    if b[k] == b',' || b[k] == b':' {
                        out.push(b' ');
                    }
                    k += 1;
                }
                *i = e + 1;
                return;
            }
            let object = b[start] == b'{';
            out.extend_from_slice(&b[start..start + 1]);
            out.push(b'\n');
            *i = start + 1;
            loop {
                out.extend(std::iter::repeat_n(b' ', indent + 2));
                let mut c = indent + 2;
                if object {
                    let n = skip_string(b, *i).min(e);
                    out.extend_from_slice(&b[*i..n]);
                    out.extend_from_slice(b": ");
                    c += n - *i + 2;
                    *i = n + 1;
                }
                emit(b, end, width, i, c, indent + 2, out);
                if *i < e && b[*i] == b',' {
                    out.extend_from_slice(b",\n");
                    *i += 1;
                } else {
                    break;
                }
            }
            out.push(b'\n');
            out.extend(std::iter::repeat_n(b' ', indent));
            out.push(b[e]);
            *i = e + 1;
        }
        Some(b'"') => {
            let n = skip_string(b, start).min(b.len());
            out.extend_from_slice(&b[start..n]);
            *i = n;
        }
        Some(_) => {
            let mut n = start;
            while n < b.len() && !matches!(b[n], b',' | b']' | b'}') {
                n += 1;
            }
            out.extend_from_slice(&b[start..n]);
            *i = n;
        }
        None => {}
    }
}
