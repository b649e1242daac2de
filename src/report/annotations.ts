/**
 * GitHub Actions workflow commands (annotations) for a run. They take the redactor themselves,
 * because escaping would hide a secret from it.
 */
import type { Failure, GateSummary, RequirementResult } from '../results/report.ts';

/** Escapes the message of a workflow command (%, CR, LF), per the GitHub Actions rules. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value of a workflow command (also : and ,). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(
  kind: 'error' | 'warning' | 'notice',
  title: string,
  message: string,
  redact: (s: string) => string,
): string {
  return `::${kind} title=${escapeProperty(redact(title))}::${escapeData(redact(message))}`;
}

function annotationMessage(r: RequirementResult, failures: Failure[]): string {
  const f = failures[0];
  const parts = [`${r.level}: ${r.statement} (${r.source})`];
  if (f) {
    parts.push(...f.message.split('\n').slice(0, 6));
    const curl = f.evidence?.curl.at(-1);
    if (curl) parts.push(`Reproduce with: ${curl}`);
  } else if (r.reason) parts.push(r.reason);
  return parts.join('\n');
}

export interface AnnotatedTarget {
  label?: string;
  results: RequirementResult[];
}

/**
 * GitHub Actions workflow commands for the run: an error per failure that fails the gate (a
 * MUST, or a SHOULD under --strict), a warning per SHOULD warning otherwise, a notice per
 * expected failure, and an error per unexpected pass or expired expectation. `redact` runs
 * before escaping, so no secret survives in an escaped form.
 */
export function githubAnnotations(
  targets: AnnotatedTarget[],
  gate: GateSummary,
  redact: (s: string) => string = (s) => s,
): string[] {
  const out: string[] = [];
  for (const { label, results } of targets) {
    const on = label ? ` (${label})` : '';
    for (const r of results) {
      if (r.verdict !== 'fail' && r.verdict !== 'warn') continue;
      const message = annotationMessage(r, r.failures ?? []);
      if (r.expected?.outcome === 'expected-fail') {
        out.push(
          command(
            'notice',
            `${r.id}${on} expected to fail`,
            `${message}\nExpected to fail until ${r.expected.expires}: ${r.expected.reason}`,
            redact,
          ),
        );
      } else if (r.verdict === 'fail' || (gate.strict && r.level === 'SHOULD'))
        out.push(command('error', `${r.id}${on}`, message, redact));
      else out.push(command('warning', `${r.id}${on}`, message, redact));
    }
  }
  const file = gate.expectations ? ` ${gate.expectations}` : '';
  for (const u of gate.unexpectedPasses) {
    out.push(
      command(
        'error',
        `${u.id}${u.target ? ` (${u.target})` : ''} passed unexpectedly`,
        `The expectations file${file} says ${u.id} fails, but it passed: remove the entry.`,
        redact,
      ),
    );
  }
  for (const e of gate.expired) {
    out.push(
      command(
        'error',
        `${e.id}${e.target ? ` (${e.target})` : ''} expectation expired`,
        `Entry ${e.entry} of the expectations file${file} expired on ${e.expires}: fix the target, or renew the ` +
          `entry with a reason.`,
        redact,
      ),
    );
  }
  // An incomplete run must not pass for a conforming one in a CI view: say what was not judged.
  const notJudged = gate.notJudged ?? [];
  if (notJudged.length) {
    const names = notJudged.map((n) => (n.target ? `${n.id} (${n.target})` : n.id));
    const ids = names.slice(0, 20).join(', ') + (names.length > 20 ? `, and ${names.length - 20} more` : '');
    const kind = gate.requireComplete ? 'error' : 'warning';
    const how = gate.requireComplete ? ' (--require-complete fails the gate)' : '; --require-complete makes this fail';
    out.push(command(kind, `INCOMPLETE: ${notJudged.length} MUST requirement(s) not judged`, `${ids}${how}`, redact));
  }
  return out;
}
