//! The host key: made once, private, reused; a key bpeek cannot use is a
//! clear error, never silently replaced.

mod tmux;

use bpeek::error::Error;
use bpeek::serve::host_key::{fingerprint, load_or_create, read_authorized};
use std::os::unix::fs::PermissionsExt;
use std::process::Command;
use tmux::TempDir;

fn input_error(result: Result<impl std::fmt::Debug, Error>) -> String {
    match result {
        Err(Error::Input(m)) => m,
        other => panic!("expected an input error, got {other:?}"),
    }
}

#[test]
fn a_new_key_is_private_and_the_same_key_comes_back_next_time() {
    let dir = TempDir::new("host-key-new");
    let path = dir.path().join("data/bpeek/host_ed25519");
    let (key, made) = load_or_create(&path).unwrap();
    assert!(made);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let dir_mode = std::fs::metadata(path.parent().unwrap())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(dir_mode, 0o700);

    let (again, made) = load_or_create(&path).unwrap();
    assert!(!made);
    assert_eq!(fingerprint(&key), fingerprint(&again));
    assert!(fingerprint(&key).starts_with("256 SHA256:"));
    assert!(fingerprint(&key).ends_with(" (ED25519)"));
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "no temporary files: {leftovers:?}");
}

#[test]
fn a_key_others_can_read_is_refused_and_left_alone() {
    let dir = TempDir::new("host-key-open");
    let path = dir.path().join("key");
    load_or_create(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let message = input_error(load_or_create(&path));
    assert!(
        message.contains("readable by others (mode 0644)"),
        "{message}"
    );
    assert!(message.contains("chmod 600"), "{message}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the key is untouched"
    );
}

#[test]
fn a_file_that_is_not_a_key_is_refused() {
    let dir = TempDir::new("host-key-garbage");
    let path = dir.path().join("key");
    std::fs::write(&path, "not a key\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let message = input_error(load_or_create(&path));
    assert!(message.contains("cannot read the host key"), "{message}");
}

#[test]
fn a_key_of_another_type_is_refused() {
    if Command::new("ssh-keygen").arg("-?").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "ssh-keygen is required in CI"
        );
        return;
    }
    let dir = TempDir::new("host-key-ecdsa");
    let path = dir.path().join("key");
    let made = Command::new("ssh-keygen")
        .args(["-q", "-t", "ecdsa", "-N", "", "-f"])
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    let message = input_error(load_or_create(&path));
    assert!(message.contains("needs an ed25519 key"), "{message}");
}

#[test]
fn teacher_keys_are_read_from_an_authorized_keys_file() {
    let dir = TempDir::new("teacher-keys");
    let path = dir.path().join("authorized_keys");
    let (key, _) = load_or_create(&dir.path().join("k")).unwrap();
    let line = key.public_key().to_openssh().unwrap();
    std::fs::write(
        &path,
        format!("# the teacher\n\n{line} laptop\nno-pty,from=\"10.0.0.1\" {line}\n"),
    )
    .unwrap();
    assert_eq!(read_authorized(&path).unwrap().len(), 2);

    std::fs::write(&path, format!("{line}\nssh-ed25519 AAAAnotbase64\n")).unwrap();
    let message = input_error(read_authorized(&path));
    assert!(message.ends_with(":2: not a public key line"), "{message}");
}
