//! The class measured by an independent client: paramiko or OpenSSH
//! students, and pyte (see `tests/ssh/latency.py`), nothing of bpeek's own.
//! The figures are printed, never asserted; what is asserted is that every
//! student saw every step of the teacher's.

mod ssh;

use ssh::Class;

fn have_python() -> bool {
    let have = std::process::Command::new("python3")
        .args(["-c", "import paramiko, pyte"])
        .status()
        .is_ok_and(|s| s.success());
    if !have {
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "CI must have python3 with paramiko and pyte (.ci/run installs them)"
        );
        eprintln!("skipped: python3 with paramiko and pyte is not installed");
    }
    have
}

#[test]
fn an_independent_client_sees_every_follower_follow_every_step() {
    if have_python() {
        class_of_six("latency-paramiko", &[]);
    }
}

#[test]
fn openssh_students_see_every_step_of_the_teacher() {
    if !have_python() || !ssh::have_openssh() {
        return;
    }
    class_of_six("latency-openssh", &["--openssh"]);
}

#[test]
fn openssh_students_at_seven_sizes_see_every_step_of_the_teacher() {
    if !have_python() || !ssh::have_openssh() {
        return;
    }
    // Six of the seven sizes (80x24 to 200x60), each a screen of its own.
    class_of_six("latency-mixed", &["--openssh", "--mixed"]);
}

#[test]
fn followers_see_every_step_while_other_students_train_on_their_own_text() {
    if !have_python() {
        return;
    }
    // Three more students each paste a megabyte, train on it and go to
    // merge 3000 and back, over and over, while the six are timed.
    let said = class_of_six("latency-computing", &["--computing", "3"]);
    assert!(said.contains("computing 3"), "{said}");
}

/// Six students (at 80x24 unless `--mixed`) follow three steps of the
/// teacher's; what the script said.
fn class_of_six(name: &str, extra: &[&str]) -> String {
    let class = Class::start(name, &[]);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ssh/latency.py");
    let out = std::process::Command::new("python3")
        .args([
            script,
            &class.port().to_string(),
            &class.token(),
            "6",
            "3",
            "80",
            "24",
        ])
        .args(extra)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{said}");
    assert!(said.contains("connected 6"), "{said}");
    assert!(said.contains("(18 samples, 0 missed)"), "{said}");
    assert!(said.contains("at the teacher's merge 3: 6 of 6"), "{said}");
    said.into_owned()
}
