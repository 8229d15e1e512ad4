//! gcc's and mpicc's single-dash spellings, rewritten into xmpc's options before the
//! command line is parsed (docs/driver.md): `-show`/`-showme` (print the commands,
//! run nothing), `-pthread`, `-shared`, `-rdynamic`, `-static`, `-Wl,...`,
//! `-Xlinker X`, the dependency options `-MD -MMD -MP -MF F -MT T -MQ T`, `-std=...`
//! and mpirun's `-np`. Nothing is dropped: an option xmpc does not know is refused by
//! the parser (exit 2).

use std::ffi::OsString;

/// Options whose next argument is a value of theirs (not rewritten).
const TAKES_VALUE: &[&str] = &["--run-args", "--native-flag", "--link-flag", "--cc-flag", "--dep-flag", "-o", "-I", "-D", "-U", "-L", "-l"];

/// The subcommands (their own options are theirs: nothing is rewritten but `-np`).
const TOOLS: &[&str] = &["prof", "mpiete", "bsim", "psim", "nsim", "help"];

/// Rewrites gcc/mpicc spellings (`args` without the program name).
pub fn rewrite(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let args: Vec<OsString> = args.into_iter().collect();
    let tool = args.first().and_then(|a| a.to_str()).is_some_and(|a| TOOLS.contains(&a));
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.into_iter().peekable();
    while let Some(a) = it.next() {
        let Some(s) = a.to_str().map(str::to_string) else {
            out.push(a);
            continue;
        };
        if tool {
            // `xmpc bsim run skel -np 1024`, as mpirun spells it
            out.push(if s == "-np" { "--np".into() } else { a });
            continue;
        }
        let mut push = |v: &str| out.push(OsString::from(v));
        match s.as_str() {
            _ if TAKES_VALUE.contains(&s.as_str()) => {
                push(&s);
                if let Some(v) = it.next() {
                    out.push(v);
                }
            }
            "-np" => push("--np"),
            "-show" | "-showme" => push("--show"),
            "-pthread" => push("--cc-flag=-pthread"),
            "-shared" => push("--shared"),
            "-rdynamic" | "-static" => push(&format!("--link-flag={s}")),
            "-Xlinker" => {
                push("--link-flag=-Xlinker");
                if let Some(v) = it.next() {
                    out.push(OsString::from(format!("--link-flag={}", v.to_string_lossy())));
                }
            }
            "-MD" | "-MMD" | "-MP" => push(&format!("--dep-flag={s}")),
            "-MF" | "-MT" | "-MQ" => {
                push(&format!("--dep-flag={s}"));
                if let Some(v) = it.next() {
                    out.push(OsString::from(format!("--dep-flag={}", v.to_string_lossy())));
                }
            }
            _ if ["-MF", "-MT", "-MQ"].iter().any(|p| s.starts_with(p)) => {
                push(&format!("--dep-flag={}", &s[..3]));
                push(&format!("--dep-flag={}", &s[3..]));
            }
            _ if s.starts_with("-Wl,") => push(&format!("--link-flag={s}")),
            // `-std=c11` is a single-dash long option to C compilers.
            _ if s.starts_with("-std=") => push(&format!("-{s}")),
            _ => out.push(a),
        }
    }
    out
}

/// A command line as a shell would take it back (`-v`, `-show`).
pub fn shell_line(prog: &str, args: &[String]) -> String {
    std::iter::once(prog).chain(args.iter().map(String::as_str)).map(quote).collect::<Vec<_>>().join(" ")
}

fn quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Vec<String> {
        rewrite(s.split(' ').map(OsString::from)).into_iter().map(|a| a.into_string().unwrap()).collect()
    }

    #[test]
    fn gcc_spellings() {
        assert_eq!(r("-show a.c"), ["--show", "a.c"]);
        assert_eq!(r("-Wl,-rpath,/x -Wall"), ["--link-flag=-Wl,-rpath,/x", "-Wall"]);
        assert_eq!(r("-Xlinker -rpath -Xlinker /x"), ["--link-flag=-Xlinker", "--link-flag=-rpath", "--link-flag=-Xlinker", "--link-flag=/x"]);
        assert_eq!(r("-MMD -MF a.d -MTa.o"), ["--dep-flag=-MMD", "--dep-flag=-MF", "--dep-flag=a.d", "--dep-flag=-MT", "--dep-flag=a.o"]);
        assert_eq!(r("-pthread -shared -std=c11"), ["--cc-flag=-pthread", "--shared", "--std=c11"]);
        // values of options are never rewritten; subcommands keep their options
        assert_eq!(r("-o -show a.c"), ["-o", "-show", "a.c"]);
        assert_eq!(r("bsim run s -np 4 -shared"), ["bsim", "run", "s", "--np", "4", "-shared"]);
        assert_eq!(shell_line("cc", &["-o".into(), "a b".into(), "it's".into()]), "cc -o 'a b' 'it'\\''s'");
    }
}
