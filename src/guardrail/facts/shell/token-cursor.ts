// Reading a token list: lookahead, reserved words, expected tokens and the nesting bound. The parser
// builds on it.
import { MAX_SYNTAX_NESTING, ShellSyntaxError, type Token } from './syntax.js';

export class TokenCursor {
  protected i = 0;

  constructor(
    protected readonly tokens: Token[],
    private nesting: number,
  ) {}

  protected peek(): Token | undefined {
    return this.tokens[this.i];
  }

  protected isOp(op: string): boolean {
    const t = this.tokens[this.i];
    return t?.kind === 'op' && t.op === op;
  }

  /** The unquoted word at the cursor, as a candidate reserved word. */
  protected reserved(): string | undefined {
    const t = this.tokens[this.i];
    return t?.kind === 'word' && t.plain === t.text.length ? t.text : undefined;
  }

  protected expectReserved(word: string): void {
    if (this.reserved() !== word) throw new ShellSyntaxError(`expected ${word}`);
    this.i++;
  }

  protected expectOp(op: string): void {
    if (!this.isOp(op)) throw new ShellSyntaxError(`expected ${op}`);
    this.i++;
  }

  protected skipNewlines(): void {
    while (this.isOp('\n')) this.i++;
  }

  /** Runs `parse` one nesting level deeper; too deep input is refused rather than risking the stack. */
  protected nested<T>(parse: () => T): T {
    if (++this.nesting > MAX_SYNTAX_NESTING) throw new ShellSyntaxError('nesting too deep');
    const result = parse();
    this.nesting--;
    return result;
  }
}
