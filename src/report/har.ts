/**
 * exchanges.har: every exchange of a run as an HTTP Archive (HAR 1.2), for browser devtools
 * (Network › Import HAR) and any HAR viewer. Built from the run's exchange log (results/
 * exchange-log.ts), so its bodies are as recorded: redacted, a request whole (up to 1 MiB), an
 * answer at most 16384 characters. Each entry carries `_screenconf` (a custom field, as HAR 1.2
 * allows): the check and the requirement ids it names, or the stage (teardown, preflight, sweep),
 * the credential, and the target.
 * One page per target groups the entries.
 */
import { STATUS_CODES } from 'node:http';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Entry, Har, Header, Page } from 'har-format';
import type { Redactor } from '../base/redact.ts';
import type { Exchange } from '../results/exchange.ts';
import { type LoggedExchange, parseExchangeLog } from '../results/exchange-log.ts';

export const HAR_FILE = 'exchanges.har';
/** The exchange log, while the run writes it (removed once exchanges.har is made from it). */
export const EXCHANGE_LOG = 'exchanges.jsonl';
/** What the transport records of a body, at most (client/transport.ts). */
const RECORDED_BODY_CHARS = 16_384;

export interface HarRun {
  version: string;
  runId: string;
  startedAt: string;
  baseUrl: string;
  /** The target's label, in a run with several. */
  label?: string | undefined;
}

/** The screenconf fields of an entry. */
export interface ScreenconfTag {
  stage: LoggedExchange['stage'];
  suite?: string;
  check?: string;
  requirements?: string[];
  attempt?: number;
  property?: string;
  pass?: number | undefined;
  target?: string;
  credential?: string;
  organisation?: string;
  cleanup?: boolean;
  error?: string;
}

export type ScreenconfEntry = Entry & { _screenconf: ScreenconfTag };

const headerList = (headers: Record<string, string>): Header[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
}

function queryOf(url: string): Header[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function entryOf(logged: LoggedExchange, pageref: string, label: string | undefined): ScreenconfEntry {
  const { exchange: e } = logged;
  const reqType = headerOf(e.request.headers, 'content-type');
  const res = e.response;
  const cut = (body: string) => (body.length >= RECORDED_BODY_CHARS ? `first ${RECORDED_BODY_CHARS} characters` : '');
  const response: Entry['response'] = res
    ? {
        status: res.status,
        statusText: STATUS_CODES[res.status] ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: headerList(res.headers),
        content: {
          size: Number(headerOf(res.headers, 'content-length') ?? Buffer.byteLength(res.body)),
          mimeType: headerOf(res.headers, 'content-type') ?? 'x-unknown',
          text: res.body,
          ...(cut(res.body) ? { comment: `${cut(res.body)} recorded` } : {}),
        },
        redirectURL: headerOf(res.headers, 'location') ?? '',
        headersSize: -1,
        bodySize: -1,
      }
    : {
        status: 0,
        statusText: '',
        httpVersion: '',
        cookies: [],
        headers: [],
        content: { size: 0, mimeType: 'x-unknown' },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
        comment: `no answer: ${e.error ?? 'unknown'}`,
      };
  const tag: ScreenconfTag = {
    stage: logged.stage,
    ...(logged.suite ? { suite: logged.suite } : {}),
    ...(logged.check ? { check: logged.check } : {}),
    ...(logged.requirements ? { requirements: logged.requirements } : {}),
    ...(logged.attempt ? { attempt: logged.attempt } : {}),
    ...(logged.property ? { property: logged.property, pass: logged.pass } : {}),
    ...(label ? { target: label } : {}),
    ...(e.request.credential ? { credential: e.request.credential } : {}),
    ...(e.request.organisation ? { organisation: e.request.organisation } : {}),
    ...(e.request.cleanup ? { cleanup: true } : {}),
    ...(e.error ? { error: e.error } : {}),
  };
  const where = logged.check ? `${logged.check} (${(logged.requirements ?? []).join(', ')})` : logged.stage;
  return {
    pageref,
    startedDateTime: e.at,
    time: e.durationMs,
    request: {
      method: e.request.method,
      url: e.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(e.request.headers),
      queryString: queryOf(e.request.url),
      ...(e.request.body !== undefined
        ? { postData: { mimeType: reqType ?? 'application/octet-stream', text: e.request.body } }
        : {}),
      headersSize: -1,
      bodySize: e.request.body === undefined ? 0 : Buffer.byteLength(e.request.body),
    },
    response,
    cache: {},
    timings: { send: 0, wait: e.durationMs, receive: 0 },
    comment: where,
    _screenconf: tag,
  };
}

function pageOf(run: HarRun): Page {
  return {
    id: `run ${run.runId}${run.label ? ` ${run.label}` : ''}`,
    startedDateTime: run.startedAt,
    title: `screenconf run ${run.runId} against ${run.label ? `${run.label}: ` : ''}${run.baseUrl}`,
    pageTimings: {},
  };
}

const byTime = (a: Entry, b: Entry) => a.startedDateTime.localeCompare(b.startedDateTime);

/** The HAR of one target's exchanges, oldest first. */
export function buildHar(logged: readonly LoggedExchange[], run: HarRun): Har {
  const page = pageOf(run);
  return {
    log: {
      version: '1.2',
      creator: { name: 'screenconf', version: run.version },
      pages: [page],
      entries: logged.map((l) => entryOf(l, page.id, run.label)).sort(byTime),
      comment: `every exchange of screenconf run ${run.runId}; secrets are [REDACTED]; _screenconf names its check`,
    },
  };
}

/** One HAR of several targets' HARs: their pages and entries, oldest first. */
export function mergeHars(hars: readonly Har[], version: string, runId: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'screenconf', version },
      pages: hars.flatMap((h) => h.log.pages ?? []),
      entries: hars.flatMap((h) => h.log.entries).sort(byTime),
      comment: `every exchange of screenconf run ${runId}, on every target; secrets are [REDACTED]`,
    },
  };
}

/**
 * The exchanges of a run's exchanges.har as its exchange log held them (what `screenconf replay` compares a check's
 * exchanges with): each entry's request, status and answer, and where in the run it was sent. Entries of another
 * kind of HAR (no _screenconf) are left out.
 */
export function parseHar(text: string): LoggedExchange[] {
  const har = JSON.parse(text) as Har;
  return (har.log?.entries ?? []).flatMap((entry): LoggedExchange[] => {
    const tag = (entry as Partial<ScreenconfEntry>)._screenconf;
    if (!tag) return [];
    const { request: req, response: res } = entry;
    const exchange: Exchange = {
      at: entry.startedDateTime,
      durationMs: entry.time,
      request: {
        method: req.method,
        url: req.url,
        headers: Object.fromEntries(req.headers.map((h) => [h.name, h.value])),
        ...(req.postData?.text !== undefined ? { body: req.postData.text } : {}),
        ...(tag.credential ? { credential: tag.credential as Exchange['request']['credential'] } : {}),
        ...(tag.organisation ? { organisation: tag.organisation as Exchange['request']['organisation'] } : {}),
        ...(tag.cleanup ? { cleanup: true } : {}),
      },
      ...(res.status
        ? { response: { status: res.status, headers: {}, body: res.content.text ?? '' } }
        : { error: tag.error ?? 'no answer' }),
    };
    const where = {
      stage: tag.stage,
      ...(tag.suite ? { suite: tag.suite } : {}),
      ...(tag.check ? { check: tag.check } : {}),
      ...(tag.requirements ? { requirements: tag.requirements } : {}),
      ...(tag.attempt ? { attempt: tag.attempt } : {}),
      ...(tag.property ? { property: tag.property, pass: tag.pass } : {}),
    };
    return [{ ...where, exchange }];
  });
}

/** HAR text, redacted once more on the way out. */
function harText(har: Har, redactor: Redactor): string {
  return redactor.redact(`${JSON.stringify(har, null, 1)}\n`);
}

/** Makes dir/exchanges.har from dir/exchanges.jsonl and removes the log; returns how many exchanges it holds. */
export function writeHar(dir: string, run: HarRun, redactor: Redactor): number {
  const log = join(dir, EXCHANGE_LOG);
  const logged = existsSync(log) ? parseExchangeLog(readFileSync(log, 'utf8')) : [];
  writeFileSync(join(dir, HAR_FILE), harText(buildHar(logged, run), redactor));
  rmSync(log, { force: true });
  return logged.length;
}

/** The run folder's exchanges.har of a run with several targets, from each target's own. */
export function writeMergedHar(
  dir: string,
  targetDirs: readonly string[],
  run: Pick<HarRun, 'version' | 'runId'>,
  redactor: Redactor,
): void {
  const hars = targetDirs
    .map((d) => join(d, HAR_FILE))
    .filter((f) => existsSync(f))
    .map((f) => JSON.parse(readFileSync(f, 'utf8')) as Har);
  writeFileSync(join(dir, HAR_FILE), harText(mergeHars(hars, run.version, run.runId), redactor));
}
