//! Semantic checks: each bad program gets the expected code and a located, golden
//! diagnostic; the corrected program gets none.

use xmpc_ir::Lang;
use xmpc_testsuite::run_text;

const HEAD: &str = "#pragma xmp nodes p(4)\n#pragma xmp template t(0:99)\n#pragma xmp distribute t(block) onto p\ndouble a[100], b[100][100];\n";

/// (name, language, source, expected code, fixed source that must be clean)
fn cases() -> Vec<(&'static str, Lang, String, &'static str, String)> {
    let c = |body: &str| format!("{HEAD}{body}int main(void) {{ return 0; }}\n");
    let f = |body: &str| {
        format!("program main\n  real(8) :: a(100), b(100, 100)\n!$xmp nodes p(4)\n!$xmp template t(100)\n!$xmp distribute t(block) onto p\n{body}end program main\n")
    };
    vec![
        ("c_undeclared_template", Lang::C, c("#pragma xmp align a[i] with tt(i)\n"), "XMP0102", c("#pragma xmp align a[i] with t(i)\n")),
        (
            "c_undeclared_nodes",
            Lang::C,
            format!("{HEAD}#pragma xmp template u(0:9)\n#pragma xmp distribute u(block) onto q\n"),
            "XMP0101",
            format!("{HEAD}#pragma xmp template u(0:9)\n#pragma xmp distribute u(block) onto p\n"),
        ),
        (
            "c_distribute_unknown_template",
            Lang::C,
            format!("{HEAD}#pragma xmp distribute s(block) onto p\n"),
            "XMP0102",
            format!("{HEAD}#pragma xmp template s(0:9)\n#pragma xmp distribute s(block) onto p\n"),
        ),
        ("c_undeclared_array", Lang::C, c("#pragma xmp align x[i] with t(i)\n"), "XMP0103", c("#pragma xmp align a[i] with t(i)\n")),
        ("c_align_rank_mismatch", Lang::C, c("#pragma xmp align b[i] with t(i)\n"), "XMP0104", c("#pragma xmp align b[i][*] with t(i)\n")),
        ("c_align_template_subscripts", Lang::C, c("#pragma xmp align a[i] with t(i, j)\n"), "XMP0104", c("#pragma xmp align a[i] with t(i)\n")),
        (
            "c_shadow_rank",
            Lang::C,
            c("#pragma xmp align a[i] with t(i)\n#pragma xmp shadow a[1][1]\n"),
            "XMP0104",
            c("#pragma xmp align a[i] with t(i)\n#pragma xmp shadow a[1]\n"),
        ),
        (
            "c_reflect_not_aligned",
            Lang::C,
            format!("{HEAD}int main(void) {{\n#pragma xmp reflect (a)\n  return 0;\n}}\n"),
            "XMP0109",
            format!("{HEAD}#pragma xmp align a[i] with t(i)\n#pragma xmp shadow a[1]\nint main(void) {{\n#pragma xmp reflect (a)\n  return 0;\n}}\n"),
        ),
        (
            "c_loop_not_followed_by_loop",
            Lang::C,
            format!("{HEAD}int main(void) {{\n  int i = 0;\n#pragma xmp loop on t(i)\n  a[i] = 1.0;\n  return 0;\n}}\n"),
            "XMP0106",
            format!("{HEAD}int main(void) {{\n  int i = 0;\n#pragma xmp loop on t(i)\n  for (i = 0; i < 100; i++) a[i] = 1.0;\n  return 0;\n}}\n"),
        ),
        (
            "c_loop_at_end_of_block",
            Lang::C,
            format!("{HEAD}int main(void) {{\n#pragma xmp loop on t(i)\n}}\n"),
            "XMP0106",
            format!("{HEAD}int main(void) {{\n  int i;\n#pragma xmp loop on t(i)\n  for (i = 0; i < 100; i++) ;\n}}\n"),
        ),
        (
            "c_distribute_format_count",
            Lang::C,
            format!("{HEAD}#pragma xmp template t2(0:9, 0:9)\n#pragma xmp distribute t2(block) onto p\n"),
            "XMP0107",
            format!("{HEAD}#pragma xmp template t2(0:9, 0:9)\n#pragma xmp distribute t2(block, *) onto p\n"),
        ),
        (
            "c_distribute_nodes_rank",
            Lang::C,
            format!("{HEAD}#pragma xmp template t2(0:9, 0:9)\n#pragma xmp distribute t2(block, block) onto p\n"),
            "XMP0108",
            format!("{HEAD}#pragma xmp nodes q(2,2)\n#pragma xmp template t2(0:9, 0:9)\n#pragma xmp distribute t2(block, block) onto q\n"),
        ),
        (
            "c_task_on_unknown_nodes",
            Lang::C,
            format!("{HEAD}int main(void) {{\n#pragma xmp task on pp(1)\n  {{ }}\n  return 0;\n}}\n"),
            "XMP0101",
            format!("{HEAD}int main(void) {{\n#pragma xmp task on p(1)\n  {{ }}\n  return 0;\n}}\n"),
        ),
        (
            "c_bcast_from_unknown",
            Lang::C,
            format!("{HEAD}int main(void) {{\n  int x = 0;\n#pragma xmp bcast (x) from r(1)\n  return x;\n}}\n"),
            "XMP0101",
            format!("{HEAD}int main(void) {{\n  int x = 0;\n#pragma xmp bcast (x) from p(1)\n  return x;\n}}\n"),
        ),
        ("f_undeclared_template", Lang::FortranFree, f("!$xmp align a(i) with tt(i)\n"), "XMP0102", f("!$xmp align a(i) with t(i)\n")),
        ("f_align_rank", Lang::FortranFree, f("!$xmp align b(i) with t(i)\n"), "XMP0104", f("!$xmp align b(*, i) with t(i)\n")),
        (
            "f_case_insensitive_names_are_fine",
            Lang::FortranFree,
            f("!$xmp align A(i) with T(i)\n!$xmp shadow a(1)\n!$xmp reflect (B)\n"),
            "XMP0109",
            f("!$xmp align A(i) with T(i)\n!$xmp shadow a(1)\n!$xmp reflect (A)\n"),
        ),
        (
            "f_loop_not_followed_by_do",
            Lang::FortranFree,
            f("!$xmp align a(i) with t(i)\n  integer :: i\n!$xmp loop on t(i)\n  a(1) = 0\n"),
            "XMP0106",
            f("!$xmp align a(i) with t(i)\n  integer :: i\n!$xmp loop on t(i)\n  do i = 1, 100\n    a(i) = 0\n  end do\n"),
        ),
        (
            // a typo in a clause variable is found by xmpc, not by the C compiler on a
            // generated line
            "c_reduction_undeclared",
            Lang::C,
            format!("{HEAD}int main(void) {{\n  double sum = 0;\n#pragma xmp reduction(+:summ)\n  return 0;\n}}\n"),
            "XMP0115",
            format!("{HEAD}int main(void) {{\n  double sum = 0;\n#pragma xmp reduction(+:sum)\n  return 0;\n}}\n"),
        ),
        (
            "c_loop_reduction_location_undeclared",
            Lang::C,
            format!("{HEAD}#pragma xmp align a[i] with t(i)\nint main(void) {{\n  double m = 0; int i, at = 0;\n#pragma xmp loop on t(i) reduction(max:m/ati/)\n  for (i = 0; i < 100; i++) if (a[i] > m) {{ m = a[i]; at = i; }}\n  return 0;\n}}\n"),
            "XMP0115",
            format!("{HEAD}#pragma xmp align a[i] with t(i)\nint main(void) {{\n  double m = 0; int i, at = 0;\n#pragma xmp loop on t(i) reduction(max:m/at/)\n  for (i = 0; i < 100; i++) if (a[i] > m) {{ m = a[i]; at = i; }}\n  return 0;\n}}\n"),
        ),
        (
            "f_bcast_undeclared_implicit_none",
            Lang::FortranFree,
            f("  implicit none\n  integer :: k\n  k = 1\n!$xmp bcast (kk)\n"),
            "XMP0115",
            f("  implicit none\n  integer :: k\n  k = 1\n!$xmp bcast (k)\n"),
        ),
    ]
}

#[test]
fn semantic_errors_are_located_and_golden() {
    let mut codes = Vec::new();
    for (name, lang, src, code, fixed) in cases() {
        let file = if lang == Lang::C { format!("{name}.c") } else { format!("{name}.f90") };
        let r = run_text(&file, &src, lang);
        let errs = r.errors();
        assert_eq!(errs.len(), 1, "{name}: expected one error, got:\n{}", r.rendered(&file));
        assert_eq!(errs[0].code.as_deref(), Some(code), "{name}:\n{}", r.rendered(&file));
        let primary = errs[0].labels.iter().find(|l| l.style == xmpc_ir::diag::LabelStyle::Primary).expect("a primary label");
        assert!(primary.range.end > primary.range.start && primary.range.end <= src.len(), "{name}: bad primary span");
        insta::assert_snapshot!(name, r.rendered(&file));
        let ok = run_text(&file, &fixed, lang);
        assert!(ok.errors().is_empty(), "{name} (fixed) still has errors:\n{}", ok.rendered(&file));
        codes.push(code);
    }
    for want in ["XMP0101", "XMP0102", "XMP0103", "XMP0104", "XMP0106", "XMP0107", "XMP0108", "XMP0109"] {
        assert!(codes.contains(&want), "no case for {want}");
    }
}

#[test]
fn a_use_of_another_files_module_is_not_guessed_at() {
    let src = "subroutine s\n  use distributed_data\n  integer :: i\n!$xmp loop on t(i)\n  do i = 1, 10\n  end do\nend subroutine s\n";
    let r = run_text("s.f90", src, Lang::FortranFree);
    assert!(r.errors().is_empty(), "{}", r.rendered("s.f90"));
    // A module of the same file is looked into.
    let src = "module m\n!$xmp nodes p(2)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\nend module m\nsubroutine s\n  use m\n  integer :: i\n!$xmp loop on tt(i)\n  do i = 1, 10\n  end do\nend subroutine s\n";
    let r = run_text("s.f90", src, Lang::FortranFree);
    assert_eq!(r.errors().len(), 1, "{}", r.rendered("s.f90"));
    assert_eq!(r.errors()[0].code.as_deref(), Some("XMP0102"));
}
