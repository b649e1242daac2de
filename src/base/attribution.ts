/**
 * How work on the embedded reference server is attributed to what caused it (the mutation campaign's per-check
 * coverage; reference/attribution.ts keeps it while the server works): a check by its suite file and full name,
 * a suite file's own work outside its checks (hooks, cleanup) by the file, the runner's own requests (preflight,
 * sweep) as such. Sent in a request header toward the run's own embedded server only.
 */

/** The request header that names the check (or suite file) a request comes from, URI-encoded. */
export const ATTRIBUTION_HEADER = 'x-screenconf-check';

/** The attribution of the runner's own requests (preflight, sweep), which every run sends. */
export const RUNNER_ATTRIBUTION = '(runner)';

/** Between a suite file's name and a check's full name (`describe > test`): suite names hold no blank. */
const SEPARATOR = ' :: ';

/** The attribution of a check, or of a suite file's work outside its checks (`check` absent). */
export function attributionOf(suite: string, check?: string): string {
  return check === undefined ? suite : `${suite}${SEPARATOR}${check}`;
}

/** A check's or a suite file's attribution read back: its suite, and the check's full name when it names one. */
export function parseAttribution(id: string): { suite: string; check?: string } {
  const at = id.indexOf(SEPARATOR);
  return at < 0 ? { suite: id } : { suite: id.slice(0, at), check: id.slice(at + SEPARATOR.length) };
}
