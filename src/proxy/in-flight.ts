// Counts model calls in progress so a stop or restart can wait for them (bounded) before closing sockets.
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  /** Marks a call as started; call the returned function once it is over. */
  begin(): () => void {
    this.count++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  /** Resolves when no call is in progress, or after `timeoutMs`, whichever comes first. */
  async drained(timeoutMs: number): Promise<void> {
    if (this.count === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
