//! `xmpcc` and `xmpf90`: drop-ins for Omni XcalableMP's compiler commands, so that a
//! Makefile written for Omni works with `XCC=xmpcc` unchanged. They only rewrite the
//! command line into `xmpc`'s options and run the `xmpc` installed beside them (the
//! translation, compilation and linking are xmpc's; docs/omni-compat.md).
//!
//! Omni flags: `-xacc`/`--xcalableacc` (`--acc`: gcc -fopenacc host fallback;
//! docs/xacc.md), `-omp`/`--openmp` (`-fopenmp`),
//! `--tmp` (`--keep`: the translated source beside the input), `-cpp` (xmpf90: the
//! Fortran compiler preprocesses), `--Wn"..."` (native compiler options),
//! `--Wl"..."` (linker options), `--show-env`, `--version`, `-h`/`--help`. Compiler
//! flags xmpc takes as they are: `-c`, `-o F`, `-I D`, `-D N[=V]`, `-U N`, `-L D`, `-l L`,
//! `-O*`, `-g`, `-W*`, `-f*`, `-m*`, `-std=*`. Any other flag is an error (exit 2)
//! that names it, never ignored.

/// What the drop-in does.
#[derive(Debug, PartialEq, Eq)]
pub enum Action {
    /// Run `xmpc` with these arguments.
    Xmpc(Vec<String>),
    Help,
    Version,
}

/// Which command: `xmpcc` (C) or `xmpf90` (Fortran). (Each drop-in binary constructs
/// one of them.)
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Xmpcc,
    Xmpf90,
}

impl Which {
    pub fn name(self) -> &'static str {
        match self {
            Which::Xmpcc => "xmpcc",
            Which::Xmpf90 => "xmpf90",
        }
    }
}

/// Omni flags xmpc does not support, with what they do in Omni (for the error).
const UNSUPPORTED: &[(&str, &str)] = &[
    ("--debug", "keep Omni's intermediate files"),
    ("--stop-pp", "stop after Omni's preprocessor"),
    ("--stop-frontend", "stop after Omni's front end"),
    ("--stop-translator", "stop after Omni's translator"),
    ("--stop-backend", "stop after Omni's back end"),
    ("--stop-compile", "stop after the native compile"),
    ("--scalasca", "Scalasca instrumentation"),
    ("--scalasca-all", "Scalasca instrumentation"),
    ("--tlog", "tlog instrumentation"),
    ("--tlog-all", "tlog instrumentation"),
];

/// gcc/mpicc options passed to xmpc as they are (docs/driver.md).
const GCC_FLAGS: &[&str] = &["-E", "-S", "-v", "-show", "-showme", "-pthread", "-shared", "-rdynamic", "-static", "-MD", "-MMD", "-MP"];

/// Options of Omni's pipeline stages xmpc does not have (`--Wp`, `--Wf`, `--Wx`, `--Wb`).
const STAGE_OPTS: &[(&str, &str)] =
    &[("--Wp", "Omni's preprocessor"), ("--Wf", "Omni's front end"), ("--Wx", "Omni's XcodeML translator"), ("--Wb", "Omni's back end")];

/// A native-compiler option in gcc's spelling: Omni's XcalableACC Makefiles pass the PGI
/// compiler's `-acc` (OpenACC on) and `-Minfo=accel` (report what went to the device),
/// whose gcc forms are `-fopenacc` and `-fopt-info-optimized-omp`; anything else as is.
fn gcc_spelling(f: &str) -> &str {
    match f {
        "-acc" => "-fopenacc",
        "-Minfo=accel" | "-Minfo" => "-fopt-info-optimized-omp",
        _ => f,
    }
}

/// Rewrites an Omni command line (without the program name) into `xmpc`'s, or lists
/// every flag that is not supported.
pub fn translate(which: Which, args: &[String]) -> Result<Action, Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut bad = Vec::new();
    let mut it = args.iter();
    // flags xmpc takes with a separate value, as they are
    const WITH_VALUE: &[&str] = &["-o", "-I", "-D", "-U", "-L", "-l", "-MF", "-MT", "-MQ", "-Xlinker"];
    let mut inputs = 0;
    while let Some(a) = it.next() {
        let a = a.as_str();
        match a {
            "-h" | "--help" => return Ok(Action::Help),
            "--version" => return Ok(Action::Version),
            "--show-env" => {
                return Ok(Action::Xmpc(vec![format!("--show-env={}", if which == Which::Xmpf90 { "fortran" } else { "c" })]));
            }
            "-xacc" | "--xcalableacc" => out.push("--acc".into()),
            "-omp" | "--openmp" => out.push("-fopenmp".into()),
            "--tmp" => out.push("--keep".into()),
            "-cpp" => {
                if which == Which::Xmpf90 {
                    out.push("--native-flag=-cpp".into());
                }
                // C sources are always preprocessed
            }
            "-c" | "-g" | "-w" => out.push(a.into()),
            // the language, as gfortran/gcc take it: the sources' extensions say the same
            // to xmpc, but for `f95-cpp-input` (preprocess a `.f90`), which is `-cpp`
            "-x" => match (which, it.next().map(String::as_str)) {
                (Which::Xmpf90, Some("f95-cpp-input" | "f77-cpp-input")) => out.push("--native-flag=-cpp".into()),
                (Which::Xmpf90, Some("f95" | "f77")) | (Which::Xmpcc, Some("c")) => {}
                (_, Some(l)) => bad.push(format!("`-x {l}`: {} takes only its own language", which.name())),
                (_, None) => bad.push("`-x` needs a value".into()),
            },
            _ if a.starts_with("-J") => {
                out.push("-J".into());
                out.push(a[2..].into());
            }
            _ if GCC_FLAGS.contains(&a) => out.push(a.into()),
            // Omni's names for gcc's -v and mpicc's -show
            "--verbose" => out.push("-v".into()),
            "--dry" => out.push("-show".into()),
            _ if WITH_VALUE.contains(&a) => match it.next() {
                Some(v) => {
                    out.push(a.into());
                    out.push(v.clone());
                }
                None => bad.push(format!("`{a}` needs a value")),
            },
            _ if a.starts_with("--Wn") => out.extend(a[4..].split_whitespace().map(|f| format!("--native-flag={}", gcc_spelling(f)))),
            _ if a.starts_with("--Wl") => out.extend(a[4..].split_whitespace().map(|f| format!("--link-flag={}", gcc_spelling(f)))),
            _ if a.starts_with("-Wl,") => out.push(format!("--link-flag={a}")),
            // xmpc's own (issue 39): the form of its diagnostics
            _ if a.starts_with("--diagnostic-format=") => out.push(a.into()),
            _ if STAGE_OPTS.iter().any(|(p, _)| a.starts_with(p)) => {
                let (p, what) = STAGE_OPTS.iter().find(|(p, _)| a.starts_with(p)).unwrap();
                bad.push(format!("`{a}`: {p} passes options to {what}, which xmpc does not have"));
            }
            _ if a.starts_with("-O")
                || (a.len() > 2 && ["-I", "-D", "-U", "-L", "-l", "-W", "-f", "-m"].iter().any(|p| a.starts_with(p)))
                || a.starts_with("-std=")
                || (a.len() > 3 && ["-MF", "-MT", "-MQ"].iter().any(|p| a.starts_with(p))) =>
            {
                out.push(a.into())
            }
            _ if a.starts_with('-') && a.len() > 1 => match UNSUPPORTED.iter().find(|(f, _)| *f == a) {
                Some((_, what)) => bad.push(format!("`{a}` ({what}) is not supported by xmpc")),
                None => bad.push(format!("`{a}` is not supported by {}", which.name())),
            },
            _ => {
                inputs += 1;
                out.push(a.into())
            }
        }
    }
    // `xmpf90 -show`: the Fortran compiler's options
    if which == Which::Xmpf90 && inputs == 0 && out.iter().any(|a| a == "-show" || a == "-showme") {
        out.push("--lang=fortran".into());
    }
    // Omni's commands build without OpenACC unless -xacc is given (its `acc` directives
    // are then comments, as gcc/gfortran take them without -fopenacc)
    if !out.iter().any(|a| a == "--acc") {
        out.push("--acc=none".into());
    }
    if bad.is_empty() {
        Ok(Action::Xmpc(last_define_wins(out)))
    } else {
        Err(bad)
    }
}

/// `-DNAME` and `-UNAME` of the same name: the later one wins, as in gcc's and Omni's
/// preprocessors (an application's Makefile passes `-DDEBUG` and then `-UDEBUG`);
/// the earlier ones are dropped, so xmpc sees each name once.
fn last_define_wins(args: Vec<String>) -> Vec<String> {
    // (index of the flag, whether the value is a separate argument, name)
    let mut defs: Vec<(usize, bool, String)> = vec![];
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        if (a == "-D" || a == "-U") && k + 1 < args.len() {
            defs.push((k, true, args[k + 1].split('=').next().unwrap_or("").to_string()));
            k += 2;
            continue;
        }
        if let Some(v) = a.strip_prefix("-D").or_else(|| a.strip_prefix("-U")) {
            defs.push((k, false, v.split('=').next().unwrap_or("").to_string()));
        }
        k += 1;
    }
    let mut drop = std::collections::BTreeSet::new();
    for (i, (k, sep, name)) in defs.iter().enumerate() {
        if defs[i + 1..].iter().any(|(_, _, n)| n == name) {
            drop.insert(*k);
            if *sep {
                drop.insert(k + 1);
            }
        }
    }
    args.into_iter().enumerate().filter(|(k, _)| !drop.contains(k)).map(|(_, a)| a).collect()
}

pub fn help(which: Which) -> String {
    format!(
        "usage: {n} <OPTIONS> <INPUTFILE> ...
xmpc's drop-in for Omni XcalableMP's `{n}`: the options are rewritten into xmpc's
and `xmpc` (installed beside {n}) translates, compiles and links.

  -o FILE, -c, -I DIR, -D NAME[=VAL], -L DIR, -l LIB, -O*, -g    as for a C compiler
  -W*, -f*, -m*, -std=*          passed to the native compiler
  --Wn\"OPTIONS\"                  native compiler options (compile only)
  --Wl\"OPTIONS\"                  linker options
  -E, -S, -v, -show, -showme, -pthread, -shared, -rdynamic, -Wl,..., -Xlinker X,
  -MD, -MMD, -MP, -MF F, -MT T   as for gcc and mpicc (--verbose: -v, --dry: -show)
  -omp, --openmp                 OpenMP (-fopenmp)
  -xacc, --xcalableacc           XcalableACC (gcc -fopenacc host fallback; xmpc --acc)
  --tmp                          keep the translated source (prog.xmpc.c / .F90)
  -cpp                           (xmpf90) run the preprocessor on Fortran sources
  --show-env                     print OMNI_HOME, ONESIDED_LIB, ... as Omni does
  --version, -h, --help
Other Omni options (--stop-*, --Wp/--Wf/--Wx/--Wb, ...) are refused with
exit status 2. See docs/omni-compat.md.",
        n = which.name()
    )
}

/// The drop-in's `main`.
pub fn main(which: Which) -> std::process::ExitCode {
    use std::process::ExitCode;
    // `xmpcc --help | head -1`: a closed stdout ends the program quietly (exit by
    // SIGPIPE, 141 in the shell), as for xmpc (docs/diagnostics.md); println! panicked.
    xmpc_outfile::quiet_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let xargs = match translate(which, &args) {
        Ok(Action::Help) => {
            println!("{}", help(which));
            return ExitCode::SUCCESS;
        }
        Ok(Action::Version) => {
            println!("{} (xmpc {}), a drop-in for Omni XcalableMP's {}", which.name(), env!("CARGO_PKG_VERSION"), which.name());
            return ExitCode::SUCCESS;
        }
        Ok(Action::Xmpc(a)) => a,
        Err(bad) => {
            for b in bad {
                eprintln!("{}: error: {b}", which.name());
            }
            eprintln!("{}: see `{} --help`", which.name(), which.name());
            return ExitCode::from(2);
        }
    };
    if args.is_empty() {
        eprintln!("{}: error: no input files (see `{} --help`)", which.name(), which.name());
        return ExitCode::from(2);
    }
    let xmpc = match std::env::current_exe() {
        Ok(e) => e.with_file_name("xmpc"),
        Err(e) => {
            eprintln!("{}: error: cannot locate myself: {e}", which.name());
            return ExitCode::from(2);
        }
    };
    use std::os::unix::process::CommandExt;
    let err = std::process::Command::new(&xmpc).args(&xargs).exec();
    eprintln!("{}: error: cannot run {}: {err} (xmpc must be installed beside {})", which.name(), xmpc.display(), which.name());
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(which: Which, s: &str) -> Result<Action, Vec<String>> {
        let args: Vec<String> = s.split(' ').filter(|x| !x.is_empty()).map(String::from).collect();
        translate(which, &args)
    }
    /// xmpc's command line: `v`, then `--acc=none` unless `v` turns OpenACC on
    fn x(v: &[&str]) -> Result<Action, Vec<String>> {
        let acc = v.contains(&"--acc");
        Ok(Action::Xmpc(v.iter().map(|s| s.to_string()).chain((!acc).then(|| "--acc=none".to_string())).collect()))
    }

    #[test]
    fn omni_makefile_lines() {
        // gmove/C/Makefile: $(XCC) ${CFLAG} -o $@ $< ./chk.o
        assert_eq!(t(Which::Xmpcc, "-D_MPI3 -o gmove_lc_2.x gmove_lc_2.c ./chk.o"), x(&["-D_MPI3", "-o", "gmove_lc_2.x", "gmove_lc_2.c", "./chk.o"]));
        // chk.o: $(XCC) -c $^ -o $@
        assert_eq!(t(Which::Xmpcc, "-c ./chk/chk.c -o chk.o"), x(&["-c", "./chk/chk.c", "-o", "chk.o"]));
        // array.x: $(XCC) -o $@ $< -lm
        assert_eq!(t(Which::Xmpcc, "-o array.x array.c -lm"), x(&["-o", "array.x", "array.c", "-lm"]));
        assert_eq!(
            t(Which::Xmpcc, "-I inc -Iinc2 -D N=4 -L lib -l m -O3 -g a.c"),
            x(&["-I", "inc", "-Iinc2", "-D", "N=4", "-L", "lib", "-l", "m", "-O3", "-g", "a.c"])
        );
    }

    #[test]
    fn omni_flags() {
        assert_eq!(t(Which::Xmpcc, "-omp -xacc --tmp -cpp a.c"), x(&["-fopenmp", "--acc", "--keep", "a.c"]));
        assert_eq!(t(Which::Xmpf90, "--diagnostic-format=json -fcheck=xmp a.f90"), x(&["--diagnostic-format=json", "-fcheck=xmp", "a.f90"]));
        assert_eq!(t(Which::Xmpf90, "-cpp a.f90"), x(&["--native-flag=-cpp", "a.f90"]));
        // --Wn"-O3 -march=native": the shell removes the quotes, one argument
        let a = vec!["--Wn-O3 -march=native".to_string(), "--Wl-Wl,-rpath,/opt".into(), "a.c".into()];
        assert_eq!(translate(Which::Xmpcc, &a), x(&["--native-flag=-O3", "--native-flag=-march=native", "--link-flag=-Wl,-rpath,/opt", "a.c"]));
        // XcalableACC's F/shadow-reflect: -xacc --Wn"-acc -Minfo=accel" --Wl"-acc" (PGI's spellings)
        let a = vec!["-xacc".to_string(), "--Wn-acc -Minfo=accel".into(), "--Wl-acc".into(), "a.f90".into()];
        assert_eq!(
            translate(Which::Xmpf90, &a),
            x(&["--acc", "--native-flag=-fopenacc", "--native-flag=-fopt-info-optimized-omp", "--link-flag=-fopenacc", "a.f90"])
        );
        assert_eq!(t(Which::Xmpcc, "--show-env"), Ok(Action::Xmpc(vec!["--show-env=c".into()])));
        assert_eq!(t(Which::Xmpf90, "--show-env"), Ok(Action::Xmpc(vec!["--show-env=fortran".into()])));
        assert_eq!(t(Which::Xmpf90, "--help"), Ok(Action::Help));
        // gcc's and mpicc's options, for CMake and ordinary Makefiles (issue 39)
        assert_eq!(t(Which::Xmpcc, "-E -v -pthread -MMD -MF a.d -Xlinker -z a.c"), x(&["-E", "-v", "-pthread", "-MMD", "-MF", "a.d", "-Xlinker", "-z", "a.c"]));
        assert_eq!(t(Which::Xmpcc, "--dry --verbose a.c"), x(&["-show", "-v", "a.c"]));
        assert_eq!(t(Which::Xmpf90, "-show"), x(&["-show", "--lang=fortran"]));
    }

    #[test]
    fn unsupported_flags_are_each_named() {
        let e = t(Which::Xmpcc, "--tlog --stop-pp --Wx-fxmp --frobnicate a.c").unwrap_err();
        assert_eq!(e.len(), 4, "{e:?}");
        assert!(e[0].contains("`--tlog` (tlog instrumentation)"), "{e:?}");
        assert!(e[1].contains("--stop-pp"));
        assert!(e[2].contains("`--Wx-fxmp`") && e[2].contains("translator"), "{e:?}");
        assert!(e[3].contains("`--frobnicate`") && e[3].contains("xmpcc"), "{e:?}");
        // -U as Omni's compilers take it, both spellings
        assert_eq!(t(Which::Xmpf90, "-U X -UY a.F90"), x(&["-U", "X", "-UY", "a.F90"]));
        // the flags of the applications' Makefiles: the later of -D/-U of a name wins
        assert_eq!(
            t(Which::Xmpf90, "-w -x f95-cpp-input -Jmods -DDEBUG -DN=3 -UDEBUG -D X -U X -DX=2 a.f90"),
            x(&["-w", "--native-flag=-cpp", "-J", "mods", "-DN=3", "-UDEBUG", "-DX=2", "a.f90"])
        );
        assert!(t(Which::Xmpf90, "-x c a.f90").unwrap_err()[0].contains("`-x c`"));
        assert!(t(Which::Xmpcc, "a.c -o").unwrap_err()[0].contains("`-o` needs a value"));
    }
}
