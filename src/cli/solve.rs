//! `gosolve solve` (placeholder).
#[derive(clap::Args)]
pub struct SolveArgs {}

pub fn run(_args: SolveArgs) -> anyhow::Result<()> {
    anyhow::bail!("'solve' is not implemented yet")
}
