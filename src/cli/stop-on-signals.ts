// Foreground servers stop cleanly on SIGTERM or SIGINT: `close` runs once (a second signal during a slow drain
// does not start another), then the process exits 0. The returned function stops the same way (the shutdown route).
export function stopOnSignals(close: () => Promise<void>): () => void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  return () => void stop();
}
