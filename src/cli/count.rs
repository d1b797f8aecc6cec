//! `gosolve count` (placeholder).
#[derive(clap::Args)]
pub struct CountArgs {}

pub fn run(_args: CountArgs) -> anyhow::Result<()> {
    anyhow::bail!("'count' is not implemented yet")
}
