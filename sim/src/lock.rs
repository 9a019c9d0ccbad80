//! One run per output directory at a time: `DIR/.lock`, created with
//! `create_new` and holding the pid, host and command of the run that
//! writes there. It is removed when the run ends, also on an error and on
//! a signal. A lock whose process is gone (on this host, by `/proc/PID`)
//! is taken over with a note; any other lock refuses the run, naming the
//! run that holds it.

use crate::error::CliError;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The lock file's name inside the output directory.
pub const LOCK_FILE: &str = ".lock";

/// Locks held by this process, for the signal handler that quits at once.
static HELD: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The lock of one output directory, released when dropped.
pub struct RunLock {
    path: PathBuf,
}

/// What a lock file says about the run that holds it.
struct Holder {
    pid: Option<u32>,
    host: String,
    command: String,
}

impl Holder {
    fn parse(text: &str) -> Holder {
        let field = |k: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(k).map(|v| v.trim().to_string()))
                .unwrap_or_default()
        };
        Holder {
            pid: field("pid ").parse().ok(),
            host: field("host "),
            command: field("command "),
        }
    }

    /// Whether the process is known to be gone: on this host, and no
    /// `/proc/PID` (Linux). Elsewhere nothing is known.
    fn is_gone(&self) -> bool {
        let Some(pid) = self.pid else {
            return false;
        };
        if self.host != hostname() || pid == std::process::id() {
            return false;
        }
        Path::new("/proc/self").is_dir() && !Path::new(&format!("/proc/{pid}")).exists()
    }

    fn describe(&self) -> String {
        let pid = self.pid.map_or("?".to_string(), |p| p.to_string());
        let host = if self.host.is_empty() {
            String::new()
        } else {
            format!(" on {}", self.host)
        };
        let command = if self.command.is_empty() {
            String::new()
        } else {
            format!(" (`{}`)", self.command)
        };
        format!("process {pid}{host}{command}")
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// The run that holds the lock of `dir`, if one does: who it is, and
/// whether its process is known to be gone (a run killed outright).
pub fn holder(dir: &Path) -> Option<(String, bool)> {
    let text = std::fs::read_to_string(dir.join(LOCK_FILE)).ok()?;
    let holder = Holder::parse(&text);
    Some((holder.describe(), holder.is_gone()))
}

impl RunLock {
    /// Creates `dir` if need be and locks it for this run.
    pub fn acquire(dir: &Path) -> Result<RunLock, CliError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::io("create output directory", dir.display(), e))?;
        let path = dir.join(LOCK_FILE);
        let args: Vec<String> = std::env::args().collect();
        let me = format!(
            "pid {}\nhost {}\ncommand {}\n",
            std::process::id(),
            hostname(),
            args.join(" ")
        );
        let mut took_over = false;
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    let lock = RunLock { path: path.clone() };
                    HELD.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(path.clone());
                    f.write_all(me.as_bytes())
                        .map_err(|e| CliError::io("write", path.display(), e))?;
                    return Ok(lock);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    let holder = Holder::parse(&text);
                    if !took_over && holder.is_gone() {
                        eprintln!(
                            "kanaszta: note: {} is a stale lock of {}, which is gone; taking it over \
                             (the files of that run in {} are replaced)",
                            path.display(),
                            holder.describe(),
                            dir.display()
                        );
                        took_over = true;
                        match std::fs::remove_file(&path) {
                            Ok(()) => continue,
                            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                            Err(e) => {
                                return Err(CliError::io("remove stale lock", path.display(), e))
                            }
                        }
                    }
                    return Err(CliError::Input(format!(
                        "{}: another run is writing there: {} holds {}; choose another --out, \
                         or, if that process is gone, remove {} and run again",
                        dir.display(),
                        holder.describe(),
                        path.display(),
                        path.display()
                    )));
                }
                Err(e) => return Err(CliError::io("create lock", path.display(), e)),
            }
        }
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        HELD.lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|p| p != &self.path);
    }
}

/// Removes every lock this process holds (before quitting at once on a
/// second signal, when no destructor runs).
pub fn release_all() {
    let held = HELD.lock().unwrap_or_else(|e| e.into_inner());
    for p in held.iter() {
        let _ = std::fs::remove_file(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_file_is_read_back() {
        let h = Holder::parse("pid 42\nhost box\ncommand kanaszta play --hands 9\n");
        assert_eq!(h.pid, Some(42));
        assert_eq!(h.host, "box");
        assert_eq!(h.command, "kanaszta play --hands 9");
        assert!(h
            .describe()
            .contains("process 42 on box (`kanaszta play --hands 9`)"));
        // Another host's process is never judged gone from here.
        assert!(!h.is_gone());
        assert!(!Holder::parse("garbage").is_gone());
    }
}
