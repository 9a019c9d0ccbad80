//! NumPy `.npy` files (format version 1.0), written as a stream and read
//! back: what `kanaszta learn data` writes and `kanaszta learn fit` reads.
//! `numpy.load` reads them with no other package.
//!
//! A file is the magic `\x93NUMPY`, the version `1 0`, the header's
//! length (two bytes, little-endian), the header (a Python dict literal
//! naming the dtype, the order and the shape, padded with spaces and a
//! newline so the data starts at byte [`HEADER_BYTES`]), then the
//! values, little-endian, one after the other. The writer leaves room
//! for any shape in a fixed header and writes the final shape over it
//! when it is closed, so it streams: it keeps nothing in memory.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Where the data of every file written here starts.
pub const HEADER_BYTES: usize = 128;

/// A type of value a file may hold.
pub trait Dtype: Copy {
    /// NumPy's name of it (`<f4`, `<i8`, `|u1`, …).
    const DESCR: &'static str;
    /// Its size in bytes.
    const SIZE: usize;
    /// Appends its little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// The value of its little-endian bytes (`b` is [`Dtype::SIZE`] long).
    fn get(b: &[u8]) -> Self;
}

macro_rules! dtype {
    ($($t:ty, $d:expr;)*) => {
        $(impl Dtype for $t {
            const DESCR: &'static str = $d;
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> $t {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(b);
                <$t>::from_le_bytes(a)
            }
        })*
    };
}
dtype! {
    f32, "<f4";
    i32, "<i4";
    i64, "<i8";
    u16, "<u2";
    u8, "|u1";
}

/// The header of a one- or two-dimensional array, padded to
/// [`HEADER_BYTES`] in all.
fn header(descr: &str, shape: &[u64]) -> Vec<u8> {
    let shape = match shape {
        [n] => format!("({n},)"),
        s => format!(
            "({})",
            s.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        ),
    };
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    let mut h = Vec::with_capacity(HEADER_BYTES);
    h.extend_from_slice(b"\x93NUMPY\x01\x00");
    let len = HEADER_BYTES - 10;
    h.extend_from_slice(&(len as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    while h.len() < HEADER_BYTES - 1 {
        h.push(b' ');
    }
    h.push(b'\n');
    h
}

/// A `.npy` file being written: values are appended, the shape is
/// written when it is [closed](NpyWriter::finish).
pub struct NpyWriter<T: Dtype> {
    file: BufWriter<File>,
    path: PathBuf,
    /// Values written.
    count: u64,
    /// The length of a row (1 for a one-dimensional array).
    width: u64,
    buf: Vec<u8>,
    _t: std::marker::PhantomData<T>,
}

impl<T: Dtype> NpyWriter<T> {
    /// A new file of rows of `width` values (1: a one-dimensional
    /// array); it reads as empty until closed.
    pub fn create(path: &Path, width: u64) -> io::Result<NpyWriter<T>> {
        let mut file = BufWriter::new(File::create(path)?);
        let shape = if width == 1 { vec![0] } else { vec![0, width] };
        file.write_all(&header(T::DESCR, &shape))?;
        Ok(NpyWriter {
            file,
            path: path.to_path_buf(),
            count: 0,
            width,
            buf: Vec::new(),
            _t: std::marker::PhantomData,
        })
    }

    /// Appends values.
    pub fn extend(&mut self, values: impl IntoIterator<Item = T>) -> io::Result<()> {
        self.buf.clear();
        for v in values {
            v.put(&mut self.buf);
        }
        self.count += (self.buf.len() / T::SIZE) as u64;
        self.file.write_all(&self.buf)
    }

    /// Values written so far.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Writes the final shape into the header and closes the file.
    pub fn finish(mut self) -> io::Result<()> {
        if !self.count.is_multiple_of(self.width) {
            return Err(io::Error::other(format!(
                "{}: {} values are not whole rows of {}",
                self.path.display(),
                self.count,
                self.width
            )));
        }
        let shape = if self.width == 1 {
            vec![self.count]
        } else {
            vec![self.count / self.width, self.width]
        };
        self.file.flush()?;
        let mut f = self.file.into_inner().map_err(|e| e.into_error())?;
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&header(T::DESCR, &shape))?;
        f.sync_data().or(Ok(()))
    }
}

/// A `.npy` file read whole: its shape and values.
#[derive(Clone, Debug, PartialEq)]
pub struct Npy<T> {
    /// The shape.
    pub shape: Vec<u64>,
    /// The values, in C order.
    pub data: Vec<T>,
}

/// Why a `.npy` file cannot be read: the file and what was wrong with it.
#[derive(Debug)]
#[non_exhaustive]
pub enum NpyError {
    /// The file cannot be opened or read.
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// No `\x93NUMPY` magic.
    NotNpy {
        /// The file.
        path: PathBuf,
    },
    /// A format version other than 1, 2 or 3.
    Version {
        /// The file.
        path: PathBuf,
        /// The version's major number.
        version: u8,
    },
    /// The header is cut short or not text.
    Header {
        /// The file.
        path: PathBuf,
    },
    /// The header names no dtype.
    NoDescr {
        /// The file.
        path: PathBuf,
    },
    /// Values of another type than the one expected.
    Dtype {
        /// The file.
        path: PathBuf,
        /// The dtype the file names.
        found: String,
        /// The dtype expected.
        expected: &'static str,
    },
    /// Fortran order.
    Fortran {
        /// The file.
        path: PathBuf,
    },
    /// The header names no shape.
    NoShape {
        /// The file.
        path: PathBuf,
    },
    /// A shape that is not whole numbers (its text).
    Shape {
        /// The file.
        path: PathBuf,
        /// The shape's text.
        text: String,
    },
    /// The data is not as long as the shape needs.
    Size {
        /// The file.
        path: PathBuf,
        /// The shape.
        shape: Vec<u64>,
        /// The bytes the shape needs.
        needs: u64,
        /// The bytes of data in the file.
        has: usize,
    },
}

impl std::fmt::Display for NpyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NpyError::Read { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            NpyError::NotNpy { path } => write!(
                f,
                "{}: not a NumPy .npy file (no \\x93NUMPY magic)",
                path.display()
            ),
            NpyError::Version { path, version } => write!(
                f,
                "{}: .npy format version {version} (1, 2 or 3 are read)",
                path.display()
            ),
            NpyError::Header { path } => write!(
                f,
                "{}: the .npy header is cut short or not text",
                path.display()
            ),
            NpyError::NoDescr { path } => {
                write!(f, "{}: the .npy header has no descr", path.display())
            }
            NpyError::Dtype {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: holds {found} values; {expected} were expected",
                path.display()
            ),
            NpyError::Fortran { path } => {
                write!(f, "{}: Fortran order; C order is read", path.display())
            }
            NpyError::NoShape { path } => {
                write!(f, "{}: the .npy header has no shape", path.display())
            }
            NpyError::Shape { path, text } => {
                write!(f, "{}: bad shape ({text})", path.display())
            }
            NpyError::Size {
                path,
                shape,
                needs,
                has,
            } => write!(
                f,
                "{}: shape {shape:?} needs {needs} bytes of data, the file has {has}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for NpyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NpyError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<NpyError> for crate::error::CliError {
    fn from(e: NpyError) -> crate::error::CliError {
        crate::error::CliError::Input(e.to_string())
    }
}

/// Reads a `.npy` file of values of type `T` (any header length; C
/// order). The error says what was wrong with the file.
pub fn read<T: Dtype>(path: &Path) -> Result<Npy<T>, NpyError> {
    let p = || path.to_path_buf();
    let cannot = |source| NpyError::Read { path: p(), source };
    let mut f = File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(NpyError::NotNpy { path: p() });
    }
    let (len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        version => return Err(NpyError::Version { path: p(), version }),
    };
    let head = bytes
        .get(start..start + len)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| NpyError::Header { path: p() })?;
    let field = |key: &str| -> Option<&str> {
        let at = head.find(&format!("'{key}':"))? + key.len() + 3;
        Some(head[at..].trim_start())
    };
    let descr = field("descr")
        .and_then(|s| s.strip_prefix('\'')?.split('\'').next())
        .ok_or_else(|| NpyError::NoDescr { path: p() })?;
    if descr != T::DESCR && !(T::SIZE == 1 && descr.ends_with(&T::DESCR[1..])) {
        return Err(NpyError::Dtype {
            path: p(),
            found: descr.to_string(),
            expected: T::DESCR,
        });
    }
    if field("fortran_order").is_some_and(|s| s.starts_with("True")) {
        return Err(NpyError::Fortran { path: p() });
    }
    let shape_text = field("shape")
        .and_then(|s| s.strip_prefix('(')?.split(')').next())
        .ok_or_else(|| NpyError::NoShape { path: p() })?;
    let shape = shape_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u64>())
        .collect::<Result<Vec<u64>, _>>()
        .map_err(|_| NpyError::Shape {
            path: p(),
            text: shape_text.to_string(),
        })?;
    let n: u64 = shape.iter().product();
    let body = &bytes[start + len..];
    if body.len() as u64 != n * T::SIZE as u64 {
        return Err(NpyError::Size {
            path: p(),
            needs: n * T::SIZE as u64,
            has: body.len(),
            shape,
        });
    }
    let data = body.chunks_exact(T::SIZE).map(T::get).collect();
    Ok(Npy { shape, data })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_reads_back_with_its_shape() {
        let dir = std::env::temp_dir().join(format!("kanaszta-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.npy");
        let mut w = NpyWriter::<f32>::create(&path, 3).unwrap();
        w.extend([1.0, 2.5, -3.0]).unwrap();
        w.extend([0.0, 0.125, 7.0]).unwrap();
        w.finish().unwrap();
        let r = read::<f32>(&path).unwrap();
        assert_eq!(r.shape, vec![2, 3]);
        assert_eq!(r.data, vec![1.0, 2.5, -3.0, 0.0, 0.125, 7.0]);
        assert!(read::<i64>(&path)
            .unwrap_err()
            .to_string()
            .contains("holds <f4 values"));
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), HEADER_BYTES + 6 * 4);
        assert_eq!(bytes[HEADER_BYTES - 1], b'\n');
        let mut w = NpyWriter::<u16>::create(&path, 1).unwrap();
        w.extend([4849u16, 0]).unwrap();
        w.finish().unwrap();
        assert_eq!(read::<u16>(&path).unwrap().shape, vec![2]);
        std::fs::write(&path, b"not numpy").unwrap();
        assert!(read::<u16>(&path)
            .unwrap_err()
            .to_string()
            .contains("not a NumPy"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
