//! `gosolve batch` (placeholder).
#[derive(clap::Args)]
pub struct BatchArgs {}

pub fn run(_args: BatchArgs) -> anyhow::Result<()> {
    anyhow::bail!("'batch' is not implemented yet")
}
