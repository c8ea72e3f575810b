// Shell tokenizer: one pass over the text, producing words, operators, redirections and heredoc bodies.
// `$(…)` bodies are tokenized in the same pass (the cursor is shared), so the whole input is read once.
import { arithmeticEnd, codeAt, endsWord } from './scanning.js';
import { heredocSubstitutions, readWord, type Cursor } from './word-reader.js';
import {
  MAX_SYNTAX_NESTING,
  ShellSyntaxError,
  type Operator,
  type ParseTokens,
  type RedirectOperator,
  type Script,
  type Token,
  type Word,
} from './syntax.js';

type RedirectToken = Extract<Token, { kind: 'redirect' }>;

interface PendingHeredoc {
  token: RedirectToken;
  delimiter: string;
  expands: boolean;
  stripTabs: boolean;
}

const enum Char {
  Tab = 9, Newline = 10, CarriageReturn = 13, Space = 32, Hash = 35, Ampersand = 38, OpenParen = 40,
  CloseParen = 41, Minus = 45, Semicolon = 59, Less = 60, Greater = 62, Backslash = 92, Pipe = 124,
}

type OpToken = Extract<Token, { kind: 'op' }>;

/** Operator tokens carry nothing but the operator: one shared, frozen object each. */
const OP = Object.fromEntries(
  (['|', '|&', '&&', '||', ';', '&', '\n', '(', ')', ';;', ';&', ';;&'] as const).map((op) => [op, Object.freeze({ kind: 'op', op })]),
) as { readonly [K in Operator]: OpToken };
const ARITHMETIC: Token = Object.freeze({ kind: 'arith' });

/** The operator token or redirection operator starting at `pos` (whose character ends words), longest
 *  match first. */
function operatorAt(src: string, pos: number): OpToken | RedirectOperator {
  const next = codeAt(src, pos + 1);
  const third = codeAt(src, pos + 2);
  switch (src.charCodeAt(pos)) {
    case Char.Semicolon:
      if (next === Char.Semicolon) return third === Char.Ampersand ? OP[';;&'] : OP[';;'];
      return next === Char.Ampersand ? OP[';&'] : OP[';'];
    case Char.Ampersand:
      if (next === Char.Greater) return third === Char.Greater ? '&>>' : '&>';
      return next === Char.Ampersand ? OP['&&'] : OP['&'];
    case Char.Pipe:
      return next === Char.Pipe ? OP['||'] : next === Char.Ampersand ? OP['|&'] : OP['|'];
    case Char.Less:
      if (next === Char.Less) return third === Char.Less ? '<<<' : third === Char.Minus ? '<<-' : '<<';
      return next === Char.Ampersand ? '<&' : next === Char.Greater ? '<>' : '<';
    default:
      return next === Char.Greater ? '>>' : next === Char.Ampersand ? '>&' : next === Char.Pipe ? '>|' : '>';
  }
}

function isBlank(c: number): boolean {
  return c === Char.Space || c === Char.Tab || c === Char.CarriageReturn;
}

/** Words after which the next word is in command position (for spotting `case` inside `$(…)`). */
const COMMAND_PREFIX_WORDS = new Set(['then', 'do', 'else', 'elif', 'if', 'while', 'until', '{', '!', 'in']);
const DIGITS = /^[0-9]+$/;
const NO_SCRIPTS: readonly Script[] = [];

class Lexer implements Cursor {
  pos = 0;

  constructor(
    readonly src: string,
    private readonly parse: ParseTokens,
  ) {}

  substitution(depth: number): Script {
    return this.parse(this.readTokens(true, depth), depth);
  }

  nestedScript(text: string, depth: number): Script {
    return this.parse(new Lexer(text, this.parse).readTokens(false, depth), depth);
  }

  /** Tokens up to the end of input, or (`inSubstitution`) up to the unmatched `)`, consumed. */
  readTokens(inSubstitution: boolean, depth: number): Token[] {
    if (depth > MAX_SYNTAX_NESTING) throw new ShellSyntaxError('nesting too deep');
    const { src } = this;
    const tokens: Token[] = [];
    const heredocs: PendingHeredoc[] = [];
    let awaitingDelimiter: PendingHeredoc | undefined;
    let parens = 0;
    let openCases = 0;
    let fd = '';
    for (;;) {
      if (this.pos >= src.length) {
        if (inSubstitution) throw new ShellSyntaxError('unterminated $(');
        if (awaitingDelimiter) throw new ShellSyntaxError('missing heredoc delimiter');
        for (const h of heredocs) h.token.heredoc = { body: '', substitutions: NO_SCRIPTS };
        return tokens;
      }
      const c = src.charCodeAt(this.pos);
      if (isBlank(c)) {
        let end = this.pos + 1;
        while (isBlank(codeAt(src, end))) end++;
        this.pos = end;
      } else if (c === Char.Backslash && this.following() === Char.Newline) {
        this.pos += 2;
      } else if (c === Char.Newline) {
        if (awaitingDelimiter) throw new ShellSyntaxError('missing heredoc delimiter');
        tokens.push(OP['\n']);
        this.pos++;
        if (heredocs.length > 0) this.readHeredocBodies(heredocs, depth);
      } else if (c === Char.Hash) {
        const newline = src.indexOf('\n', this.pos);
        this.pos = newline < 0 ? src.length : newline;
      } else if (c === Char.CloseParen) {
        this.pos++;
        if (inSubstitution && parens === 0 && openCases === 0) return tokens;
        if (parens > 0) parens--;
        tokens.push(OP[')']);
      } else if (c === Char.OpenParen) {
        const arithmetic = this.following() === Char.OpenParen ? arithmeticEnd(src, this.pos + 2) : -1;
        if (arithmetic >= 0) {
          tokens.push(ARITHMETIC);
          this.pos = arithmetic;
        } else {
          if (++parens > MAX_SYNTAX_NESTING) throw new ShellSyntaxError('nesting too deep');
          tokens.push(OP['(']);
          this.pos++;
        }
      } else if ((c === Char.Less || c === Char.Greater) && this.following() === Char.OpenParen) {
        tokens.push(this.processSubstitution(depth));
      } else if (endsWord(c)) {
        if (awaitingDelimiter) throw new ShellSyntaxError('missing heredoc delimiter');
        const op = operatorAt(src, this.pos);
        if (typeof op !== 'string') {
          tokens.push(op);
          this.pos += op.op.length;
          continue;
        }
        this.pos += op.length;
        // `heredoc` is set once the body has been read; created now so that all redirect tokens share a shape.
        const token: RedirectToken = { kind: 'redirect', op, fd, heredoc: undefined };
        tokens.push(token);
        fd = '';
        if (op === '<<' || op === '<<-') awaitingDelimiter = { token, delimiter: '', expands: true, stripTabs: op === '<<-' };
      } else {
        const word = readWord(this, depth);
        const after = codeAt(src, this.pos);
        if (awaitingDelimiter) {
          awaitingDelimiter.delimiter = word.text;
          awaitingDelimiter.expands = word.plain === word.text.length;
          heredocs.push(awaitingDelimiter);
          awaitingDelimiter = undefined;
        } else if ((after === Char.Less || after === Char.Greater) && word.plain === word.text.length && DIGITS.test(word.text)) {
          fd = word.text;
          continue;
        }
        // Only the `)` ending a substitution depends on case nesting: elsewhere there is nothing to track, and
        // comparing every four-letter word with `case` and `esac` is a measurable share of tokenizing.
        if (inSubstitution && word.text.length === 4) openCases += caseNesting(word, tokens[tokens.length - 1], openCases);
        tokens.push(word);
      }
    }
  }

  /** The character after the one at `pos`. Read only by the few branches that need it: reading it for every
   *  token made tokenizing measurably slower. */
  private following(): number {
    return codeAt(this.src, this.pos + 1);
  }

  private processSubstitution(depth: number): Word {
    const start = this.pos;
    this.pos += 2;
    const script = this.substitution(depth + 1);
    return { kind: 'word', text: this.src.slice(start, this.pos), plain: 0, wholeSubstitution: false, substitutions: [script] };
  }

  /** Reads the bodies of the heredocs started on the line that just ended. */
  private readHeredocBodies(pending: PendingHeredoc[], depth: number): void {
    const { src } = this;
    for (const h of pending) {
      const bodyStart = this.pos;
      let lineStart = this.pos;
      let bodyEnd = src.length;
      let resume = src.length;
      while (lineStart < src.length) {
        let lineEnd = src.indexOf('\n', lineStart);
        if (lineEnd < 0) lineEnd = src.length;
        let first = lineStart;
        while (h.stripTabs && src.charAt(first) === '\t') first++;
        const last = src.charAt(lineEnd - 1) === '\r' ? lineEnd - 1 : lineEnd;
        if (last - first === h.delimiter.length && src.startsWith(h.delimiter, first)) {
          bodyEnd = lineStart;
          resume = Math.min(lineEnd + 1, src.length);
          break;
        }
        lineStart = lineEnd + 1;
      }
      const body = src.slice(bodyStart, bodyEnd);
      this.pos = resume;
      const expandsSomething = h.expands && (body.includes('$(') || body.includes('`'));
      const substitutions = expandsSomething ? heredocSubstitutions(new Lexer(body, this.parse), depth + 1) : NO_SCRIPTS;
      h.token.heredoc = { body, substitutions };
    }
    pending.length = 0;
  }
}

/** +1 for `case`, -1 for `esac`, in command position: inside `$(…)` a case pattern's `)` must not close
 *  the substitution. */
function caseNesting(word: Word, previous: Token | undefined, openCases: number): number {
  if ((word.text !== 'case' && word.text !== 'esac') || word.plain !== word.text.length) return 0;
  const commandPosition =
    previous === undefined ||
    (previous.kind === 'op' && previous.op !== ')') ||
    (previous.kind === 'word' && COMMAND_PREFIX_WORDS.has(previous.text));
  if (!commandPosition) return 0;
  if (word.text === 'case') return 1;
  return word.text === 'esac' && openCases > 0 ? -1 : 0;
}

/** Tokens of `src`; `parse` turns the tokens of each substitution into its script as it is read. */
export function tokenize(src: string, parse: ParseTokens): Token[] {
  return new Lexer(src, parse).readTokens(false, 0);
}
