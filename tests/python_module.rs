//! The `bpeek` Python module (crates/bpeek-py): built into a wheel by
//! maturin, installed into a virtual environment under `target/`, and
//! tested there by its own pytest tests (crates/bpeek-py/tests), which
//! compare it with this build's `bpeek` program and with the reference
//! libraries. Where Python, maturin or pytest is missing the test says so
//! and passes, except under CI (`CI=true`), where `.ci/run` installs them
//! and a missing one is a failure.

mod python;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Cargo's target folder: maturin builds there too, so the engine the
/// tests were built with is not compiled again.
fn target() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

/// Where the wheel and the virtual environment go.
fn work() -> PathBuf {
    target().join("python-module")
}

/// Run `command`, failing with what it printed if it does not succeed.
fn run(what: &str, command: &mut Command) -> String {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{printed}");
    printed
}

/// The wheel maturin builds from crates/bpeek-py, in release mode.
fn build_wheel(python: &str) -> PathBuf {
    let wheels = work().join("wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    run(
        "maturin build",
        Command::new(python)
            .args(["-m", "maturin", "build", "--release", "--quiet", "-m"])
            .arg(root().join("crates/bpeek-py/Cargo.toml"))
            .arg("-o")
            .arg(&wheels)
            .env("CARGO_TARGET_DIR", target())
            .env("PYO3_PYTHON", python_path(python)),
    );
    let wheel = std::fs::read_dir(&wheels)
        .expect("maturin wrote its folder")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"));
    wheel.expect("maturin built a wheel")
}

/// The interpreter's own path, so that the wheel is built for it.
fn python_path(python: &str) -> String {
    run(
        "python",
        Command::new(python).args(["-c", "import sys; print(sys.executable)"]),
    )
    .trim()
    .to_string()
}

/// A virtual environment that sees the interpreter's packages (pytest and
/// the reference libraries) with the wheel installed in it: its Python.
fn venv_with(python: &str, wheel: &Path) -> PathBuf {
    let venv = work().join("venv");
    let venv_python = venv.join("bin/python");
    if !venv_python.exists() {
        run(
            "python -m venv",
            Command::new(python)
                .args(["-m", "venv", "--system-site-packages"])
                .arg(&venv),
        );
    }
    run(
        "pip install the wheel",
        Command::new(&venv_python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--force-reinstall",
                "--no-deps",
                "--disable-pip-version-check",
            ])
            .arg(wheel),
    );
    venv_python
}

#[test]
fn the_python_module_passes_its_tests() {
    let Some(python) = python::with_module("maturin", "maturin") else {
        return;
    };
    if python::with_module("pytest", "pytest").is_none() {
        return;
    }
    let wheel = build_wheel(&python);
    let venv_python = venv_with(&python, &wheel);
    let printed = run(
        "pytest crates/bpeek-py/tests",
        Command::new(&venv_python)
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(root().join("crates/bpeek-py/tests"))
            .env("BPEEK_BIN", env!("CARGO_BIN_EXE_bpeek"))
            .current_dir(work()),
    );
    // pytest says "N passed"; a run that collected nothing exits 5 and
    // fails above.
    assert!(printed.contains(" passed"), "{printed}");
    eprintln!("{}", printed.lines().last().unwrap_or_default());
}
