//! Outputs that are not inputs: a run refuses, before it reads or writes
//! anything, an output that is one of its inputs or another of its
//! outputs, since writing it would destroy the other. Files are told apart
//! by device and inode, so a hard link or a symbolic link to an input is
//! caught as well as the same path; a path that does not exist yet is
//! compared by its resolved form. Character devices (`/dev/null`) may be
//! shared by any number of outputs.

use crate::error::{Error, Result};
use crate::formats::atomic::{Identity, identity};
use std::path::{Path, PathBuf};

/// One file a run touches: what the user calls it, where it is, and
/// whether the run writes it.
#[derive(Debug, Clone)]
pub struct Role {
    pub what: String,
    pub path: PathBuf,
    pub writes: bool,
}

impl Role {
    pub fn reads(what: impl Into<String>, path: impl AsRef<Path>) -> Role {
        Role {
            what: what.into(),
            path: path.as_ref().to_path_buf(),
            writes: false,
        }
    }

    pub fn writes(what: impl Into<String>, path: impl AsRef<Path>) -> Role {
        Role {
            what: what.into(),
            path: path.as_ref().to_path_buf(),
            writes: true,
        }
    }
}

/// Refuse when an output is the same file as an input or as another
/// output. Inputs that are not there are left for their reader to report;
/// `-` (standard input) is never a file here.
pub fn refuse_outputs_over_inputs(roles: &[Role]) -> Result<()> {
    let mut seen: Vec<(Role, Identity)> = Vec::new();
    for role in roles {
        if !role.writes && (role.path == Path::new("-") || !role.path.exists()) {
            continue;
        }
        let id = identity(&role.path)?;
        if id == Identity::Device {
            continue;
        }
        let clash = seen
            .iter()
            .find(|(other, other_id)| *other_id == id && (other.writes || role.writes));
        if let Some((other, _)) = clash {
            return Err(clash_error(other, role, &id));
        }
        seen.push((role.clone(), id));
    }
    Ok(())
}

fn clash_error(first: &Role, second: &Role, id: &Identity) -> Error {
    let same = if *id == Identity::Stdout {
        "both go to standard output".to_string()
    } else if first.path == second.path {
        "are the same path".to_string()
    } else {
        format!("are the same file ({})", first.path.display())
    };
    Error::input(format!(
        "{}: {} and {} {same}; writing one would destroy the other",
        second.path.display(),
        first.what,
        second.what
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("bpeek-same-file-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_output_that_is_an_input_is_refused_by_path_and_by_link() {
        let dir = scratch("links");
        let shard = dir.join("shard.txt");
        std::fs::write(&shard, "some text").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink(&shard, &link).unwrap();
        let hard = dir.join("hard.txt");
        std::fs::hard_link(&shard, &hard).unwrap();
        for out in [&shard, &link, &hard] {
            let e = refuse_outputs_over_inputs(&[
                Role::reads("shard 0", &shard),
                Role::writes("--out", out),
            ])
            .unwrap_err();
            assert!(e.to_string().contains("shard 0 and --out"), "{e}");
        }
        let other = dir.join("counts.parquet");
        refuse_outputs_over_inputs(&[
            Role::reads("shard 0", &shard),
            Role::writes("--out", &other),
        ])
        .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn inputs_may_repeat_and_devices_may_be_shared() {
        let dir = scratch("repeat");
        let shard = dir.join("a.txt");
        std::fs::write(&shard, "x").unwrap();
        refuse_outputs_over_inputs(&[
            Role::reads("shard 0", &shard),
            Role::reads("shard 1", &shard),
            Role::writes("--out", Path::new("/dev/null")),
            Role::writes("--trace", Path::new("/dev/null")),
        ])
        .unwrap();
        let e = refuse_outputs_over_inputs(&[
            Role::writes("--out", Path::new("-")),
            Role::writes("--trace", Path::new("/dev/stdout")),
        ])
        .unwrap_err();
        assert!(e.to_string().contains("both go to standard output"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
