/**
 * The end of a reproduction script (report/repro.ts): the lines that judge the answer to its last judged step against
 * what the failure's expectation says a conforming answer shows, and decide its exit status.
 */
import { stringifyJson } from '../base/json.ts';
import type { Failure } from '../results/report.ts';
import type { Step } from './repro-plan.ts';

/** Single-quoted for sh. */
export function q(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The sh pattern of `"name":value` in the flattened body, with the run's external_id prefix
 * (screenconf-<run>-) replaced by the script's own ($TAG), as its requests send it.
 */
function fieldPattern(name: string, value: string, runId: string): string {
  const pieces = value.split(`screenconf-${runId}-`);
  const pattern = pieces.map((piece, i) => (i ? `'screenconf-'"$TAG"'-'${q(piece)}` : q(`"${name}":${piece}`)));
  // A number, true, false or null ends where the field does: 4000 is not the start of 40001.
  return `${pattern.join('')}${/[0-9a-z]$/.test(value) ? '[],}]' : ''}`;
}

/**
 * Whether a script can find `"name":value` in the answer as flat() leaves it, whichever way the server writes JSON:
 * null, true, false, an integer, or text of printable ASCII without blanks (flat() takes some out), quotes or
 * backslashes (escaped), nor < > & (written \u003c… by some encoders). Not objects and arrays (key order, blanks),
 * nor other numbers (0.5 written 5e-1). "absent" looks for the name alone.
 */
export function findable(name: string, value: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return false;
  return (
    /^(absent|null|true|false|-?(0|[1-9][0-9]{0,14}))$/.test(value) ||
    /^"[\x21\x23-\x25\x27-\x3b\x3d\x3f-\x5b\x5d-\x7e]*"$/.test(value)
  );
}

/**
 * The lines that judge the answer to the last judged step: exit 1 reproduced, 0 conforms now, 3 undecided (what
 * failed cannot be checked in sh: the body is shown to compare by hand).
 */
export function verdictLines(f: Failure, steps: readonly Step[], runId: string): string[] {
  const last = steps.filter((s) => s.judged).at(-1);
  if (!last) return ['', 'echo "no judged request to replay: see the report"', 'exit 2'];
  const n = last.n;
  const lines = ['', `# The judged answer (step ${n}) against what the requirement expects.`];
  const stated = [
    ...(f.expect?.fields ?? []).map((x) => `${x.name} = ${x.expected}`),
    ...(f.expect?.unlike ?? []).map((x) => (x.value === 'absent' ? `${x.name} present` : `${x.name} ≠ ${x.value}`)),
  ];
  const shown = stated.length ? stated.join('; ') : (f.expected ?? '').split('\n')[0]!;
  lines.push(`echo; echo ${q(`Expected: ${shown.slice(0, 400)}`)}`);
  lines.push(`echo "Received: $got $(flat ${n} | cut -c1-300)"`);
  const status = f.expect?.status;
  // A value the pattern might not find as the server writes it is not checked: a wrong match would decide the
  // verdict; without any left, the script compares the status as it does with no expectation.
  const fields = f.expect?.fields?.filter((x) => findable(x.name, x.expected));
  const unlike = f.expect?.unlike?.filter((x) => findable(x.name, x.value));
  const unchecked = new Set([
    ...(f.expect?.fields ?? []).filter((x) => !findable(x.name, x.expected)).map((x) => x.name),
    ...(f.expect?.unlike ?? []).filter((x) => !findable(x.name, x.value)).map((x) => x.name),
  ]);
  const names = [...unchecked].join(', ').slice(0, 200);
  if (unchecked.size) {
    const note = `(not checked in sh, as a server may write the value otherwise: ${names}; compare by hand)`;
    lines.push(`echo ${q(note)}`);
  }
  const fresh = f.expect?.newId ? newIdLines(steps, last) : [];
  lines.push(...fresh);
  if (status?.length) {
    const patterns = status.map((p) => p.replace(/x/g, '[0-9]')).join('|');
    lines.push(`case "$STATUS" in ${patterns}) STATUS_OK=1 ;; *) STATUS_OK=0 ;; esac`);
  } else lines.push('STATUS_OK=1');
  if (fields?.length || unlike?.length) {
    lines.push(...(fresh.length ? [] : ['FIELDS_OK=1']), `BODY=$(flat ${n})`);
    for (const fd of fields ?? []) {
      const pair = fieldPattern(fd.name, fd.expected, runId);
      const test =
        fd.expected === 'absent'
          ? `case "$BODY" in *${q(`"${fd.name}":`)}*) FIELDS_OK=0 ;; esac`
          : `case "$BODY" in *${pair}*) ;; *) FIELDS_OK=0 ;; esac`;
      lines.push(`# ${fd.name}: expected ${fd.expected.slice(0, 200)}; in the run: ${fd.received.slice(0, 200)}`, test);
    }
    for (const u of unlike ?? []) {
      lines.push(
        ...(u.value === 'absent'
          ? [
              `# ${u.name}: must be there (it was left out in the run)`,
              `case "$BODY" in *${q(`"${u.name}":`)}*) ;; *) FIELDS_OK=0 ;; esac`,
            ]
          : [
              `# ${u.name}: must not hold ${u.value.slice(0, 200)} (it did in the run)`,
              `case "$BODY" in *${fieldPattern(u.name, u.value, runId)}*) FIELDS_OK=0 ;; esac`,
            ]),
      );
    }
  } else if (!fresh.length) lines.push('FIELDS_OK=1');
  const header = f.expect?.header;
  if (header) {
    const value = `[[:space:]]*:.*${header.contains.replace(/[^A-Za-z0-9 _/-]/g, '.')}`;
    lines.push(
      `# header ${header.name}: expected to hold ${stringifyJson(header.contains)}`,
      `grep -i ${q(`^${header.name}${value}`)} "$TMP/hdr_${n}" >/dev/null || FIELDS_OK=0`,
      `shown=$(tr -d '\\r' < "$TMP/hdr_${n}" | grep -i ${q(`^${header.name}:`)})`,
      `echo "Header: \${shown:-(no ${header.name})}"`,
    );
  }
  const reproduced = 'echo "REPRODUCED: the server still answers what failed (exit 1)"; exit 1';
  const undecided = (why: string) => `echo ${q(`UNDECIDED: ${why} (exit 3)`)}; exit 3`;
  if (!status?.length && !fields?.length && !unlike?.length && !header && !fresh.length) {
    // Nothing the script can look for: only a 5xx (which never conforms) decides; any other answer is the reader's.
    lines.push(
      '# screenconf cannot check this expectation in sh: the body is shown, to compare with the report by hand.',
      `echo ${q(`(in the run: HTTP ${last.status ?? '?'})`)}`,
      `case "$STATUS" in 5[0-9][0-9]) echo "(a 5xx never conforms)"; ${reproduced} ;; esac`,
      undecided('not checkable in sh; compare the body with the expectation by hand'),
    );
    return lines;
  }
  lines.push(
    'if [ "$STATUS_OK" = 1 ] && [ "$FIELDS_OK" = 1 ]; then',
    unchecked.size
      ? `  ${undecided(`what sh checks conforms now; compare ${names} by hand`)}`
      : '  echo "CONFORMS now on this point (exit 0)"; exit 0',
    'fi',
    reproduced,
  );
  return lines;
}

/**
 * The lines that compare the id of the case the judged step made with those of the cases the steps before it deleted
 * (expect.newId, CASE-ID-NOT-REUSED): FIELDS_OK=0 when it is one of them. None when the step made no case or nothing
 * was deleted before it.
 */
function newIdLines(steps: readonly Step[], last: Step): string[] {
  const made = last.creates;
  const deleted = steps
    .filter((s) => s.n < last.n && s.method === 'DELETE' && s.status !== undefined && s.status < 300)
    .flatMap((s) => s.path.filter((p): p is { variable: string } => 'variable' in p).map((p) => p.variable));
  if (!made || !deleted.length) return [];
  const list = [...new Set(deleted)].map((v) => `"$${v}"`).join(' ');
  return [
    `# The case step ${last.n} made: its id must be none of those of the cases deleted before it.`,
    `[ -n "$${made}" ] || { echo 'UNDECIDED: the answer holds no id to compare (exit 3)'; exit 3; }`,
    'FIELDS_OK=1',
    `for gone in ${list}; do [ "$${made}" = "$gone" ] && FIELDS_OK=0; done`,
    `echo "Id: $${made}; the cases deleted before had: $(echo ${list})"`,
  ];
}
