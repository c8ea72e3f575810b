// Where command effects are recorded (the facts collector), and the shape of a per-command effect.

export interface EffectSink {
  addRead(path: string): void;
  addWrite(path: string): void;
  addHost(host: string): void;
  addUrl(url: string): void;
}

/** `stdin` is the command's standard input when known (an apply_patch heredoc). */
export type Effect = (args: readonly string[], sink: EffectSink, stdin?: string) => void;
