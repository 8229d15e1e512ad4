//! llvm-mca's side of `psim predict -v`: innermost loops cut out of gcc's assembly by
//! their `.loc` lines (fixture tests/mca/kernels.s, gcc 12.2 -O2 -g of kernels.c), and
//! llvm-mca's summary read back.

use xmpc_psim::mca;

const ASM: &str = include_str!("mca/kernels.s");

#[test]
fn innermost_loops_are_cut_out_with_their_source_lines() {
    let ls = mca::loops(ASM, "kernels.c");
    // the stencil's i loop (the j loop holds it: not innermost), dot's loop, scale's loop
    assert_eq!(ls.len(), 3, "{ls:#?}");
    // the stencil's statement (lines 8-9): its loop is the inner one, 4 loads and a store
    let st = mca::pick(&ls, 8).expect("a loop for line 8");
    assert!(st.insns.iter().all(|(l, _)| (7..=9).contains(l)), "{st:#?}");
    assert_eq!(st.insns.iter().filter(|(_, i)| i.starts_with("addsd")).count(), 3, "{st:#?}");
    assert!(st.insns.last().unwrap().1.starts_with("jne "), "{st:#?}");
    assert_eq!(st.lanes(), 1.0);
    // the body llvm-mca reads: instructions only, no labels or directives
    let body = st.body();
    assert!(body.lines().all(|l| l.starts_with('\t') && !l.contains(".loc") && !l.contains(':')), "{body}");
    // dot: a scalar reduction
    let d = mca::pick(&ls, 15).expect("a loop for line 15");
    assert!(d.insns.iter().any(|(_, i)| i.starts_with("mulsd")), "{d:#?}");
    assert_eq!(d.lanes(), 1.0);
    // scale: a constant trip count, vectorised with SSE2 by gcc -O2: two lanes
    let s = mca::pick(&ls, 22).expect("a loop for line 22");
    assert!(s.insns.iter().any(|(_, i)| i.starts_with("mulpd")), "{s:#?}");
    assert_eq!(s.lanes(), 2.0);
    // a line with no code in any loop, and another file's lines, give nothing
    assert!(mca::pick(&ls, 3).is_none());
    assert!(mca::loops(ASM, "other.c").iter().all(|l| l.insns.iter().all(|(x, _)| *x == 0)));
}

#[test]
fn llvm_mca_summary_is_read_as_cycles_per_iteration() {
    let out = "Iterations:        200\nInstructions:      1600\nTotal Cycles:      419\nTotal uOps:        1600\n\nDispatch Width:    6\n";
    assert_eq!(mca::parse_summary(out), Some(419.0 / 200.0));
    assert_eq!(mca::parse_summary("error: no assembly"), None);
}
