//! `gosolve replay` (placeholder).
#[derive(clap::Args)]
pub struct ReplayArgs {}

pub fn run(_args: ReplayArgs) -> anyhow::Result<()> {
    anyhow::bail!("'replay' is not implemented yet")
}
