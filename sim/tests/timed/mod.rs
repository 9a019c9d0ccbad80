//! Running the `kanaszta` binary with a deadline, for tests of hostile
//! inputs: a run past the deadline is killed and fails the test as a hang.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_kanaszta");

/// Runs the binary with a deadline (a hang fails the test instead of
/// hanging it); standard input from `stdin` when given.
pub fn run_timed(args: &[&str], stdin: Option<&[u8]>, secs: u64) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kanaszta");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    // Read both pipes as the child writes: a full pipe would block it.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out_pipe, &mut b);
        b
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err_pipe, &mut b);
        b
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.join().unwrap()).into_owned(),
        String::from_utf8_lossy(&err.join().unwrap()).into_owned(),
    )
}
