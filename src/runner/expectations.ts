/**
 * The expectations file (`--expect FILE`): known failures of the target, for implementers
 * mid-way. Each entry names a requirement, says why it fails and until when that is accepted:
 *
 *   { "expectations": [
 *       { "id": "TOKEN-NO-STORE", "reason": "the CDN strips Cache-Control (OPS-123)", "expires": "2026-03-31" },
 *       { "id": "CASE-DELETE-REMOVES", "target": "eu", "reason": "…", "expires": "2026-02-01" } ] }
 *
 * A file that cannot be trusted stops the run before any request (SC_EXPECT_FILE, exit 2): an
 * unknown requirement id, an OBSERVE requirement (it never fails), an impossible date, a target
 * label the run does not have, or two entries for the same requirement and target.
 */
import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';
import { lineAt, parseJsonText } from '../base/json.ts';
import type { Expectation } from '../results/gate.ts';
import { type AnyRequirement, findRequirement } from '../spec/index.ts';

const KEYS = new Set(['id', 'reason', 'expires', 'target']);

/** Today as YYYY-MM-DD in UTC (expiry is judged by the calendar day, the same everywhere). */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Whether a YYYY-MM-DD string is a real calendar date. */
export function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** The lines where the objects of the top-level object's array open (strings skipped). */
function entryLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (ch === '{' || ch === '[') {
      if (ch === '{' && depth === 2) lines.push(lineAt(text, i));
      depth++;
    } else if (ch === '}' || ch === ']') depth--;
  }
  return lines;
}

/**
 * Reads and checks an expectations file. `labels`: the target labels of the run, or undefined
 * for a run against one unlabelled target (then no entry may name a target).
 */
export function loadExpectations(
  file: string,
  labels: readonly string[] | undefined,
  /** --suites-dir: the user's own requirements, which an entry may name too. */
  user: readonly AnyRequirement[] = [],
): Expectation[] {
  const fail = (where: string, message: string): never => {
    throw new HarnessError('SC_EXPECT_FILE', `expectations file ${file}${where}: ${message}`);
  };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code;
    return fail('', code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? (err as Error).message})`);
  }
  const json = parseJsonText(text);
  if (!json.ok) return fail(json.where, `is not valid JSON: ${json.message}`);
  const parsed = json.value;
  const shape = '{"expectations": [{"id", "reason", "expires": "YYYY-MM-DD", "target"?}, …]}';
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return fail('', `must hold a JSON object ${shape}`);
  const extra = Object.keys(parsed).filter((k) => k !== 'expectations');
  if (extra.length) return fail('', `unknown key "${extra[0]}" (the file holds ${shape})`);
  const list = (parsed as { expectations?: unknown }).expectations;
  if (!Array.isArray(list)) return fail('', `"expectations" must be an array: ${shape}`);

  const lines = entryLines(text);
  const out: Expectation[] = [];
  for (const [i, raw] of list.entries()) {
    const line = lines[i];
    const id = (raw as { id?: unknown } | null)?.id;
    const where =
      `${line ? ` line ${line}` : ''}, entry ` + `${i + 1}${typeof id === 'string' ? ` (${JSON.stringify(id)})` : ''}`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      fail(where, 'must be an object with "id", "reason" and "expires"');
    }
    const entry = raw as Record<string, unknown>;
    const unknown = Object.keys(entry).find((k) => !KEYS.has(k));
    if (unknown !== undefined)
      fail(where, `unknown key "${unknown}" (an entry has id, reason, expires and optionally target)`);
    if (typeof entry.id !== 'string' || entry.id === '')
      fail(where, '"id" must be a requirement id (screenconf list prints them)');
    const requirement = findRequirement(entry.id as string) ?? user.find((r) => r.id === entry.id);
    if (!requirement)
      fail(where, `unknown requirement id ${JSON.stringify(entry.id)} (screenconf list prints the catalogue)`);
    if (requirement!.level === 'OBSERVE')
      fail(
        where,
        `${requirement!.id} is an OBSERVE requirement: it is recorded, never failed, so it cannot be expected to fail`,
      );
    if (typeof entry.reason !== 'string' || entry.reason.trim() === '')
      fail(where, '"reason" must say why the failure is expected (a non-empty string)');
    if (typeof entry.expires !== 'string' || !isIsoDate(entry.expires))
      fail(where, `"expires" must be a date YYYY-MM-DD, got ${JSON.stringify(entry.expires ?? null)}`);
    if (entry.target !== undefined) {
      if (typeof entry.target !== 'string') fail(where, '"target" must be the label of a target of the run');
      if (!labels)
        fail(
          where,
          `names the target "${entry.target}" but this run has no labelled targets (give them with --target LABEL=URL)`,
        );
      if (!labels!.includes(entry.target as string))
        fail(
          where,
          `names the target "${entry.target}", which is not a target of this run (targets: ${labels!.join(', ')})`,
        );
    }
    const e: Expectation = {
      id: requirement!.id,
      reason: (entry.reason as string).trim(),
      expires: entry.expires as string,
      entry: i + 1,
      ...(line ? { line } : {}),
    };
    if (entry.target !== undefined) e.target = entry.target as string;
    const clash = out.find(
      (o) => o.id === e.id && (o.target === undefined || e.target === undefined || o.target === e.target),
    );
    if (clash)
      fail(
        where,
        `expects ${e.id}${e.target ? ` on target "${e.target}"` : ''} again (entry ${clash.entry} already does)`,
      );
    out.push(e);
  }
  return out;
}
