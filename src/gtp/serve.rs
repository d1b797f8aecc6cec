//! The GTP loop: read commands, execute, answer; stream analysis until the
//! next command arrives.
//!
//! Input is read on its own thread so that a streaming `lz-analyze` /
//! `kata-analyze` stops as soon as the next line arrives (GTP's convention:
//! any new command ends the analysis, whose response is then closed by an
//! empty line before the new command is answered).

use super::analysis::{info_line, Request};
use super::{parse_line, Action, Engine};
use crate::search::{solve, RootMoveLog, SolveOptions};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;

/// Serve GTP on `input`/`out` until `quit` or the end of input; what the
/// engine knows beyond the protocol (genmove's bounds, remarks) goes to `err`.
pub fn serve<R: BufRead + Send + 'static>(
    engine: &mut Engine,
    input: R,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::Builder::new().name("gtp-input".into()).spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                        break;
                    }
                }
            }
        }
    })?;
    let mut pending: Option<String> = None;
    loop {
        let line = match pending.take() {
            Some(l) => l,
            None => match rx.recv() {
                Ok(l) => l,
                Err(_) => return Ok(()),
            },
        };
        let Some(cmd) = parse_line(&line) else { continue };
        let action = engine.execute(&cmd);
        for n in engine.take_notes() {
            writeln!(err, "{n}")?;
        }
        err.flush()?;
        match action {
            Action::Reply(r) => {
                out.write_all(r.render(cmd.id).as_bytes())?;
                out.flush()?;
            }
            Action::Quit(r) | Action::Fail(r) => {
                out.write_all(r.render(cmd.id).as_bytes())?;
                out.flush()?;
                return Ok(());
            }
            Action::Analyze(req) => {
                writeln!(out, "={}", cmd.id.map(|i| i.to_string()).unwrap_or_default())?;
                out.flush()?;
                let next = stream(engine, req, &rx, out)?;
                writeln!(out)?;
                out.flush()?;
                match next {
                    Some(l) => pending = Some(l),
                    None => return Ok(()),
                }
            }
        }
    }
}

/// Solve every root move of the request's game, writing info lines every
/// interval and a final one with the principal variation, until a line
/// arrives on `rx` (returned) or the input ends (`None`).
fn stream(engine: &Engine, req: Request, rx: &Receiver<String>, out: &mut dyn Write) -> io::Result<Option<String>> {
    let game = req.game;
    if game.is_over() {
        return Ok(rx.recv().ok());
    }
    let abort = Arc::new(AtomicBool::new(false));
    let log = RootMoveLog::default();
    let opts = SolveOptions {
        threads: engine.config.threads,
        table_mb: engine.config.table_mb,
        abort: Some(abort.clone()),
        on_root_move: Some(log.callback()),
        memory: Some(engine.memory_for(&game)),
        ..Default::default()
    };
    let tick = req.interval.unwrap_or(std::time::Duration::from_millis(100));
    std::thread::scope(|s| {
        let worker = s.spawn(|| solve(&game, &opts));
        let mut shown = 0;
        let stop = |worker: std::thread::ScopedJoinHandle<'_, _>| {
            abort.store(true, Ordering::Relaxed);
            let _ = worker.join();
        };
        loop {
            if worker.is_finished() {
                break;
            }
            match rx.recv_timeout(tick) {
                Ok(line) => {
                    stop(worker);
                    return Ok(Some(line));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    stop(worker);
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {
                    let moves = log.sorted();
                    if req.interval.is_some() && moves.len() > shown && !worker.is_finished() {
                        shown = moves.len();
                        writeln!(out, "{}", info_line(req.format, &game, &moves, &[]))?;
                        out.flush()?;
                    }
                }
            }
        }
        let (moves, pv) = match worker.join() {
            Ok(Ok(sol)) => (sol.moves, sol.pv),
            _ => (log.sorted(), Vec::new()),
        };
        writeln!(out, "{}", info_line(req.format, &game, &moves, &pv))?;
        out.flush()?;
        Ok(rx.recv().ok())
    })
}
