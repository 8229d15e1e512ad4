//! Topologies and routing.
//!
//! Every vertex is a router (a torus/mesh node's router, or a fat-tree
//! switch). Directed links are numbered globally: first the network links
//! (`router * ports + port`, absent ports are `NONE`), then one injection link
//! per node (NIC → its router), then one ejection link per node (router → NIC).

use crate::config::{Config, TopoKind, UpPort};
use crate::{mix64, Time};

pub const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    Net,
    Inj,
    Ej,
}

#[derive(Clone, Debug)]
pub struct Link {
    pub kind: LinkKind,
    /// source router (or node for injection links).
    pub src: u32,
    /// destination router (or node for ejection links).
    pub dst: u32,
    pub bw: u64,
    pub lat: Time,
    /// direction class for statistics (see [`Topo::dir_names`]).
    pub dir: u8,
    /// serialisation time of a full packet (payload + header).
    pub full_ser: Time,
}

/// Per-packet routing state carried from hop to hop.
#[derive(Clone, Copy, Debug, Default)]
pub struct RouteState {
    /// torus: current dimension, and whether the dateline was crossed in it.
    pub dim: u8,
    pub crossed: u8,
}

#[derive(Clone, Debug)]
pub struct Topo {
    pub kind: TopoKind,
    pub dims: Vec<u32>,
    pub k: u32,
    pub n: u32,
    pub nnodes: u32,
    pub nrouters: u32,
    pub ports: u32,
    /// global link table.
    pub links: Vec<Link>,
    /// `out[router * ports + port]` = link id or NONE.
    pub out: Vec<u32>,
    pub node_router: Vec<u32>,
    pub inj: Vec<u32>,
    pub ej: Vec<u32>,
    coords: Vec<u16>,
    kpow: Vec<u32>,
    pub vcs: u32,
    pub up: UpPort,
    pub seed: u64,
    pub dir_names: Vec<String>,
}

impl Topo {
    pub fn new(cfg: &Config) -> Topo {
        let t = &cfg.topology;
        let full = (cfg.packet.size + cfg.packet.header) as u64;
        let nnodes = cfg.num_nodes();
        let mut topo = Topo {
            kind: t.kind,
            dims: t.dims.clone(),
            k: t.k,
            n: t.n,
            nnodes,
            nrouters: 0,
            ports: 0,
            links: Vec::new(),
            out: Vec::new(),
            node_router: Vec::new(),
            inj: Vec::new(),
            ej: Vec::new(),
            coords: Vec::new(),
            kpow: Vec::new(),
            vcs: cfg.router.vcs,
            up: cfg.routing.fattree_up,
            seed: cfg.sim.seed,
            dir_names: Vec::new(),
        };
        let bw = cfg.link.bandwidth;
        let lat = cfg.link.latency;
        let mk = |kind, src, dst, bw: u64, lat, dir| Link { kind, src, dst, bw, lat, dir, full_ser: crate::ser_time(full, bw) };
        match t.kind {
            TopoKind::Mesh | TopoKind::Torus => {
                let nd = t.dims.len();
                let names = ["X", "Y", "Z", "U", "V", "W"];
                for name in names.iter().take(nd) {
                    topo.dir_names.push(format!("+{name}"));
                    topo.dir_names.push(format!("-{name}"));
                }
                topo.nrouters = nnodes;
                topo.ports = 2 * nd as u32;
                topo.coords = vec![0; nnodes as usize * nd];
                for r in 0..nnodes {
                    let mut x = r;
                    for d in 0..nd {
                        topo.coords[r as usize * nd + d] = (x % t.dims[d]) as u16;
                        x /= t.dims[d];
                    }
                }
                topo.out = vec![NONE; (nnodes * topo.ports) as usize];
                let torus = t.kind == TopoKind::Torus;
                for r in 0..nnodes {
                    let mut stride = 1u32;
                    for d in 0..nd {
                        let k = t.dims[d];
                        let c = topo.coords[r as usize * nd + d] as u32;
                        if k > 1 {
                            // + direction
                            if torus || c + 1 < k {
                                let nc = (c + 1) % k;
                                let nr = r - c * stride + nc * stride;
                                topo.out[(r * topo.ports + 2 * d as u32) as usize] = topo.links.len() as u32;
                                topo.links.push(mk(LinkKind::Net, r, nr, bw, lat, 2 * d as u8));
                            }
                            if torus || c > 0 {
                                let nc = (c + k - 1) % k;
                                let nr = r - c * stride + nc * stride;
                                topo.out[(r * topo.ports + 2 * d as u32 + 1) as usize] = topo.links.len() as u32;
                                topo.links.push(mk(LinkKind::Net, r, nr, bw, lat, 2 * d as u8 + 1));
                            }
                        }
                        stride *= k;
                    }
                }
                topo.node_router = (0..nnodes).collect();
            }
            TopoKind::Fattree => {
                topo.dir_names = vec!["up".into(), "down".into()];
                let (k, n) = (t.k, t.n);
                let s = k.pow(n - 1);
                topo.kpow = (0..=n).map(|i| k.pow(i)).collect();
                topo.nrouters = s * n;
                topo.ports = 2 * k;
                topo.out = vec![NONE; (topo.nrouters * topo.ports) as usize];
                for l in 0..n {
                    for w in 0..s {
                        let r = l * s + w;
                        if l + 1 < n {
                            for j in 0..k {
                                let kp = topo.kpow[l as usize];
                                let digit = (w / kp) % k;
                                let w2 = w - digit * kp + j * kp;
                                let r2 = (l + 1) * s + w2;
                                topo.out[(r * topo.ports + k + j) as usize] = topo.links.len() as u32;
                                topo.links.push(mk(LinkKind::Net, r, r2, bw, lat, 0));
                            }
                        }
                        if l > 0 {
                            for i in 0..k {
                                let kp = topo.kpow[l as usize - 1];
                                let digit = (w / kp) % k;
                                let w2 = w - digit * kp + i * kp;
                                let r2 = (l - 1) * s + w2;
                                topo.out[(r * topo.ports + i) as usize] = topo.links.len() as u32;
                                topo.links.push(mk(LinkKind::Net, r, r2, bw, lat, 1));
                            }
                        }
                    }
                }
                topo.node_router = (0..nnodes).map(|p| p / k).collect();
            }
        }
        let ndir = topo.dir_names.len() as u8;
        for nd in 0..nnodes {
            topo.inj.push(topo.links.len() as u32);
            topo.links.push(mk(LinkKind::Inj, nd, topo.node_router[nd as usize], cfg.inj_bw(), cfg.inj_lat(), ndir));
        }
        for nd in 0..nnodes {
            topo.ej.push(topo.links.len() as u32);
            topo.links.push(mk(LinkKind::Ej, topo.node_router[nd as usize], nd, cfg.ej_bw(), cfg.ej_lat(), ndir + 1));
        }
        topo.dir_names.push("inj".into());
        topo.dir_names.push("ej".into());
        topo
    }

    /// Number of direction classes of network links (excluding inj/ej).
    pub fn net_dirs(&self) -> usize {
        self.dir_names.len() - 2
    }

    #[inline]
    fn coord(&self, r: u32, d: usize) -> u32 {
        self.coords[r as usize * self.dims.len() + d] as u32
    }

    /// Route a packet at router `r` towards node `dst`: the output link and its VC.
    /// `uid` is the packet id (for random up-ports and VC spreading).
    #[inline]
    pub fn route(&self, r: u32, dst: u32, uid: u64, st: &mut RouteState) -> (u32, u8) {
        match self.kind {
            TopoKind::Torus | TopoKind::Mesh => {
                let nd = self.dims.len();
                let torus = self.kind == TopoKind::Torus;
                let pairs = (self.vcs / 2).max(1) as u64;
                for d in 0..nd {
                    let c = self.coord(r, d);
                    let t = self.coord(dst, d);
                    if c == t {
                        continue;
                    }
                    let k = self.dims[d];
                    if st.dim != d as u8 {
                        st.dim = d as u8;
                        st.crossed = 0;
                    }
                    let plus = if torus {
                        let delta = (t + k - c) % k;
                        2 * delta <= k
                    } else {
                        t > c
                    };
                    let port = 2 * d as u32 + if plus { 0 } else { 1 };
                    let link = self.out[(r * self.ports + port) as usize];
                    let vc = if torus {
                        // dateline: the wrap link and everything after it in this dimension use the odd VC
                        if (plus && c == k - 1) || (!plus && c == 0) {
                            st.crossed = 1;
                        }
                        (2 * (uid % pairs) + st.crossed as u64) as u8
                    } else {
                        (uid % self.vcs as u64) as u8
                    };
                    return (link, vc);
                }
                (self.ej[dst as usize], 0)
            }
            TopoKind::Fattree => {
                let s = self.kpow[self.n as usize - 1];
                let l = r / s;
                let w = r % s;
                let k = self.k;
                let d = dst / k;
                let vc = (uid % self.vcs as u64) as u8;
                if l == 0 && w == d {
                    return (self.ej[dst as usize], 0);
                }
                let kp = self.kpow[l as usize];
                if w / kp == d / kp {
                    // go down
                    let i = (d / self.kpow[l as usize - 1]) % k;
                    (self.out[(r * self.ports + i) as usize], vc)
                } else {
                    let j = match self.up {
                        UpPort::Deterministic => (d / kp) % k,
                        UpPort::Random => (mix64(self.seed ^ mix64(uid ^ ((l as u64) << 58))) % k as u64) as u32,
                    };
                    (self.out[(r * self.ports + k + j) as usize], vc)
                }
            }
        }
    }

    /// Routers traversed from node `a` to node `b` (1 when on the same router).
    pub fn routers_on_path(&self, a: u32, b: u32) -> (u32, Time) {
        let mut r = self.node_router[a as usize];
        let mut st = RouteState::default();
        let mut n = 1;
        let mut lat = 0;
        loop {
            let (l, _) = self.route(r, b, 0, &mut st);
            let link = &self.links[l as usize];
            if link.kind == LinkKind::Ej {
                return (n, lat);
            }
            lat += link.lat;
            r = link.dst;
            n += 1;
        }
    }

    /// Partition routers into `p` logical processes; returns router → LP.
    pub fn partition(&self, p: u32) -> Vec<u16> {
        let p = p.max(1);
        match self.kind {
            TopoKind::Torus | TopoKind::Mesh => {
                // slabs along the largest dimension
                let (dmax, &kmax) = self.dims.iter().enumerate().max_by_key(|(_, &k)| k).unwrap();
                let p = p.min(kmax);
                (0..self.nrouters).map(|r| (self.coord(r, dmax) * p / kmax) as u16).collect()
            }
            TopoKind::Fattree => {
                let s = self.kpow[self.n as usize - 1];
                let p = p.min(s);
                (0..self.nrouters).map(|r| ((r % s) * p / s) as u16).collect()
            }
        }
    }
}
