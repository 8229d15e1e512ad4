//! The test cases of an Omni test Makefile: the recipe lines of its `run:` target,
//! `$(XRUN) -n N ./prog.x` (`-np N` in some local-view Makefiles).
//!
//! GNU make rules followed: recipe lines start with a tab; a line starting with `#`
//! (at column 0, or a shell comment after the tab) is a comment and does not end the
//! recipe; blank lines inside a recipe are skipped; any other line ends it.

/// One `run:` recipe line: one test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunLine {
    /// 1-based line number in the Makefile.
    pub line: usize,
    /// Process count (`-n N` / `-np N`).
    pub np: u32,
    /// The executable as a make target (`offset.x`, without `./`).
    pub exe: String,
    /// The recipe line as written, trimmed (`$(XRUN) -n 2 ./offset.x`).
    pub text: String,
}

/// The `run:` recipe lines of `makefile` (its text). An error names a recipe line
/// that is not of the `$(XRUN) -n N ./prog` form (never skipped silently), or a
/// Makefile without a `run:` target.
pub fn run_lines(makefile: &str) -> Result<Vec<RunLine>, String> {
    let mut out = Vec::new();
    let mut in_run = false;
    let mut found = false;
    for (k, raw) in makefile.lines().enumerate() {
        let lineno = k + 1;
        if !in_run {
            if is_run_target(raw) {
                in_run = true;
                found = true;
            }
            continue;
        }
        if let Some(cmd) = raw.strip_prefix('\t') {
            let cmd = cmd.trim();
            if cmd.is_empty() || cmd.starts_with('#') {
                continue;
            }
            out.push(parse_recipe(cmd, lineno)?);
        } else if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        } else {
            in_run = false;
        }
    }
    if !found {
        return Err("no `run:` target".into());
    }
    Ok(out)
}

/// `run:` or `run: deps` at column 0 (not `.PHONY: ... run`, not `run_x:`).
fn is_run_target(line: &str) -> bool {
    line.strip_prefix("run").is_some_and(|r| r.trim_start().starts_with(':') && !r.trim_start().starts_with(":="))
}

fn parse_recipe(cmd: &str, lineno: usize) -> Result<RunLine, String> {
    let bad = |why: &str| format!("Makefile:{lineno}: `{cmd}`: {why} (expected `$(XRUN) -n N ./prog.x`)");
    // `$(XRUN_ENV)` (XcalableACC's Makefiles) is empty outside Omni's PBS set-up
    let toks: Vec<&str> = cmd.split_whitespace().filter(|t| !matches!(*t, "$(XRUN_ENV)" | "${XRUN_ENV}")).collect();
    match toks.as_slice() {
        [launcher, flag, n, exe] => {
            if !matches!(*launcher, "$(XRUN)" | "${XRUN}") {
                return Err(bad("not an $(XRUN) line"));
            }
            if !matches!(*flag, "-n" | "-np") {
                return Err(bad("no -n/-np process count"));
            }
            let np: u32 = n.parse().map_err(|_| bad("bad process count"))?;
            if np == 0 {
                return Err(bad("process count 0"));
            }
            let exe = exe.strip_prefix("./").ok_or_else(|| bad("the program is not ./NAME"))?;
            if exe.is_empty() || exe.contains('/') {
                return Err(bad("the program is not ./NAME"));
            }
            Ok(RunLine { line: lineno, np, exe: exe.to_string(), text: cmd.to_string() })
        }
        _ => Err(bad("unexpected words")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `gmove/C/Makefile` of the suite (abridged): a prerequisite list on `run:`,
    /// commented-out cases at column 0 between live ones, and the `RUN:` target
    /// (upper case, a different target) after it.
    const GMOVE: &str = "ONESIDED_LIB=$(shell xmpf90 --show-env | sed -n '/ONESIDED_LIB=/p' | sed 's/ONESIDED_LIB=//' | sed \"s/\\\"//g\")

XCC     = xmpcc
XRUN    = mpiexec
TESTS = $(wildcard *.c)
EXES  = $(TESTS:.c=.x)

.PHONY: clean all default run submit showlog cleanlog

all default: $(EXES)

%.x: %.c chk.o
\t  $(XCC) ${CFLAG} -o $@ $< ./chk.o

run: $(EXES)
\t$(XRUN) -n 2 ./gmove_lc_2.x
\t$(XRUN) -n 2 ./gmove_G2L_2.x
#\t$(XRUN) -n 4 ./gmove_G2L_4.x
#\t$(XRUN) -n 8 ./gmove_G2L_8.x
\t$(XRUN) -n 4 ./337_gmove.x
#\t$(XRUN) -n 4 ./gmove_test_normal.x
\t$(XRUN) -n 8 ./gmove_opt_53.x

RUN:
\tmkdir RUN

RUN/%.x:: %.x
\tcp $< $@
";

    #[test]
    fn gmove_makefile_cases() {
        let v = run_lines(GMOVE).unwrap();
        let got: Vec<(u32, &str)> = v.iter().map(|r| (r.np, r.exe.as_str())).collect();
        assert_eq!(got, vec![(2, "gmove_lc_2.x"), (2, "gmove_G2L_2.x"), (4, "337_gmove.x"), (8, "gmove_opt_53.x")]);
        assert_eq!(v[0].line, 16);
        assert_eq!(v[0].text, "$(XRUN) -n 2 ./gmove_lc_2.x");
        assert_eq!(v[2].line, 20);
    }

    #[test]
    fn local_view_np_spelling_and_bare_run_target() {
        // `post-wait/C/Makefile` of the local-view suite
        let mk = "XCC     = xmpcc\nXRUN    = mpiexec\n\nrun: \n\t$(XRUN) -np 4 ./post_wait.x\n\t$(XRUN) -np 4 ./post_wait_massive.x\n\nRUN:\n\tmkdir RUN\n";
        let v = run_lines(mk).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!((v[1].np, v[1].exe.as_str(), v[1].line), (4, "post_wait_massive.x", 6));
    }

    #[test]
    fn run_recipe_ends_at_the_next_rule_and_ignores_phony() {
        // `sync_image/C/Makefile`: `clean:` right after the run recipe.
        let mk = ".PHONY: clean all default run\n\nrun: \n\t$(XRUN) -np 4 ./sync_images.x\n\nclean:\n\trm -f $(EXES) $(C_OBJS)\n";
        let v = run_lines(mk).unwrap();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].exe, "sync_images.x");
    }

    #[test]
    fn unknown_recipe_lines_are_errors_not_skipped() {
        let e = run_lines("run:\n\t$(XRUN) -n 2 ./a.x\n\tcd RUN; pjsub go.sh\n").unwrap_err();
        assert!(e.contains("Makefile:3") && e.contains("pjsub"), "{e}");
        let e = run_lines("run:\n\t$(XRUN) -n two ./a.x\n").unwrap_err();
        assert!(e.contains("bad process count"), "{e}");
        let e = run_lines("run:\n\t$(XRUN) -n 2 ../a.x\n").unwrap_err();
        assert!(e.contains("./NAME"), "{e}");
        assert!(run_lines("all:\n\techo\n").unwrap_err().contains("no `run:`"));
        // `run :=` is a variable, not the target
        assert!(run_lines("run := 1\n").is_err());
    }
}
