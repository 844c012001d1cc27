//! `birkhoff serve`: the site written by `report html`, served on 127.0.0.1 until Ctrl-C.

use super::library::LibraryArg;
use crate::output::print_json;
use crate::Outcome;
use anyhow::ensure;
use serde_json::json;
use std::io::Write;
use std::net::{Ipv4Addr, TcpListener};
use std::path::PathBuf;

// Arguments of `birkhoff serve`.
#[derive(clap::Args)]
pub struct Args {
    /// The port on 127.0.0.1; 0 lets the system choose one (the address is printed).
    #[arg(long, value_name = "PORT", default_value_t = 8000)]
    port: u16,
    /// The site's directory. Default: the library's `site/`, as `report html` writes it.
    #[arg(long = "dir", value_name = "DIR")]
    site: Option<PathBuf>,
    #[command(flatten)]
    library: LibraryArg,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let flag = if a.site.is_some() {
        "--dir"
    } else {
        "--library"
    };
    let dir = a.site.unwrap_or_else(|| {
        a.library
            .dir
            .unwrap_or_else(birkhoff_library::default_dir)
            .join(birkhoff_viewer::SITE_DIR)
    });
    ensure!(
        dir.join("index.html").is_file(),
        "{flag} {}: no site there (write one with `birkhoff report html`)",
        dir.display()
    );
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, a.port))
        .map_err(|e| anyhow::anyhow!("--port {}: cannot listen on 127.0.0.1: {e}", a.port))?;
    let url = format!("http://{}/", listener.local_addr()?);
    if json {
        print_json(&json!({"url": url, "dir": dir.display().to_string()}));
    } else {
        println!("serving {} at {url} (Ctrl-C stops)", dir.display());
    }
    std::io::stdout().flush()?;
    let stop = crate::interrupt::flag();
    birkhoff_viewer::serve::serve(&dir, listener, &stop)
        .map_err(|e| anyhow::anyhow!("serving {}: {e}", dir.display()))?;
    Ok(Outcome::Interrupted)
}
