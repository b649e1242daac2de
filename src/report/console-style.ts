/** How the console shows verdicts: the columns, and colour only when asked for (a terminal or FORCE_COLOR). */
import type { Verdict } from '../results/report.ts';

export const COLUMNS: Verdict[] = ['pass', 'fail', 'warn', 'skip', 'observed'];
export interface ConsoleStyle {
  /** ANSI colour (a terminal, or FORCE_COLOR). */
  colour: boolean;
  /** Emit GitHub Actions annotations (GITHUB_ACTIONS=true). */
  githubActions: boolean;
}

export const PLAIN: ConsoleStyle = { colour: false, githubActions: false };
export type Paint = (s: string) => string;
export interface Palette {
  red: Paint;
  green: Paint;
  yellow: Paint;
  magenta: Paint;
  dim: Paint;
  bold: Paint;
}

export function palette(colour: boolean): Palette {
  const sgr = (open: number, close: number): Paint =>
    colour ? (s) => (s === '' ? s : `\u001b[${open}m${s}\u001b[${close}m`) : (s) => s;
  return {
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    magenta: sgr(35, 39),
    dim: sgr(2, 22),
    bold: sgr(1, 22),
  };
}

/** Colours a padded cell by its verdict column: only non-zero counts of fail and warn stand out. */
export function paintCount(p: Palette, column: Verdict, count: number, cell: string): string {
  if (count === 0) return p.dim(cell);
  if (column === 'fail') return p.red(cell);
  if (column === 'warn') return p.yellow(cell);
  if (column === 'pass') return p.green(cell);
  return cell;
}

export function paintVerdict(p: Palette, verdict: Verdict | 'expected-fail', text: string): string {
  switch (verdict) {
    case 'fail':
      return p.bold(p.red(text));
    case 'warn':
      return p.yellow(text);
    case 'pass':
      return p.green(text);
    case 'expected-fail':
      return p.magenta(text);
    default:
      return p.dim(text);
  }
}

export function paintWord(p: Palette, word: string): string {
  return word === 'CONFORMING'
    ? p.bold(p.green(word))
    : word === 'NOT CONFORMING'
      ? p.bold(p.red(word))
      : p.yellow(word);
}
