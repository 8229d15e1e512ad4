//! The output policy every xmpc tool follows (docs/diagnostics.md, "Output files"):
//!
//! - an output is written to a temporary file beside the target and renamed over it
//!   only when complete, so an error leaves nothing (and never a half-written file);
//! - the target, if it exists, must be a regular file: a symbolic link, FIFO, device or
//!   directory is refused with an error naming the path (never written through);
//! - an output may not be one of the inputs (`xmpc a.c -o a.c`);
//! - new files get mode `0666 & !umask` (`0777 & !umask` for executables), as `cc` does;
//! - a closed standard output (`xmpc ... | head`) ends the program quietly: SIGPIPE
//!   keeps its default action, so the shell sees 141 as for any Unix filter.
//!
//! Runtime crates may use this crate: it depends on nothing of the compiler.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Restores the default SIGPIPE action (Rust ignores it, which turns a write to a
/// closed pipe into an error that `println!` panics on). Call first thing in `main`.
pub fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal disposition to SIG_DFL has no memory-safety concern;
    // it is done before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Refuses a target that exists and is not a regular file.
pub fn check_target(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Err(_) => Ok(()),
        Ok(m) if m.file_type().is_symlink() => {
            Err(format!("'{}' is a symbolic link; refusing to write through it (remove it or name the file it points to)", path.display()))
        }
        Ok(m) if m.is_dir() => Err(format!("'{}' is a directory", path.display())),
        Ok(m) if !m.is_file() => Err(format!("'{}' is not a regular file (a FIFO, socket or device); refusing to replace it", path.display())),
        Ok(_) => Ok(()),
    }
}

/// Refuses an output that is one of the inputs (the same file, by device and inode,
/// whatever the spelling of the path).
pub fn check_not_input(out: &Path, inputs: &[&Path]) -> Result<(), String> {
    let Ok(o) = std::fs::metadata(out) else { return Ok(()) };
    for i in inputs {
        if let Ok(m) = std::fs::metadata(i) {
            if same(&o, &m) {
                return Err(format!("output '{}' is the input '{}'; refusing to overwrite it", out.display(), i.display()));
            }
        }
    }
    Ok(())
}

#[cfg(unix)]
fn same(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

/// Everything the policy checks before a tool does any work for an output `out`: its
/// directory exists, the target is not a link/FIFO/device/directory
/// ([`check_target`]) and not one of `inputs` ([`check_not_input`]). Tools report an
/// error here as a bad command line (exit status 2).
pub fn check_output(out: &Path, inputs: &[&Path]) -> Result<(), String> {
    let d = dir_of(out);
    if !d.is_dir() {
        return Err(format!("{}: directory '{}' does not exist", out.display(), d.display()));
    }
    check_target(out)?;
    check_not_input(out, inputs)
}

fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// A file being written beside its target; `commit` renames it into place, dropping it
/// removes it.
pub struct Pending {
    tmp: tempfile::NamedTempFile,
    target: PathBuf,
}

impl Pending {
    /// Starts an output at `path` (checked with [`check_target`]); `exec` gives it the
    /// executable bits the umask allows.
    pub fn new(path: &Path, exec: bool) -> Result<Pending, String> {
        check_target(path)?;
        let mut b = tempfile::Builder::new();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
        let prefix = format!(".{name}.");
        b.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // The mode passed to open(2), which the kernel masks with the umask.
            b.permissions(std::fs::Permissions::from_mode(if exec { 0o777 } else { 0o666 }));
        }
        let dir = dir_of(path);
        let tmp = b.tempfile_in(dir).map_err(|e| format!("cannot create a file in '{}': {e}", dir.display()))?;
        Ok(Pending { tmp, target: path.to_path_buf() })
    }

    /// Where the bytes go until `commit` (for writers that want a path).
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    pub fn file(&mut self) -> &mut std::fs::File {
        self.tmp.as_file_mut()
    }

    /// Renames the finished file over the target (checked again: it may have been
    /// replaced by a link meanwhile).
    pub fn commit(mut self) -> Result<(), String> {
        let t = self.target.clone();
        self.tmp.as_file_mut().flush().map_err(|e| format!("cannot write '{}': {e}", t.display()))?;
        check_target(&t)?;
        self.tmp.persist(&t).map_err(|e| format!("cannot write '{}': {}", t.display(), e.error))?;
        Ok(())
    }
}

/// Writes `bytes` to `path` under the policy above.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut p = Pending::new(path, false)?;
    p.file().write_all(bytes).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    p.commit()
}

/// Copies a finished file (a linked executable, an object) into place under the policy,
/// keeping the executable bits it has.
pub fn install(from: &Path, to: &Path) -> Result<(), String> {
    let exec = {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(from).map(|m| m.permissions().mode() & 0o111 != 0).unwrap_or(false)
        }
        #[cfg(not(unix))]
        false
    };
    let bytes = std::fs::read(from).map_err(|e| format!("cannot read '{}': {e}", from.display()))?;
    let mut p = Pending::new(to, exec)?;
    p.file().write_all(&bytes).map_err(|e| format!("cannot write '{}': {e}", to.display()))?;
    p.commit()
}

/// Writes several outputs all or none: every file is written beside its target first,
/// and only when all are complete are they renamed into place.
pub fn write_all(files: &[(PathBuf, Vec<u8>)]) -> Result<(), String> {
    let mut pending = Vec::new();
    for (path, bytes) in files {
        let mut p = Pending::new(path, false)?;
        p.file().write_all(bytes).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
        pending.push(p);
    }
    for p in pending {
        p.commit()?;
    }
    Ok(())
}

/// Reads an input file of at most `limit` bytes: a larger one, or an endless one
/// (`/dev/zero`), is refused with an error naming it, before more than `limit + 1` bytes
/// are held.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    if let Ok(m) = f.metadata() {
        if m.is_dir() {
            return Err(format!("cannot read '{}': it is a directory", path.display()));
        }
        if m.is_file() && m.len() > limit {
            return Err(format!("'{}' is {} bytes; the limit for this input is {limit}", path.display(), m.len()));
        }
    }
    let mut buf = Vec::new();
    f.take(limit + 1).read_to_end(&mut buf).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    if buf.len() as u64 > limit {
        return Err(format!("'{}' holds more than {limit} bytes (the limit for this input)", path.display()));
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_atomically_with_the_umask_mode() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.txt");
        write(&p, b"hello").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"hello");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let old = unsafe { libc::umask(0o022) };
            unsafe { libc::umask(old) };
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o666 & !(old as u32), "mode {mode:o}, umask {old:o}");
        }
        // nothing else left in the directory
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn refuses_symlinks_fifos_and_devices() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real");
        std::fs::write(&real, b"keep").unwrap();
        let link = d.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let e = write(&link, b"x").unwrap_err();
        assert!(e.contains("symbolic link") && e.contains("link"), "{e}");
        assert_eq!(std::fs::read(&real).unwrap(), b"keep");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        let e = write(Path::new("/dev/null"), b"x").unwrap_err();
        assert!(e.contains("/dev/null") && e.contains("not a regular file"), "{e}");
        let fifo = d.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(write(&fifo, b"x").unwrap_err().contains("not a regular file"));
    }

    #[test]
    fn endless_inputs_are_refused() {
        let e = read_bounded(Path::new("/dev/zero"), 1000).unwrap_err();
        assert!(e.contains("/dev/zero") && e.contains("1000"), "{e}");
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("big");
        std::fs::write(&p, vec![b'x'; 2000]).unwrap();
        assert!(read_bounded(&p, 1000).unwrap_err().contains("2000 bytes"));
        assert_eq!(read_bounded(&p, 2000).unwrap().len(), 2000);
    }

    #[test]
    fn refuses_an_output_that_is_an_input() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.c");
        std::fs::write(&a, b"int x;").unwrap();
        let other = d.path().join(".").join("a.c");
        assert!(check_not_input(&other, &[&a]).unwrap_err().contains("is the input"));
        assert!(check_not_input(&d.path().join("b.c"), &[&a]).is_ok());
    }

    #[test]
    fn write_all_leaves_nothing_when_one_fails() {
        let d = tempfile::tempdir().unwrap();
        let ok = d.path().join("a.txt");
        let bad = d.path().join("missing-dir").join("b.txt");
        assert!(write_all(&[(ok.clone(), b"a".to_vec()), (bad, b"b".to_vec())]).is_err());
        assert!(!ok.exists());
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
    }
}
