//! `gosolve table` (placeholder).
#[derive(clap::Args)]
pub struct TableArgs {}

pub fn run(_args: TableArgs) -> anyhow::Result<()> {
    anyhow::bail!("'table' is not implemented yet")
}
