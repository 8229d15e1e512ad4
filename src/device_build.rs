//! XMP-dev kernels: the translator leaves the CUDA source of the device loops in a
//! block at the end of the C file (`#if 0 /* xmpc-device-kernels begin */`); here it
//! is cut out into `<stem>.xmpc.cu`, compiled by nvcc to a fatbin
//! (`-gencode arch=compute_90,code=[sm_90,compute_90]`, warnings as errors) and
//! embedded in the C as a byte array that the runtime loads at start-up when a GPU is
//! there. Without nvcc xmpc says so once and builds the program for the CPU only.
//!
//! nvcc: `$XMPC_NVCC`, else NVIDIA's PyPI toolchain in the cache folder the set-up
//! installs (`$XMPC_CUDA_CACHE`, default `~/.cache/xmpc-cuda`:
//! `nvidia/cu13/bin/nvcc`), else `nvcc` on the PATH.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

use xmpc_backends::c::{KERNELS_BEGIN, KERNELS_END};

/// The CUDA source of a translated C file, if it has device loops.
pub fn kernels(c: &str) -> Option<&str> {
    let b = c.find(KERNELS_BEGIN)?;
    let e = c[b..].find(KERNELS_END)? + b;
    Some(&c[b + KERNELS_BEGIN.len()..e])
}

/// The nvcc to use and the include folder of its toolchain (the PyPI layout).
pub fn find_nvcc() -> Option<(PathBuf, Option<PathBuf>)> {
    if let Some(p) = std::env::var_os("XMPC_NVCC").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        let inc = p.parent().and_then(Path::parent).map(|r| r.join("include")).filter(|i| i.is_dir());
        return Some((p, inc));
    }
    let cache = std::env::var_os("XMPC_CUDA_CACHE").map(PathBuf::from).or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/xmpc-cuda")))?;
    let root = cache.join("nvidia/cu13");
    let nvcc = root.join("bin/nvcc");
    if nvcc.is_file() {
        return Some((nvcc, Some(root.join("include"))));
    }
    Command::new("nvcc").arg("--version").output().ok().filter(|o| o.status.success()).map(|_| (PathBuf::from("nvcc"), None))
}

/// The nvcc command for one .cu file (also used by the test that compiles every
/// generated kernel with warnings as errors).
pub fn nvcc_command(nvcc: &Path, inc: Option<&Path>, cu: &Path, out: &Path) -> Command {
    let mut c = Command::new(nvcc);
    c.args(["-gencode", "arch=compute_90,code=[sm_90,compute_90]", "--fatbin", "-O3", "-Werror", "all-warnings", "-Xptxas", "-v"]);
    if let Some(i) = inc {
        c.arg(format!("-I{}", i.display()));
    }
    c.arg(cu).arg("-o").arg(out);
    c
}

static WARNED: AtomicBool = AtomicBool::new(false);

/// Takes the kernel block out of `text` (written as `c`): writes `.cu` beside it and,
/// when nvcc is there, embeds the fatbin. Returns the C to compile.
pub fn build(text: &str, c: &Path) -> Result<String, String> {
    let Some(k) = kernels(text) else { return Ok(text.to_string()) };
    let b = text.find(KERNELS_BEGIN).expect("found");
    let e = text[b..].find(KERNELS_END).expect("found") + b + KERNELS_END.len();
    let stem = c.file_name().map_or("prog".into(), |s| s.to_string_lossy().trim_end_matches(".c").trim_end_matches(".xmpc").to_string());
    let cu = c.with_file_name(format!("{stem}.xmpc.cu"));
    std::fs::write(&cu, k).map_err(|e| format!("cannot write {}: {e}", cu.display()))?;
    let mut out = text[..b].to_string();
    match find_nvcc() {
        None => {
            if !WARNED.swap(true, Ordering::Relaxed) {
                eprintln!("xmpc: warning: nvcc not found (set XMPC_NVCC, or install NVIDIA's toolchain with the README's set-up): the device loops are built for the CPU only (the kernels are in {})", cu.display());
            }
            out.push_str("/* xmpc: built without nvcc: no GPU kernels; device loops run on the CPU */\n");
        }
        Some((nvcc, inc)) => {
            let fatbin = cu.with_extension("fatbin");
            let o = nvcc_command(&nvcc, inc.as_deref(), &cu, &fatbin).output().map_err(|e| format!("cannot run {}: {e}", nvcc.display()))?;
            if !o.status.success() {
                return Err(format!(
                    "nvcc failed on the generated kernels {}:\n{}{}",
                    cu.display(),
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                ));
            }
            let bytes = std::fs::read(&fatbin).map_err(|e| format!("cannot read {}: {e}", fatbin.display()))?;
            out.push_str(&embed(&bytes));
        }
    }
    out.push_str(&text[e..]);
    Ok(out)
}

/// The fatbin as a C byte array, registered with the runtime at start-up.
fn embed(bytes: &[u8]) -> String {
    let mut s = format!(
        "/* xmpc: the device loops' kernels, a CUDA fatbin ({} bytes) */\nstatic const unsigned char _XMP_DEV_FATBIN[] __attribute__((aligned(64))) = {{",
        bytes.len()
    );
    for (i, b) in bytes.iter().enumerate() {
        if i % 16 == 0 {
            s.push_str("\n   ");
        }
        s.push_str(&format!(" 0x{b:02x},"));
    }
    s.push_str("\n};\n__attribute__((constructor)) static void _XMP_dev_register_kernels(void)\n{\n    xmpc_dev_register_fatbin(NULL, _XMP_DEV_FATBIN);\n}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_block_is_cut_out() {
        let c = format!("int x;\n{KERNELS_BEGIN}\n__global__ void k() {{}}\n{KERNELS_END}\nint y;\n");
        assert_eq!(kernels(&c).unwrap().trim(), "__global__ void k() {}");
        assert!(kernels("int x;\n").is_none());
        let e = embed(&[1, 2, 255]);
        assert!(e.contains("0x01, 0x02, 0xff,") && e.contains("xmpc_dev_register_fatbin"));
    }
}
