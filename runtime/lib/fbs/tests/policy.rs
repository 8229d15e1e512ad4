//! Policy::for_cpus: oversubscription is judged on the CPUs the participants
//! share (the xmpc runtime passes the union of a node's process affinity masks).
use xmpc_fbs::Policy;

#[test]
fn spins_when_each_participant_has_a_cpu_and_yields_when_oversubscribed() {
    assert_eq!(Policy::for_cpus(2, 2), Policy::default());
    assert_eq!(Policy::for_cpus(2, 16), Policy::default());
    let over = Policy::for_cpus(3, 2);
    assert!(over.spins < Policy::default().spins && over.yields > 0, "{over:?}");
}
