//! Budgets from the command line: a size that cannot fit in memory is refused before anything
//! is built, with the flag and the cost named, and `--max-memory` is read strictly.

use crate::birkhoff_command;

fn theory_file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// A 16-ary relation at size 3 has 43 million cells: building its SAT encoding took 25 s and
/// more than 6 GB before it aborted. Every engine now refuses it from its estimate, and says so.
#[test]
fn a_size_past_the_memory_limit_is_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let args = vec!["x"; 16].join(", ");
    let file = theory_file(
        dir.path(),
        "r16.bk",
        &format!("theory R16\nrel R : 16\naxiom a: R({args})\n"),
    );
    for command in [
        &["find", &file, "--size", "3"][..],
        &["spectrum", &file, "--max-size", "3"][..],
    ] {
        let o = birkhoff_command()
            .args(command)
            .args(["--timeout", "1", "--max-memory", "4G"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{command:?}: {err}");
        assert!(
            err.contains("--")
                && err.contains("size 3")
                && err.contains("of memory, more than the 4.0 GiB allowed"),
            "{command:?}: {err}"
        );
    }
    // Under the limit, the same kind of theory is answered.
    let small = theory_file(
        dir.path(),
        "r6.bk",
        &format!(
            "theory R6\nrel R : 6\naxiom a: R({})\n",
            ["x"; 6].join(", ")
        ),
    );
    let o = birkhoff_command()
        .args(["find", &small, "--size", "3", "--max-memory", "4G"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn max_memory_takes_an_amount_and_names_itself_otherwise() {
    for bad in ["lots", "0", "-1G", "1X"] {
        let o = birkhoff_command()
            .args([
                "find",
                "group",
                "--size",
                "2",
                &format!("--max-memory={bad}"),
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("--max-memory"), "{bad}: {err}");
    }
    let o = birkhoff_command()
        .args(["find", "group", "--size", "2", "--max-memory", "512M"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
}
