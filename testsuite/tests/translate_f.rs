//! Golden snapshots of the Fortran translation (XMP Fortran → Fortran + xmpc runtime
//! calls, `backends/src/fortran`), free and fixed form. Every snapshotted program is one of
//! the self-checking programs of `testsuite/xmp/F/`, which `conformance_f.rs` compiles
//! and runs. Also: fixed-form output stays within columns 1–72, and the translator's
//! XMP04xx diagnostics for what it does not support are located.

use std::path::Path;

use xmpc_ir::{diag::Severity, Lang};

/// Programs of `testsuite/xmp/F/` whose translation is snapshotted.
const SNAPSHOTS: &[&str] = &[
    "block1d.f90",
    "loop_invariant_bounds.f90",
    "cyclic1d.f90",
    "gblock.f90",
    "gblock2d.f90",
    "gblock_star.f90",
    "struct_member.f90",
    "struct_member_fixed.f",
    "block2d.f90",
    "shadow_reflect.f90",
    "reflect_periodic.f90",
    "bcast.f90",
    "task.f90",
    "reduction_ops.f90",
    "lower_bound.f90",
    "subroutine_local.f90",
    "block1d_fixed.f",
    "reflect_fixed.f",
    "task_fixed.f",
    "gmove.f90",
    "gmove_fixed.f",
    "gmove_cyclic_fixed.f",
    "allocatable.f90",
    "template_fix.f90",
    "module_vars.f90",
    "dummy_arg.f90",
    "shared_label.f",
    "reduction_loc.f90",
    "assumed_shape.f90",
    "proc_locals.f90",
];

fn translate(name: &str, text: &str) -> Result<String, Vec<String>> {
    let lang = Lang::from_path(name).unwrap();
    let parsed = xmpc_frontend::parse_source(0, name, text, lang);
    let errs: Vec<String> = parsed.diags.iter().filter(|d| d.severity >= Severity::Error).map(|d| format!("{:?}: {}", d.code, d.message)).collect();
    assert!(errs.is_empty(), "{name}: front-end errors: {errs:?}");
    let edits = xmpc_backends::fortran::translate(&parsed.unit, text).map_err(|ds| {
        ds.iter()
            .map(|d| {
                let at = d.labels.first().map_or(0, |l| l.range.start);
                let line = text[..at].matches('\n').count() + 1;
                let col = at - text[..at].rfind('\n').map_or(0, |p| p + 1) + 1;
                format!("{}:{line}:{col}: {}", d.code.clone().unwrap_or_default(), d.message)
            })
            .collect::<Vec<_>>()
    })?;
    Ok(xmpc_backends::emit(&parsed.unit, text, &edits).expect("edits splice"))
}

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("xmp/F")
}

#[test]
fn translated_fortran_snapshots() {
    for name in SNAPSHOTS {
        let text = std::fs::read_to_string(dir().join(name)).unwrap();
        let out = translate(name, &text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let snap = name.replace('.', "_");
        insta::assert_snapshot!(snap.as_str(), out);
    }
}

/// Every program of the suite translates; fixed-form output keeps statements in
/// columns 7–72 (continuations in column 6) and free-form output keeps the main
/// program wrapper.
#[test]
fn every_program_translates_and_fixed_form_stays_in_72_columns() {
    let mut n = 0;
    for e in std::fs::read_dir(dir()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let Some(lang) = Lang::from_path(&name) else {
            continue;
        };
        let text = std::fs::read_to_string(&p).unwrap();
        let Some(text) = preprocessed(&p, lang, text) else {
            continue;
        };
        let out = translate(&name, &text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        if name == "mpi_plain.f90" {
            // a plain MPI program (calls MPI_Init, no directive) is left as it is
            assert_eq!(out, text, "{name}: a plain MPI program was changed");
            continue;
        }
        assert!(out.contains("call xmpf_init()"), "{name}: no runtime initialisation");
        assert!(out.to_ascii_lowercase().contains("subroutine xmpf_main"), "{name}: main program not wrapped");
        if lang == Lang::FortranFixed {
            for (k, line) in out.lines().enumerate() {
                let first = line.chars().next().unwrap_or(' ');
                if matches!(first, 'c' | 'C' | '*' | '!') {
                    continue;
                }
                assert!(line.chars().count() <= 72, "{name}:{}: longer than 72 columns: {line:?}", k + 1);
                if line.len() > 6 && line[..5].trim().is_empty() && !line[5..6].trim().is_empty() {
                    continue; // continuation line
                }
                assert!(
                    line.trim().is_empty() || line.len() >= 6 && line[..6].trim().chars().all(|c| c.is_ascii_digit()),
                    "{name}:{}: statement in columns 1-6: {line:?}",
                    k + 1
                );
            }
        }
        n += 1;
    }
    assert!(n >= 30, "expected at least 30 programs, found {n}");
}

/// The text the driver translates: a `.F90`/`.F` program with `#` lines goes through
/// the Fortran preprocessor first (src/fpp.rs), with the `-D`s of its
/// `xmpc-test: ... flags=` header. `None` (skipped, with a notice) without a compiler.
fn preprocessed(p: &Path, lang: Lang, text: String) -> Option<String> {
    let upper = p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.chars().any(|c| c.is_ascii_uppercase()));
    if !upper || !text.lines().any(|l| l.trim_start().starts_with('#')) {
        return Some(text);
    }
    let fc = std::env::var("XMPC_FC").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "mpif90".into());
    let defs: Vec<String> = text
        .lines()
        .filter_map(|l| l.split_once("xmpc-test:"))
        .flat_map(|(_, r)| r.split_whitespace().filter_map(|w| w.strip_prefix("flags=")).flat_map(|f| f.split(',')).map(String::from).collect::<Vec<_>>())
        .filter(|f| f.starts_with("-D"))
        .collect();
    let x = if lang == Lang::FortranFixed { "f77-cpp-input" } else { "f95-cpp-input" };
    let out = std::process::Command::new(&fc)
        .args(["-cpp", "-E", "-P", "-D_XMP", "-D_XCALABLEMP"])
        .args(&defs)
        .arg(format!("-I{}", p.parent().unwrap().display()))
        .arg(format!("-I{}/../runtime/lib/xmp/include", env!("CARGO_MANIFEST_DIR")))
        .args(["-x", x])
        .arg(p)
        .output();
    match out {
        Ok(o) if o.status.success() => Some(String::from_utf8(o.stdout).unwrap()),
        Ok(o) => panic!("{}: {fc} -cpp -E failed: {}", p.display(), String::from_utf8_lossy(&o.stderr)),
        Err(e) => {
            eprintln!("{}: skipped ({fc}: {e})", p.display());
            None
        }
    }
}

/// Unsupported forms are refused with a located XMP04xx diagnostic (never a wrong
/// translation).
#[test]
fn unsupported_forms_are_located_errors() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "reflect_cyclic.f90",
            "program g\n  integer :: a(10), b(10)\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(cyclic) onto p\n!$xmp align a(i) with t(i)\n!$xmp reflect (a)\n  a(:) = b(:)\nend program g\n",
            "XMP0303:7:",
        ),
        (
            "array_templ.f90",
            "program g\n  integer :: a(10), b(10)\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp template u(10)\n!$xmp distribute t(block) onto p\n!$xmp distribute u(block) onto p\n!$xmp align a(i) with t(i)\n!$xmp array on u(:)\n  a(:) = b(:)\nend program g\n",
            "XMP0306:9:",
        ),
        (
            "array_rank.f90",
            "program g\n  integer :: a(10), b(10, 10)\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n!$xmp array on t(:)\n  a(:) = b(:, :)\nend program g\n",
            "XMP0104:8:",
        ),
        (
            "onsub.f90",
            "program g\n  integer :: m\n!$xmp nodes p(4)\n  m = 1\n!$xmp reduction(+: m) on p(1:2, 1)\nend program g\n",
            "XMP0104:5:",
        ),
        (
            "assumed_size.f90",
            "subroutine s(a, n)\n  integer :: n\n  real :: a(*)\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n  a(1) = 0\nend subroutine s\n",
            "XMP0405:7:",
        ),
        (
            "assumed_size2.f90",
            "subroutine s(a, n)\n  integer :: n\n  real, dimension(n, *) :: a\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align a(i, *) with t(i)\n  a(1, 1) = 0\nend subroutine s\n",
            "XMP0405:7:",
        ),
        (
            "pointer.f90",
            "subroutine s(a, n)\n  integer :: n\n  real, pointer :: a(:)\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n  a(1) = 0\nend subroutine s\n",
            "XMP0405:7:",
        ),
        (
            "task_return.f90",
            "subroutine s(k)\n  integer :: k\n  real :: a(10)\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n!$xmp task on p(1)\n  if (k > 0) return\n!$xmp end task\n  a(1) = 0\nend subroutine s\n",
            "XMP0307:9:",
        ),
        (
            "unknown.f90",
            "program g\n  integer :: a(10)\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto q\n  a(1) = 1\nend program g\n",
            "XMP0101:5:",
        ),
        (
            // (directives in `select case` are translated: task_select.f90)
            "associate.f90",
            "program g\n  integer :: k\n!$xmp nodes p(*)\n  k = 1\n  associate (j => k)\n!$xmp barrier\n  end associate\nend program g\n",
            "XMP0409:6:",
        ),
        (
            "expand_cyclic.f90",
            "program g\n  integer :: a(10), i\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(cyclic) onto p\n!$xmp align a(i) with t(i)\n!$xmp loop on t(i) expand(1)\n  do i = 1, 10\n    a(i) = 1\n  end do\nend program g\n",
            "XMP0304:7:",
        ),
        (
            "expand_step.f90",
            "program g\n  integer :: a(10), i\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n!$xmp loop on t(i) expand(1)\n  do i = 1, 10, 2\n    a(i) = 1\n  end do\nend program g\n",
            "XMP0304:7:",
        ),
        (
            "gblock_fix_star.f90",
            "program g\n  integer, allocatable :: a(:)\n!$xmp nodes p(*)\n!$xmp template t(:)\n!$xmp distribute t(gblock(*)) onto p\n!$xmp align a(i) with t(i)\n!$xmp template_fix(gblock(*)) t(10)\n  allocate(a(10))\nend program g\n",
            "XMP0303:7:",
        ),
        (
            "gblock_scalar.f90",
            "program g\n  integer :: a(10), m\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(gblock(m)) onto p\n!$xmp align a(i) with t(i)\n  a(1) = 0\nend program g\n",
            "XMP0303:5:",
        ),
        (
            "gblock_fix_format.f90",
            "program g\n  integer, allocatable :: a(:)\n  integer :: m(4)\n!$xmp nodes p(*)\n!$xmp template t(:)\n!$xmp distribute t(gblock(*)) onto p\n!$xmp align a(i) with t(i)\n!$xmp template_fix(block) t(10)\n  allocate(a(10))\nend program g\n",
            "XMP0107:8:",
        ),
        (
            "member_var.f90",
            "program g\n  type b\n    real(8) :: a(10)\n  end type b\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align c%a(i) with t(i)\n  type(b) :: c\n  c%a(1) = 0\nend program g\n",
            "XMP0404:8:",
        ),
        (
            "member_whole.f90",
            "program g\n  type b\n    real(8) :: a(10)\n  end type b\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align b%a(i) with t(i)\n  type(b) :: c, d\n  d = c\nend program g\n",
            "XMP0405:10:",
        ),
        (
            // the use inside a `loop`'s `do` (after a comment line) is found too
            "member_whole_loop.f90",
            "program g\n  type b\n    real(8) :: a(10)\n  end type b\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align b%a(i) with t(i)\n  type(b) :: c, d\n  integer :: i\n!$xmp loop on t(i)\n  do i = 1, 10\n    ! copy c\n    c%a(i) = 1\n    if (i == 1) d = c\n  end do\nend program g\n",
            "XMP0405:15:",
        ),
        (
            "member_array_of.f90",
            "program g\n  type b\n    real(8) :: a(10)\n  end type b\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align b%a(i) with t(i)\n  type(b) :: c(2)\n  c(1)%a(1) = 0\nend program g\n",
            "XMP0405:9:",
        ),
        (
            "member_beside.f90",
            "program g\n  type b\n    real(8) :: a(10), z(3)\n  end type b\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align b%a(i) with t(i)\n  type(b) :: c\n  c%a(1) = 0\nend program g\n",
            "XMP0404:8:",
        ),
        (
            "member_gmove_nested.f90",
            "program g\n  type b\n    real(8) :: a(10)\n  end type b\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align b%a(i) with t(i)\n  type(b) :: c\n  real(8) :: x(10)\n!$xmp gmove\n  x(1:2) = c%a(1:2)%re\nend program g\n",
            "XMP0303:12:",
        ),
        (
            "fixedlate.f",
            "      program g\n      integer a(10), i\n      i = 1\nc$xmp nodes p(*)\n      a(i) = 1\n      end\n",
            "XMP0114:4:",
        ),
    ];
    let mut wrong = vec![];
    for (name, src, want) in cases {
        match translate(name, src) {
            Ok(out) => wrong.push(format!("{name}: translated, expected {want}:\n{out}")),
            Err(e) if !e.iter().any(|d| d.starts_with(want)) => wrong.push(format!("{name}: want {want}, got {e:?}")),
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// An assumed-shape aligned dummy (refused before) translates: the dummy is renamed
/// in the argument list, declared contiguous assumed-shape, and described again by
/// `xmpf_assumed` with this unit's template; `a` becomes a pointer onto it.
#[test]
fn assumed_shape_dummy_translates() {
    let src = "subroutine s(a, n)\n  integer :: n\n  real :: a(:)\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n  a(1) = 0\nend subroutine s\n";
    let out = translate("dummy.f90", src).unwrap_or_else(|e| panic!("dummy.f90: {e:?}"));
    assert!(out.starts_with("subroutine s(xmpf_arg_a, n)"), "{out}");
    assert!(out.contains("real, contiguous :: xmpf_arg_a(:)"), "{out}");
    assert!(out.contains("real, pointer, contiguous :: a(:)"), "{out}");
    assert!(out.contains("call xmpf_assumed(xmpf_d_a, 'dummy.f90', 7, 'align', xmpf_t_t, 1, 4, [integer :: 0]"), "{out}");
    // the pointer is mapped after the runtime call, before the first statement
    let at = |s: &str| out.find(s).unwrap_or_else(|| panic!("no {s} in {out}"));
    assert!(at("call xmpf_assumed(") < at("a(xmpf_lb(1):) => a"));
    assert!(at("a(xmpf_lb(1):) => a") < at("  a(1) = 0"));
}

/// Bad uses of `save_desc` and `local_alias` are located errors (Omni's checks:
/// an undeclared or non-XMP name, an allocatable array with save_desc; a local
/// alias of a non-aligned array, not assumed-shape, of another rank or type).
#[test]
fn save_desc_and_local_alias_bad_uses_are_located() {
    let head = "subroutine s\n  integer :: a(10), k\n  real(8), allocatable :: c(:)\n  integer :: e(10)\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp template u(:)\n!$xmp distribute t(block) onto p\n!$xmp distribute u(block) onto p\n!$xmp align a(i) with t(i)\n!$xmp align c(i) with t(i)\n";
    let tail = "  k = 1\nend subroutine s\n";
    let cases: &[(&str, &str, &str)] = &[
        ("sd_unknown.f90", "!$xmp save_desc :: p, q\n", "XMP0103:12:23: 'q' of save_desc is not declared"),
        ("sd_scalar.f90", "!$xmp save_desc k\n", "XMP0103:12:17: 'k' of save_desc is not a node set"),
        ("sd_plain_array.f90", "!$xmp save_desc :: e\n", "XMP0103:12:20:"),
        ("sd_allocatable.f90", "!$xmp save_desc :: a, c\n", "XMP0303:12:23: save_desc of allocatable array 'c'"),
        ("sd_template_fix.f90", "!$xmp save_desc :: u\n", "XMP0303:12:20: save_desc of template 'u'"),
        ("la_not_aligned.f90", "  integer :: le(:)\n!$xmp local_alias le => e\n", "XMP0109:13:25: global array 'e' of local_alias is not aligned"),
        ("la_undeclared_global.f90", "  integer :: le(:)\n!$xmp local_alias le => zz\n", "XMP0103:13:25: global array 'zz' of local_alias is not declared"),
        ("la_undeclared_local.f90", "!$xmp local_alias zz => a\n", "XMP0103:12:19: local alias 'zz' is not declared"),
        ("la_explicit.f90", "  integer :: la(10)\n!$xmp local_alias la => a\n", "XMP0404:13:19: local alias 'la' must be declared as an assumed-shape array"),
        ("la_allocatable.f90", "  integer, allocatable :: la(:)\n!$xmp local_alias la => a\n", "XMP0404:13:19:"),
        ("la_rank.f90", "  integer :: la(:, :)\n!$xmp local_alias la => a\n", "XMP0104:13:"),
        ("la_type.f90", "  real(8) :: la(:)\n!$xmp local_alias la => a\n", "XMP0404:13:"),
        ("la_aligned.f90", "!$xmp local_alias a => a\n", "XMP0404:12:19: local alias 'a' is aligned"),
        ("sd_late.f90", "  k = 2\n!$xmp save_desc :: p\n", "XMP0114:13:"),
    ];
    let mut wrong = vec![];
    for (name, mid, want) in cases {
        let src = format!("{head}{mid}{tail}");
        match translate(name, &src) {
            Ok(out) => wrong.push(format!("{name}: translated, expected {want}:\n{out}")),
            Err(e) if !e.iter().any(|d| d.starts_with(want)) => wrong.push(format!("{name}: want {want}, got {e:?}")),
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // a local alias that is a coarray is made over the block by xmpc's libcaf
    // (testsuite/xmp/F/local_alias_coarray.f90 runs it); with OpenCoarrays it is refused
    let src = format!("{head}  integer :: la(:)[*]\n!$xmp local_alias la => a\n{tail}");
    assert!(translate("la_coarray.f90", &src).is_ok());
    let parsed = xmpc_frontend::parse_source(0, "la_coarray.f90", &src, Lang::from_path("la_coarray.f90").unwrap());
    let e = xmpc_backends::fortran::translate_for(&parsed.unit, &src, &|_| None, &|_| None, false, false).unwrap_err();
    assert!(e.iter().any(|d| d.code.as_deref() == Some("XMP0450") && d.message.contains("local alias 'la' is a coarray")), "{e:?}");
    // an array aligned with a cyclic dimension is stored whole: no local section
    let cyc = "program g\n  integer :: a(10), la(:)\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(cyclic) onto p\n!$xmp align a(i) with t(i)\n!$xmp local_alias la => a\n  a(1) = 0\nend program g\n";
    match translate("la_cyclic.f90", cyc) {
        Ok(out) => panic!("la_cyclic: translated:\n{out}"),
        Err(e) => assert!(e.iter().any(|d| d.starts_with("XMP0303:7:25:")), "la_cyclic: {e:?}"),
    }
}

/// `save_desc` builds the named objects once: saved handles, their set-up under the
/// saved flag, no free at return; a named array's storage is saved too (allocated
/// and attached once, so its reflect plans are kept). In a main program it changes
/// nothing.
#[test]
fn save_desc_builds_once_and_frees_nothing() {
    let src = std::fs::read_to_string(dir().join("save_desc.f90")).unwrap();
    let out = translate("save_desc.f90", &src).unwrap();
    for h in ["xmpf_n_p", "xmpf_t_t", "xmpf_d_a", "xmpf_d_b", "xmpf_d_c"] {
        assert!(out.contains(&format!("integer(8), save :: {h} = 0_8")), "{h} not saved:\n{out}");
        assert!(!out.contains(&format!("xmpf_array_free({h})")), "{h} freed:\n{out}");
    }
    assert!(out.contains("logical, save :: xmpf_sdone = .false."));
    // every builder of a saved object is under the flag, the storage is not
    let mut guarded = false;
    for l in out.lines().map(str::trim) {
        if l == "if (.not. xmpf_sdone) then" {
            guarded = true;
        } else if l == "end if" {
            guarded = false;
        }
        let builder = ["call xmpf_nodes(", "call xmpf_template(", "call xmpf_distribute(", "call xmpf_array_shadow(xmpf_d_b"].iter().any(|b| l.starts_with(b))
            || l.starts_with("call xmpf_array(xmpf_d_b")
            || l.starts_with("call xmpf_array(xmpf_d_c");
        assert_eq!(builder, guarded && builder, "{l}: not under the saved flag");
        if l.starts_with("allocate(b(") || l.starts_with("call xmpf_array_attach(xmpf_d_b") {
            assert!(guarded, "{l}: the storage must be made once");
        }
    }
    assert!(out.contains("xmpf_sdone = .true."));
    assert!(out.contains("integer, allocatable, target, save :: b(:)"), "{out}");
    // the main program: nothing saved, no flag
    let main = "program g\n  integer :: a(10)\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n!$xmp save_desc :: p, t, a\n  a(1) = 0\nend program g\n";
    let out = translate("sd_main.f90", main).unwrap();
    assert!(!out.contains("xmpf_sdone") && !out.contains(", save ::"), "{out}");
}

/// The XMP library as Omni's xmpf90 gives it (backends/src/fortran/library.rs):
/// `xmp_desc_of` of a node set, template or aligned array is its handle (a
/// `type(xmp_desc)` variable gets it in the sequence type), `xmp_transpose` takes the
/// arrays, undeclared library functions call the runtime's typed aliases; a unit
/// that declares one keeps its own.
#[test]
fn library_calls_translate() {
    let src = "program g\n  implicit none\n  include 'xmp_lib.h'\n  integer :: a(8), b(8), v, e\n  type(xmp_desc) :: d\n!$xmp nodes p(*)\n!$xmp template t(8)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n!$xmp align b(i) with t(i)\n  e = xmp_nodes_index(xmp_desc_of(p), 1, v)\n  e = xmp_template_ubound(xmp_desc_of(t), 1, v)\n  d = xmp_desc_of(a)\n  call xmp_transpose(b, a, 0)\n  print *, xmp_node_num(), xmp_wtime()\ncontains\n  subroutine s()\n    integer :: xmp_num_nodes\n    print *, xmp_num_nodes()\n  end subroutine s\nend program g\n";
    let out = translate("lib.f90", src).unwrap_or_else(|e| panic!("lib.f90: {e:?}"));
    for want in [
        "e = xmpf_lib_nodes_index(xmpf_n_p, 1, v)",
        "e = xmpf_lib_template_ubound(xmpf_t_t, 1, v)",
        "d = xmp_desc(xmpf_d_a)",
        "call xmp_transpose(xmpf_d_b, xmpf_d_a, 0)",
        "print *, xmpf_lib_node_num(), xmpf_lib_wtime()",
        "integer(4), external :: xmpf_lib_nodes_index",
        "real(8), external :: xmpf_lib_wtime",
        "    print *, xmp_num_nodes()",
    ] {
        assert!(out.contains(want), "no `{want}` in:\n{out}");
    }
    assert!(!out.contains("xmp_desc_of"), "{out}");
}

/// Library arguments that name no XMP object are located errors (Omni refuses them
/// too), and so is an `xmp_desc_of` in a statement kept as text: it is never left to
/// the runtime, which would take a pointer that is no descriptor.
#[test]
fn library_bad_arguments_are_located() {
    let head =
        "subroutine s\n  integer :: a(10), c(10), k\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n";
    let tail = "end subroutine s\n";
    let cases: &[(&str, &str, &str)] = &[
        ("lib_plain.f90", "  call xmp_nodes_size(xmp_desc_of(k), 1, k)\n", "XMP0116:7:35: `xmp_desc_of` of something that is not"),
        ("lib_unknown.f90", "  call xmp_nodes_size(xmp_desc_of(q), 1, k)\n", "XMP0116:7:35:"),
        ("lib_two.f90", "  call xmp_nodes_size(xmp_desc_of(a, c), 1, k)\n", "XMP0116:7:23: `xmp_desc_of` takes one argument"),
        ("lib_transpose.f90", "  call xmp_transpose(c, a, 0)\n", "XMP0116:7:22: `xmp_transpose` of something that is not an aligned array"),
        ("lib_text.f90", "  print *, xmp_desc_of(p)\n", "XMP0305:7:12: `xmp_desc_of` in a statement"),
    ];
    let mut wrong = vec![];
    for (name, mid, want) in cases {
        let src = format!("{head}{mid}{tail}");
        match translate(name, &src) {
            Ok(out) => wrong.push(format!("{name}: translated, expected {want}:\n{out}")),
            Err(e) if !e.iter().any(|d| d.starts_with(want)) => wrong.push(format!("{name}: want {want}, got {e:?}")),
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
