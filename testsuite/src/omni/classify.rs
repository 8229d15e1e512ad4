//! What happened to one test case: built? ran? what did it print?
//!
//! Build failures (the program was not made): `refused` when xmpc printed one of its
//! diagnostics (`error[XMP0104]: ...`), `xmpc-crash` when xmpc panicked, `link-fail`
//! when the native linker failed (`undefined reference`), `compile-fail` for any other
//! native compiler (or make) failure. Run outcomes, in this order: `timeout` (the
//! process group was killed at the limit), `crash` (a process died of a signal:
//! mpiexec reports `... (signal 11)`, or mpiexec itself was killed), `wrong-answer`
//! (the program printed `ERROR` or `Error`, the suite's failure convention), `abort`
//! (non-zero exit without such a message: a runtime error, `MPI_Abort`), else `pass`.

use std::fmt;

/// The class of one run line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Pass,
    Refused,
    CompileFail,
    LinkFail,
    XmpcCrash,
    WrongAnswer,
    Abort,
    Crash,
    Timeout,
}

impl Class {
    pub const ALL: [Class; 9] =
        [Class::Pass, Class::Refused, Class::CompileFail, Class::LinkFail, Class::XmpcCrash, Class::WrongAnswer, Class::Abort, Class::Crash, Class::Timeout];

    pub fn name(self) -> &'static str {
        match self {
            Class::Pass => "pass",
            Class::Refused => "refused",
            Class::CompileFail => "compile-fail",
            Class::LinkFail => "link-fail",
            Class::XmpcCrash => "xmpc-crash",
            Class::WrongAnswer => "wrong-answer",
            Class::Abort => "abort",
            Class::Crash => "crash",
            Class::Timeout => "timeout",
        }
    }

    pub fn from_name(s: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == s)
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a program was not built, from the output of `make` (which echoes the commands
/// and prints the compilers' messages).
pub fn classify_build(log: &str) -> Class {
    if log.lines().any(|l| l.starts_with("error[XMP")) {
        Class::Refused
    } else if log.contains("panicked at") {
        Class::XmpcCrash
    } else if log.contains("undefined reference to") || log.contains("ld returned") || log.contains("multiple definition of") {
        Class::LinkFail
    } else {
        Class::CompileFail
    }
}

/// The first line that explains a build failure (for the table's notes and the JSON).
pub fn build_reason(log: &str) -> String {
    let pick = |pred: &dyn Fn(&str) -> bool| log.lines().find(|l| pred(l)).map(|l| l.trim().to_string());
    pick(&|l: &str| l.starts_with("error[XMP"))
        .or_else(|| pick(&|l: &str| l.contains("panicked at")))
        .or_else(|| pick(&|l: &str| l.contains("undefined reference to")))
        .or_else(|| pick(&|l: &str| l.contains("error:")))
        .or_else(|| pick(&|l: &str| l.contains("Error") || l.contains("No rule")))
        .unwrap_or_else(|| log.lines().last().unwrap_or("").trim().to_string())
}

/// True when the output says a process died of a signal (a crash).
///
/// MPICH (hydra): "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation
/// fault (signal 11)"; Open MPI: "... exited on signal 11 (Segmentation fault)".
/// `Killed (signal 9)` is not a crash: it is how hydra stops the other processes after
/// one exits with a non-zero status (e.g. after printing ERROR); the run is then
/// classified by that process's output.
fn died_of_signal(out: &str) -> bool {
    out.lines().any(|l| {
        ((l.contains("TERMINATED WITH THE EXIT STRING") && l.contains("(signal ")) || l.contains("exited on signal") || l.contains("Caught signal"))
            && !l.contains("(signal 9)")
            && !l.contains("signal 9 (Killed)")
    })
}

/// True when the program printed the suite's failure marker.
pub fn prints_error(out: &str) -> bool {
    out.contains("ERROR") || out.contains("Error")
}

/// The class of a finished run: `code` is mpiexec's exit status (`None`: killed by a
/// signal), `out` its standard output and error together.
pub fn classify_run(code: Option<i32>, out: &str, timed_out: bool) -> Class {
    if timed_out {
        Class::Timeout
    } else if code.is_none() || died_of_signal(out) {
        Class::Crash
    } else if prints_error(out) {
        Class::WrongAnswer
    } else if code != Some(0) {
        Class::Abort
    } else {
        Class::Pass
    }
}

/// A short reason for a failed run: the first `ERROR` line, the signal line, or the
/// last lines of output.
pub fn run_reason(class: Class, out: &str) -> String {
    let first = |pred: &dyn Fn(&str) -> bool| out.lines().find(|l| pred(l)).map(|l| l.trim().to_string());
    let r = match class {
        Class::Pass => Some(String::new()),
        Class::WrongAnswer => first(&|l: &str| l.contains("ERROR") || l.contains("Error")),
        Class::Crash => first(&|l: &str| l.contains("TERMINATED WITH THE EXIT STRING") || l.contains("exited on signal"))
            .or_else(|| first(&|l: &str| l.contains("Caught signal")))
            .or_else(|| Some("mpiexec killed by a signal".into())),
        Class::Abort => first(&|l: &str| l.contains("runtime error") || l.contains("Fatal error") || l.contains("Abort(")),
        _ => None,
    };
    r.unwrap_or_else(|| out.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Real outputs, captured on this machine (MPICH 4.0.2, hydra, UCX) and from xmpc
    // builds of the suite.
    const SEGV: &str = "[vm:4099 :0:4099] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))
==== backtrace (tid:   4099) ====
 0  /lib/x86_64-linux-gnu/libucs.so.0(ucs_handle_error+0x2dc) [0x7f7832080e9c]
=================================

===================================================================================
=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
=   PID 4099 RUNNING AT vm
=   EXIT CODE: 11
=   CLEANING UP REMAINING PROCESSES
=   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES
===================================================================================
YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)
This typically refers to a problem with your application.
Please see the FAQ page for debugging suggestions
";
    const DOUBLE_FREE: &str = "free(): double free detected in tcache 2

===================================================================================
=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
=   PID 4161 RUNNING AT vm
=   EXIT CODE: 6
=   CLEANING UP REMAINING PROCESSES
=   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES
===================================================================================
YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Aborted (signal 6)
This typically refers to a problem with your application.
Please see the FAQ page for debugging suggestions
";
    /// bcast/C/bcast.x with main's xmpc: rank 0 prints ERROR and exits 1, hydra kills
    /// the ranks still waiting.
    const ERROR_THEN_KILLED: &str = "ERROR

===================================================================================
=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
=   PID 25008 RUNNING AT vm
=   EXIT CODE: 9
=   CLEANING UP REMAINING PROCESSES
=   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES
===================================================================================
YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)
This typically refers to a problem with your application.
Please see the FAQ page for debugging suggestions
";
    const MPI_ABORT: &str = "[rank 0] xmpc runtime error: t.c:3: bcast: bad
Abort(1) on node 0 (rank 0 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 1) - process 0
";

    #[test]
    fn runs() {
        assert_eq!(classify_run(Some(0), "PASS\n", false), Class::Pass);
        // status 0 but the program said so: wrong answer (the suite's convention)
        assert_eq!(classify_run(Some(0), " ERROR a[3] = 2\nPASS\n", false), Class::WrongAnswer);
        assert_eq!(classify_run(Some(1), "Error in xmp_node_num\n", false), Class::WrongAnswer);
        assert_eq!(classify_run(Some(1), "ERROR\n", false), Class::WrongAnswer);
        assert_eq!(classify_run(Some(11), SEGV, false), Class::Crash);
        assert_eq!(run_reason(Class::Crash, SEGV), "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)");
        assert_eq!(classify_run(Some(6), DOUBLE_FREE, false), Class::Crash);
        assert_eq!(classify_run(Some(1), MPI_ABORT, false), Class::Abort);
        assert_eq!(classify_run(Some(9), ERROR_THEN_KILLED, false), Class::WrongAnswer);
        assert_eq!(run_reason(Class::WrongAnswer, ERROR_THEN_KILLED), "ERROR");
        let killed_only = ERROR_THEN_KILLED.strip_prefix("ERROR\n").unwrap();
        assert_eq!(classify_run(Some(9), killed_only, false), Class::Abort);
        assert_eq!(run_reason(Class::Abort, MPI_ABORT), "[rank 0] xmpc runtime error: t.c:3: bcast: bad");
        assert_eq!(classify_run(None, "", false), Class::Crash);
        assert_eq!(classify_run(None, "PASS\n", true), Class::Timeout);
        // lower-case "error" alone is not the suite's marker
        assert_eq!(classify_run(Some(0), "error count 0\nPASS\n", false), Class::Pass);
    }

    #[test]
    fn builds() {
        // Build logs of xmpc (main, 2026-11) on the suite, as `--keep` wrote them.
        let refused = r#"/tmp/omni-keep-global/bin/xmpcc -o scope.x scope.c
error[XMP0104]: `b` has 0 dimension(s) but the `align` source lists 1
   ┌─ scope.c:19:19
   │
19 │ #pragma xmp align b[i] with t[i]
   │                   ^ rank mismatch
   ·
28 │     int b = 3;
   │         - declared here

error[XMP0104]: `c` has 0 dimension(s) but the `align` source lists 1
"#;
        assert_eq!(classify_build(refused), Class::Refused);
        assert_eq!(build_reason(refused), "error[XMP0104]: `b` has 0 dimension(s) but the `align` source lists 1");
        let link = r#"/tmp/omni-keep-global/bin/xmpcc -o intrinsic_gather.x intrinsic_gather.c ./chk.o
/usr/bin/ld: /tmp/xmpc-3aEV5r/0_intrinsic_gather.o: in function `xmpc_user_main':
0_intrinsic_gather.xmpc.c:(.text+0x591): undefined reference to `xmp_gather'
collect2: error: ld returned 1 exit status
error: `mpicc` failed (exit status: 1)
make: *** [Makefile:17: intrinsic_gather.x] Error 1
"#;
        assert_eq!(classify_build(link), Class::LinkFail);
        assert_eq!(build_reason(link), "0_intrinsic_gather.xmpc.c:(.text+0x591): undefined reference to `xmp_gather'");
        // warnings of xmpc, then gcc's error: a native compile failure, not a refusal
        let cc = r#"/tmp/omni-keep-global/bin/xmpcc -o 361_array.x 361_array.c
warning[XMP0200]: C code that could not be parsed is kept as written
   ┌─ 361_array.c:23:10
   │
23 │     y[i][:] = 0;
   │          ^^^^ the C grammar does not accept this
   │
   = directives and declarations inside it are not translated
...
/tmp/xmpc-dmhwlO/0_361_array.xmpc.c:61:10: error: expected expression before ':' token
/tmp/xmpc-dmhwlO/0_361_array.xmpc.c:64:6: error: expected ']' before ':' token
/tmp/xmpc-dmhwlO/0_361_array.xmpc.c:64:12: error: expected ']' before ':' token
error: `mpicc` failed (exit status: 1)
"#;
        assert_eq!(classify_build(cc), Class::CompileFail);
        assert!(build_reason(cc).ends_with("error: expected expression before ':' token"), "{}", build_reason(cc));
        let ice = "thread 'main' panicked at backends/src/c/mod.rs:10:5:\nindex out of bounds\n";
        assert_eq!(classify_build(ice), Class::XmpcCrash);
    }

    #[test]
    fn names_round_trip() {
        for c in Class::ALL {
            assert_eq!(Class::from_name(c.name()), Some(c));
        }
        assert_eq!(Class::from_name("passed"), None);
    }
}
