//! Front end + IR + emitter throughput on generated 50k-line C and Fortran files,
//! next to tree-sitter alone (the floor: the pipeline should stay within 2x of it).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xmpc_ir::Lang;

fn c_source(lines: usize) -> String {
    let mut s = String::from("#include <stdio.h>\n#pragma xmp nodes p(*)\n#pragma xmp template t(0:999)\n#pragma xmp distribute t(block) onto p\ndouble a[1000], b[1000];\n#pragma xmp align [i] with t(i) :: a, b\n#pragma xmp shadow a[1:1]\n");
    let mut k = 0;
    while s.lines().count() < lines {
        s.push_str(&format!(
            "\n/* kernel {k}: 日本語のコメント */\nstatic double kernel{k}(int n, double w)\n{{\n  double sum = 0.0;\n  int i;\n#pragma xmp reflect (a)\n#pragma xmp loop on t(i) reduction(+:sum)\n  for (i = 1; i < n - 1; i++) {{\n    b[i] = w * (a[i - 1] + a[i + 1]) + (1.0 - w) * a[i];\n    sum += b[i] * b[i];\n  }}\n  if (sum > 1.0e3) {{\n    printf(\"big %d %f\\n\", n, sum);\n  }} else {{\n    sum = sum / 2;\n  }}\n  return sum;\n}}\n"
        ));
        k += 1;
    }
    s
}

fn f90_source(lines: usize) -> String {
    let mut s = String::from("module data\n  implicit none\n  integer, parameter :: n = 1000\n  real(8) :: a(n), b(n)\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align (i) with t(i) :: a, b\n!$xmp shadow a(1:1)\ncontains\n");
    let mut k = 0;
    while s.lines().count() < lines {
        s.push_str(&format!(
            "\n  ! kernel {k}: 日本語のコメント\n  subroutine kernel{k}(m, w, total)\n    integer, intent(in) :: m\n    real(8), intent(in) :: w\n    real(8), intent(out) :: total\n    integer :: i\n    total = 0.0d0\n!$xmp reflect (a)\n!$xmp loop on t(i) reduction(+:total)\n    do i = 2, m - 1\n      b(i) = w * (a(i - 1) + a(i + 1)) + (1.0d0 - w) * a(i)\n      total = total + b(i) ** 2\n    end do\n    if (total > 1.0d3) then\n      print *, 'big', m, total\n    else\n      total = total / 2\n    end if\n  end subroutine kernel{k}\n"
        ));
        k += 1;
    }
    s.push_str("end module data\n");
    s
}

fn bench(c: &mut Criterion) {
    for (name, lang, text) in [("c_50k", Lang::C, c_source(50_000)), ("f90_50k", Lang::FortranFree, f90_source(50_000))] {
        let mut g = c.benchmark_group(name);
        g.sample_size(10);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function("tree-sitter alone", |b| {
            let mut p = tree_sitter::Parser::new();
            let l: tree_sitter::Language = if lang == Lang::C { tree_sitter_c::LANGUAGE.into() } else { tree_sitter_fortran::LANGUAGE.into() };
            p.set_language(&l).unwrap();
            b.iter(|| p.parse(&text, None).unwrap())
        });
        g.bench_function("parse + IR + emit", |b| {
            b.iter(|| {
                let parsed = xmpc_frontend::parse_source(0, name, &text, lang);
                assert!(parsed.diags.is_empty());
                xmpc_backends::emit(&parsed.unit, &text, &[]).unwrap()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
