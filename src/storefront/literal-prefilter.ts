// Which of many literals occur in a text, in one pass (Aho–Corasick, ASCII case-insensitive), and the
// literal a regular expression cannot match without. App detection tests a few hundred patterns
// against every observed homepage (100 KB and more, twice: as served and with script escapes
// undone); testing only the patterns whose literal occurs reads the page once instead of hundreds
// of times, with the same verdicts (a pattern whose literal is absent cannot match).

/**
 * The longest run of plain characters that every match of `source` contains, lower case (null when
 * none of 3 characters or more is certain). Conservative: runs inside groups or character classes,
 * or made optional by a quantifier, and any source with an alternation (|), give nothing.
 */
export function requiredLiteral(source: string): string | null {
  if (/(^|[^\\])(\\\\)*\|/.test(source)) return null;
  let best = '';
  let run = '';
  let depth = 0;
  const end = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const escaped = source[i + 1] ?? '';
      i++;
      // escaped punctuation is itself; \d, \w, \b and the like are classes or anchors
      if (depth === 0 && /[./\-_:@%=&#]/.test(escaped) && !isQuantifier(source[i + 1]))
        run += escaped;
      else end();
      continue;
    }
    if (c === '[') {
      end();
      // skip the class, escapes included
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      continue;
    }
    if (c === '(') {
      end();
      depth++;
      continue;
    }
    if (c === ')') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth === 0 && /[A-Za-z0-9_\-/:@%=&#,;'" ]/.test(c)) {
      if (isQuantifier(source[i + 1])) end();
      else run += c;
      continue;
    }
    end();
  }
  end();
  return best.length >= 3 ? best.toLowerCase() : null;
}

/** `?`, `*` and `{` may make the character before them absent (`+` keeps it: it is ended by the run break that follows) */
const isQuantifier = (c: string | undefined) => c === '?' || c === '*' || c === '{';

const lower = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/** Finds which of a fixed set of literals occur in texts, each text read once. */
export class LiteralSet {
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  /** literal indexes ending at each state (its own and those of its failure chain) */
  private readonly ends: number[][] = [[]];

  constructor(readonly literals: readonly string[]) {
    literals.forEach((literal, index) => {
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const code = lower(literal.charCodeAt(i));
        let to = this.next[state]!.get(code);
        if (to === undefined) {
          to = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.ends.push([]);
          this.next[state]!.set(code, to);
        }
        state = to;
      }
      this.ends[state]!.push(index);
    });
    // breadth first: a state's failure link is the longest proper suffix that is also a prefix
    const queue = [...this.next[0]!.values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      for (const [code, to] of this.next[state]!) {
        queue.push(to);
        let fallback = this.fail[state]!;
        while (fallback !== 0 && !this.next[fallback]!.has(code)) fallback = this.fail[fallback]!;
        const target = this.next[fallback]!.get(code);
        this.fail[to] = target !== undefined && target !== to ? target : 0;
        this.ends[to]!.push(...this.ends[this.fail[to]!]!);
      }
    }
  }

  /** Adds to `found` the index of every literal that occurs in `text` (ASCII case-insensitive). */
  collect(text: string, found: Set<number>): void {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = lower(text.charCodeAt(i));
      let to: number | undefined;
      while ((to = this.next[state]!.get(code)) === undefined && state !== 0)
        state = this.fail[state]!;
      state = to ?? 0;
      const ends = this.ends[state]!;
      for (let k = 0; k < ends.length; k++) found.add(ends[k]!);
    }
  }
}
