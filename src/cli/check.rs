//! `gosolve check` (placeholder).
#[derive(clap::Args)]
pub struct CheckArgs {}

pub fn run(_args: CheckArgs) -> anyhow::Result<()> {
    anyhow::bail!("'check' is not implemented yet")
}
