//! A LaTeX error is reported with the line of the .tex it is on.

use birkhoff_paper::compile::{errors_in, pdflatex, Compiled};

#[test]
fn a_latex_error_is_reported_with_its_line() {
    if !crate::pdflatex_or_skip("a_latex_error_is_reported_with_its_line") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tex = "\\documentclass{article}\n\\begin{document}\nFine.\n\nStill fine.\n\\undefinedcommandhere\n\\end{document}\n";
    std::fs::write(dir.path().join("broken.tex"), tex).unwrap();
    match pdflatex(dir.path(), "broken.tex") {
        Compiled::Failed(errors) => {
            assert_eq!(errors[0].line, Some(6), "{errors:?}");
            assert!(
                errors[0].message.contains("Undefined control sequence"),
                "{errors:?}"
            );
        }
        other => panic!("a broken file compiled: {other:?}"),
    }
    // The same file, mended, compiles.
    std::fs::write(
        dir.path().join("broken.tex"),
        tex.replace("\\undefinedcommandhere\n", ""),
    )
    .unwrap();
    assert!(matches!(
        pdflatex(dir.path(), "broken.tex"),
        Compiled::Pdf(_)
    ));
}

#[test]
fn errors_are_read_from_a_log() {
    let log = "(./x.tex\n! Missing $ inserted.\n<inserted text> \n                $\nl.12 a_b\n          \n! Emergency stop.\n";
    let e = errors_in(log);
    assert_eq!(
        (e[0].line, e[0].message.as_str()),
        (Some(12), "Missing $ inserted.")
    );
    assert_eq!(e[1].line, None);
}
