/**
 * repro/<REQ-ID>.sh: a POSIX sh + curl script per failed requirement that replays its first failure against a server
 * (jq not needed). It reads secrets from environment variables only, gets the tokens it needs, creates what the
 * judged request needs as the run did (the same requests, with fresh external_ids), sends the judged request(s),
 * prints expected vs received, deletes what it created, and exits 1 when the non-conformance is reproduced, 0 when
 * the server conforms on that point now, 2 when it could not run. Pure: from the report's data to text.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are sh, where ${VAR:-x} is expansion
import type { RequirementResult } from '../results/report.ts';
import { type Part, planSteps, type Step, type Who } from './repro-plan.ts';
import { q, verdictLines } from './repro-verdict.ts';

export { findable } from './repro-verdict.ts';

/** The folder of the scripts inside a run folder. */
export const REPRO_DIR = 'repro';

/** What a script bakes in: nothing secret. */
export interface ReproContext {
  runId: string;
  baseUrl: string;
  clientId?: string | undefined;
  peerClientId?: string | undefined;
  /** The `screenconf replay` command of the failure, named in the header. */
  replayCommand?: string | undefined;
  /** The run's --timeout-ms (default 15 s): how long a judged request that got no answer in the run is waited for. */
  timeoutMs?: number | undefined;
}

/** The script's path relative to the report folder. */
export function reproPath(id: string): string {
  return `${REPRO_DIR}/${id}.sh`;
}

/** A path or body as one sh word: literal parts single-quoted, variables spliced in double quotes. */
function word(parts: readonly Part[]): string {
  if (parts.length === 0) return "''";
  // Adjacent literal parts are quoted as one.
  const merged: Part[] = [];
  for (const p of parts) {
    const last = merged.at(-1);
    if (last && 'text' in last && 'text' in p) merged[merged.length - 1] = { text: last.text + p.text };
    else merged.push(p);
  }
  return merged.map((p) => ('variable' in p ? `"$${p.variable}"` : q(p.text))).join('');
}

/** `#`-comment lines of a text (control characters shown as spaces). */
function comment(text: string, prefix = '#   '): string[] {
  return text.split('\n').map((l) => `${prefix}${l.replace(/\p{Cc}/gu, ' ')}`.trimEnd());
}

/** The environment variables a script reads for the credentials its steps use. */
export function reproEnv(steps: readonly Pick<Step, 'who' | 'body'>[]): string[] {
  const who = new Set(steps.map((s) => s.who));
  const tokenBody = steps.some((s) => s.body?.some((p) => 'variable' in p && p.variable === 'SECRET_JSON'));
  const vars: string[] = [];
  if (who.has('ours') || tokenBody) vars.push('SCREENCONF_CLIENT_SECRET');
  if (who.has('peer')) vars.push('SCREENCONF_PEER_CLIENT_SECRET');
  if (who.has('ours-key')) vars.push('SCREENCONF_API_KEY');
  if (who.has('peer-key')) vars.push('SCREENCONF_PEER_API_KEY');
  return vars;
}

/**
 * The environment variables `screenconf replay` reads for the secrets the run was given (its settings show each as
 * "[REDACTED]"): the re-run checks need the same credentials. None for the embedded server, which a replay starts anew.
 */
export function replayEnv(options: Readonly<Record<string, unknown>>): string[] {
  const given = (key: string) => options[key] !== undefined;
  return [
    ...(given('clientSecret') ? ['SCREENCONF_CLIENT_SECRET'] : []),
    ...(given('peerClientSecret') ? ['SCREENCONF_PEER_CLIENT_SECRET'] : []),
    ...(given('apiKey') ? ['SCREENCONF_API_KEY'] : []),
  ];
}

/** How to replay a failure with the run's own checks, in the run folder: `… screenconf replay . ID`. */
export function replayCommand(id: string, env: readonly string[]): string {
  return `${env.map((v) => `${v}=… `).join('')}screenconf replay . ${id}`;
}

/** How to run a failure's script: `SCREENCONF_CLIENT_SECRET=… sh repro/ID.sh`. */
export function reproCommand(id: string, env: readonly string[]): string {
  return `${env.map((v) => `${v}=… `).join('')}sh ${reproPath(id)}`;
}

const FUNCTIONS = String.raw`
fail_setup() { echo "repro: could not run: $*" >&2; exit 2; }
command -v curl >/dev/null 2>&1 || fail_setup "curl is needed"
TMP=$(mktemp -d 2>/dev/null) || TMP="${'${TMPDIR:-/tmp}'}/screenconf-repro-$$"
mkdir -p "$TMP" && chmod 700 "$TMP" || fail_setup "no temporary folder"
TAG=$(od -An -N4 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n')
[ -n "$TAG" ] || TAG=$(printf '%08x' "$$")
CREATED='' ctype='' body=''
cleanup() {
  for c in $CREATED; do
    st=$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE -H "@$TMP/auth_${'${c%%:*}'}" \
      "$BASE/api/cases/${'${c#*:}'}/" 2>/dev/null)
    echo "cleanup: DELETE /api/cases/${'${c#*:}'}/ -> HTTP $st"
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 2' INT TERM
json_escape() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }
# token NAME CLIENT_ID SECRET [API_KEY]: an access token for those client credentials, as the header file auth_NAME;
# asked again with Authorization: Bearer API_KEY when the endpoint refuses it without (interface § Authentication 3)
token() {
  [ -n "$2" ] || fail_setup "no client_id for $1: set the variable named in the header"
  [ -n "$3" ] || fail_setup "no client_secret for $1: set the variable named in the header"
  printf '{"grant_type":"client_credentials","client_id":"%s","%s":"%s"}' \
    "$(json_escape "$2")" client_secret "$(json_escape "$3")" > "$TMP/token-request"
  : > "$TMP/token-auth"
  for with in none ${'${4:+key}'}; do
    [ "$with" = none ] || printf 'authorization: Bearer %s\n' "$4" > "$TMP/token-auth"
    st=$(curl -sS -o "$TMP/token" -w '%{http_code}' -X POST -H 'content-type: application/json' \
      -H 'accept: application/json' -H "@$TMP/token-auth" --data-binary "@$TMP/token-request" \
      "$BASE/api/oauth/token/") || fail_setup "the token endpoint did not answer"
    case "$st" in 400|401|403) ;; *) break ;; esac
  done
  rm -f "$TMP/token-request" "$TMP/token-auth"
  tok=$(tr -d '\n' < "$TMP/token" | sed -n 's/.*"access_token"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
  [ -n "$tok" ] || fail_setup "no access_token for $1 (HTTP $st)"
  printf 'authorization: Bearer %s\n' "$tok" > "$TMP/auth_$1"
}
# key NAME KEY: the API key (Bearer scheme) as the header file auth_NAME
key() {
  [ -n "$2" ] || fail_setup "no API key for $1: set the variable named in the header"
  printf 'authorization: Bearer %s\n' "$2" > "$TMP/auth_$1"
}
# send N METHOD PATH WHO [SECONDS]: the answer's status in STATUS, its body in $TMP/res_N; with SECONDS (a judged
# request that got no answer in the run), none within them is STATUS 000, curl's exit status in NOANSWER
send() {
  n=$1 method=$2 path=$3 who=$4 wait=${'${5:-}'}
  set -- -sS -o "$TMP/res_$n" -D "$TMP/hdr_$n" -w '%{http_code}' -X "$method" -H 'accept: application/json'
  [ -z "$wait" ] || set -- "$@" --max-time "$wait"
  [ "$who" = none ] || set -- "$@" -H "@$TMP/auth_$who"
  if [ "$#" -gt 0 ] && [ -n "${'${ctype:-}'}" ]; then
    printf '%s' "$body" > "$TMP/req_$n"
    set -- "$@" -H "content-type: $ctype" --data-binary "@$TMP/req_$n"
  fi
  NOANSWER=''
  STATUS=$(curl "$@" "$BASE$path") || { NOANSWER=$?; STATUS=000; : > "$TMP/res_$n"; }
  [ -z "$NOANSWER" ] || [ -n "$wait" ] || fail_setup "no answer to $method $path"
  got="HTTP $STATUS" ctype='' body=''
  # curl's exit: 28 timed out, 52 closed with nothing, 56 reset, 7 refused
  [ -z "$NOANSWER" ] || got="no answer (curl exit $NOANSWER)"
  echo "$n. $method $path -> $got"
}
# diverged N STEP RUN REPLAY: setup step N answered otherwise than in the run; no verdict on a diverged setup (exit 3)
diverged() {
  echo "UNDECIDED: setup diverged at step $1 ($2): the run saw $3, the replay $4 (exit 3)"
  exit 3
}
# setup_status N STATUS STEP: setup step N answered HTTP STATUS, as in the run, or the script says it diverged;
# refused both times (4xx or 5xx, in the run and now) is the same setup: a refusal changes nothing
setup_status() {
  [ "$STATUS" = "$2" ] && return 0
  [ "$STATUS" -ge 400 ] 2>/dev/null && [ "$2" -ge 400 ] 2>/dev/null && return 0
  diverged "$1" "$3" "HTTP $2" "HTTP $STATUS $(flat "$1" | cut -c1-200)"
}
# id N K: the K-th "id" of the answer to step N
id() {
  tr ',{}[' '\n\n\n\n' < "$TMP/res_$1" |
    sed -n 's/^[[:space:]]*"id"[[:space:]]*:[[:space:]]*\([0-9][0-9]*\).*/\1/p' | sed -n "$2p"
}
# flat N: the answer to step N on one line, without blanks around : and , nor before ] and } after a value, \/
# written / (an access token in it hidden)
flat() {
  tr -d '\n\r' < "$TMP/res_$1" | sed -e 's/\([]}"0-9el]\)[[:space:]]*\([:,]\)[[:space:]]*/\1\2/g' \
    -e 's/\([]}"0-9el]\)[[:space:]]*\([]}]\)/\1\2/g' -e 's|\\/|/|g' |
    sed 's/"access_token":"[^"]*"/"access_token":"(hidden)"/g'
}
`;

function authSetup(steps: readonly Step[]): string[] {
  const who = new Set(steps.map((s) => s.who));
  const lines: string[] = [];
  // The API keys are optional: given, a token endpoint that wants the bearer header gets it.
  if (who.has('ours')) lines.push('token ours "$CLIENT_ID" "$CLIENT_SECRET" "${SCREENCONF_API_KEY:-}"');
  if (who.has('peer'))
    lines.push('token peer "$PEER_CLIENT_ID" "${SCREENCONF_PEER_CLIENT_SECRET:-}" "${SCREENCONF_PEER_API_KEY:-}"');
  if (who.has('ours-key')) lines.push('key ours-key "${SCREENCONF_API_KEY:-}"');
  if (who.has('peer-key')) lines.push('key peer-key "${SCREENCONF_PEER_API_KEY:-}"');
  for (const s of steps.filter((x) => x.who === 'other')) {
    const header = (s.header ?? 'Bearer screenconf-not-a-credential').replace(
      '[REDACTED]',
      'screenconf-not-a-credential',
    );
    lines.push(`printf '%s\\n' ${q(`authorization: ${header}`)} > "$TMP/auth_other_${s.n}"`);
  }
  return lines;
}

function stepLines(s: Step, describe: string, timeoutMs: number): string[] {
  const who = s.who === 'other' ? `other_${s.n}` : s.who;
  // A judged request that got no answer in the run (closed, reset, silent) is sent expecting one within the run's
  // timeout: none again is what failed.
  const noAnswer = s.judged && s.status === undefined;
  const wait = noAnswer ? ` ${Math.ceil(timeoutMs / 1000)}` : '';
  const run = noAnswer ? 'no answer' : `HTTP ${s.status ?? '-'}`;
  const lines = [``, `# ${s.n}. ${describe}${s.judged ? ' (judged)' : ' (setup)'}; in the run: ${run}`];
  if (s.body) lines.push(`ctype=${q(s.contentType ?? 'application/json')} body=${word(s.body)}`);
  if (s.untilComplete) {
    lines.push(
      '# In the run the case had completed processing by this read: read until it has (at most 60 s).',
      `tries=0; while send ${s.n} ${s.method} ${word(s.path)} ${who}${wait}; do`,
      `  case "$(flat ${s.n})" in *'"is_complete":true'*) break ;; esac`,
      '  tries=$((tries + 1)); [ "$tries" -lt 60 ] || break; sleep 1',
      'done',
    );
  } else lines.push(`send ${s.n} ${s.method} ${word(s.path)} ${who}${wait}`);
  // A setup step answers as in the run, or what follows would be judged on another state than the run's.
  const step = q(describe.slice(0, 200));
  if (!s.judged && s.status !== undefined) lines.push(`setup_status ${s.n} ${s.status} ${step}`);
  if (s.captures.length) {
    for (const c of s.captures) lines.push(`${c.variable}=$(id ${s.n} ${c.ordinal})`);
    const first = s.captures[0]!.variable;
    if (!s.judged) lines.push(`[ -n "$${first}" ] || diverged ${s.n} ${step} 'an id in its answer' 'none'`);
    if (s.creates) lines.push(`[ -n "$${s.creates}" ] && CREATED="$CREATED ${who}:$${s.creates}"`);
  }
  return lines;
}

/**
 * A script whose steps name a record it cannot create (made by the run outside this failure's
 * evidence) stops before sending anything, with exit 2: sent as it is, the id names a record the
 * run deleted, and the answer (a 404) would read as reproduced or conforming for no reason.
 */
function unresolvedLines(steps: readonly Step[]): string[] {
  const named = steps.filter((s) => s.unresolved.length);
  if (!named.length) return [];
  const what = named
    .map((s) => `step ${s.n} names ${[...new Set(s.unresolved)].slice(0, 5).join(', ')}`)
    .join('; ')
    .slice(0, 300);
  return [
    `# ${what}: records the run made outside this failure's evidence, so this script cannot set them up.`,
    `fail_setup ${q(
      `${what}, made by the run outside this failure's evidence: this script cannot set them up ` +
        "(see the failure's exchanges in the report)",
    )}`,
  ];
}

/** A failure's reproduction script and the variables it reads, or undefined when it has no evidence to replay. */
export function reproScript(r: RequirementResult, ctx: ReproContext): { script: string; env: string[] } | undefined {
  const f = r.failures?.find((x) => x.evidence?.exchanges.some((e) => e.judged)) ?? r.failures?.[0];
  if (!f?.evidence?.exchanges.length) return undefined;
  const steps = planSteps(f.evidence.exchanges, ctx.baseUrl, ctx.runId);
  const env = reproEnv(steps);
  const judged = steps.filter((s) => s.judged);
  const describe = (s: Step) => {
    const whose: Record<Who, string> = {
      ours: 'our access token',
      peer: "the peer organisation's access token",
      'ours-key': 'our API key',
      'peer-key': "the peer organisation's API key",
      none: 'no credential',
      other: 'a hand-made Authorization header',
    };
    const path = s.path.map((p) => ('variable' in p ? `{${p.variable}}` : p.text)).join('');
    return `${s.method} ${path} with ${whose[s.who]}`;
  };
  const p = f.evidence.property;
  const peerDefault = ctx.peerClientId ? ` (default: ${ctx.peerClientId})` : '';
  const lines = [
    '#!/bin/sh',
    `# screenconf reproduction of ${r.id} (${r.level}): ${r.statement}`,
    `# Source: ${r.source}`,
    `# Failed in run ${ctx.runId} against ${ctx.baseUrl}, in the check:`,
    ...comment(f.test),
    ...comment(f.message.split('\n').slice(0, 8).join('\n')),
    ...(p
      ? comment(
          `A property failure: this replays its shrunk counterexample (${p.counterexample.slice(0, 300)}); ` +
            `fast-check seed ${p.seed}, path "${p.path}", run seed ${p.runSeed}`,
        )
      : []),
    '#',
    `# Run:  ${reproCommand(r.id, env)}`,
    ...(ctx.replayCommand
      ? [
          "# Or replay it with the run's own checks, which decide as the run did (screenconf, with Node), in the " +
            'run folder:',
          `#       ${ctx.replayCommand}`,
        ]
      : []),
    '# Environment (secrets are read from it, never written here):',
    `#   SCREENCONF_BASE_URL           the server (default: ${ctx.baseUrl})`,
    `#   SCREENCONF_CLIENT_ID          our client_id${ctx.clientId ? ` (default: ${ctx.clientId})` : ''}`,
    ...(env.includes('SCREENCONF_CLIENT_SECRET') ? ['#   SCREENCONF_CLIENT_SECRET      our client_secret'] : []),
    ...(env.includes('SCREENCONF_CLIENT_SECRET') && !env.includes('SCREENCONF_API_KEY')
      ? ['#   SCREENCONF_API_KEY            our API key, if a token endpoint refuses requests without it']
      : []),
    ...(env.includes('SCREENCONF_PEER_CLIENT_SECRET')
      ? [
          `#   SCREENCONF_PEER_CLIENT_ID     the peer organisation's client_id${peerDefault}`,
          "#   SCREENCONF_PEER_CLIENT_SECRET the peer organisation's client_secret",
        ]
      : []),
    ...(env.includes('SCREENCONF_API_KEY') ? ['#   SCREENCONF_API_KEY            our API key'] : []),
    ...(env.includes('SCREENCONF_PEER_API_KEY') ? ["#   SCREENCONF_PEER_API_KEY       the peer's API key"] : []),
    `# It sends ${steps.length} request(s): ${steps.length - judged.length} setup, ${judged.length} judged; deletes ` +
      'the cases it created.',
    '# Exit status: 1 the non-conformance is reproduced; 0 the server conforms on this point now; 3 undecided (a ' +
      'setup step',
    '# answered otherwise than in the run, or what failed cannot be checked in sh); 2 it could not run.',
    'set -u',
    `BASE=\${SCREENCONF_BASE_URL:-${q(ctx.baseUrl)}}`,
    'BASE=${BASE%/}',
    `CLIENT_ID=\${SCREENCONF_CLIENT_ID:-${q(ctx.clientId ?? '')}}`,
    'CLIENT_SECRET=${SCREENCONF_CLIENT_SECRET:-}',
    `PEER_CLIENT_ID=\${SCREENCONF_PEER_CLIENT_ID:-${q(ctx.peerClientId ?? '')}}`,
    FUNCTIONS.trim(),
    ...unresolvedLines(steps),
    ...(env.includes('SCREENCONF_CLIENT_SECRET')
      ? ['[ -n "$CLIENT_SECRET" ] || fail_setup "set SCREENCONF_CLIENT_SECRET (our client_secret)"']
      : []),
    'SECRET_JSON=$(json_escape "$CLIENT_SECRET")',
    ...authSetup(steps),
    ...steps.flatMap((s) => stepLines(s, describe(s), ctx.timeoutMs ?? 15_000)),
    ...verdictLines(f, steps, ctx.runId),
  ];
  return { script: `${lines.join('\n')}\n`, env };
}
