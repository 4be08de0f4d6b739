//! The server's ed25519 host key: made once, kept private (mode 0600), and
//! reused, so a student's `known_hosts` entry stays valid from class to
//! class. Teacher keys come from an `authorized_keys` file.

use bpeek_core::error::{Error, Result};
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::ssh_key::{HashAlg, LineEnding, PublicKey};
use russh::keys::{Algorithm, PrivateKey};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Where the key lives unless `--host-key` says: the user's data directory.
pub fn default_path() -> Result<PathBuf> {
    let data = match std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            Some(home) => PathBuf::from(home).join(".local/share"),
            None => {
                return Err(Error::input(
                    "no HOME or XDG_DATA_HOME to keep the host key in: give --host-key FILE",
                ));
            }
        },
    };
    Ok(data.join("bpeek").join("host_ed25519"))
}

/// Load the key at `path`, or make one there if there is none. Returns the
/// key and whether it was made now.
pub fn load_or_create(path: &Path) -> Result<(PrivateKey, bool)> {
    let place = path.display();
    match std::fs::metadata(path) {
        Ok(meta) => {
            if !meta.is_file() {
                return Err(Error::input(format!("{place}: not a key file")));
            }
            let mode = meta.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                return Err(Error::input(format!(
                    "{place}: the host key is readable by others (mode {mode:04o}); \
                     make it private with `chmod 600 {place}`"
                )));
            }
            let key = russh::keys::load_secret_key(path, None)
                .map_err(|e| Error::input(format!("{place}: cannot read the host key: {e}")))?;
            if key.algorithm() != Algorithm::Ed25519 {
                return Err(Error::input(format!(
                    "{place}: the host key is {}, bpeek serve needs an ed25519 key \
                     (ssh-keygen -t ed25519 -f FILE, or let bpeek make one)",
                    key.algorithm()
                )));
            }
            Ok((key, false))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((create(path)?, true)),
        Err(e) => Err(Error::input(format!("{place}: {e}"))),
    }
}

/// Make a new key at `path`: written to a private temporary file, then
/// renamed, so no reader ever sees half a key or a key others can read.
fn create(path: &Path) -> Result<PrivateKey> {
    let place = path.display();
    let fail = |e: &dyn std::fmt::Display| Error::failure(format!("{place}: {e}"));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| fail(&e))?;
    }
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| fail(&e))?;
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&seed));
    let text = key.to_openssh(LineEnding::LF).map_err(|e| fail(&e))?;
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(&e));
    }
    Ok(key)
}

/// The fingerprint line as `ssh-keygen -l -f KEY` prints it: bits,
/// SHA256 fingerprint, comment (empty for a key bpeek made), type.
pub fn fingerprint(key: &PrivateKey) -> String {
    format!(
        "256 {} {} (ED25519)",
        key.public_key().fingerprint(HashAlg::Sha256),
        key.comment()
    )
}

/// The public keys of an `authorized_keys` file (options before the key
/// type are skipped; blank lines and comments ignored).
pub fn read_authorized(path: &Path) -> Result<Vec<PublicKey>> {
    let place = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| Error::input(format!("{place}: {e}")))?;
    let mut keys = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let key =
            (0..words.len()).find_map(|at| PublicKey::from_openssh(&words[at..].join(" ")).ok());
        match key {
            Some(k) => keys.push(k),
            None => {
                return Err(Error::input(format!(
                    "{place}:{}: not a public key line",
                    i + 1
                )));
            }
        }
    }
    if keys.is_empty() {
        return Err(Error::input(format!("{place}: no keys in the file")));
    }
    Ok(keys)
}
