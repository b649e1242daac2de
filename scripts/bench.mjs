#!/usr/bin/env node
// npm run bench: what a run costs, as figures comparable from commit to commit. Not a test: it
// prints and writes bench/results.json, and judges nothing. Figures depend on the machine; run it
// on a quiet one and compare medians.
//
//   1. the full default run against the embedded server, 3 times: median wall time, requests sent,
//      requests per second, and each suite's time and requests;
//   1b. cold and warm: a run's own start and finish (a run that selects no check: everything but the
//      suites' requests and waits) as the command line starts it (cold: a process, tsx, vitest) and in
//      a warm session of the in-process API (vitest and its workers kept), and the full run warm, with
//      where its time goes (its own start and finish, the suites stage and its longest suite file);
//   2. harness overhead per request: the same mix of requests (token, case creation, PATCH, GET,
//      bulk update) sent through screenconf's client and through a bare undici loop;
//   3. cost against --runs 25, 100, 400 (the property suites);
//   4. a failing run (a fault switched on) against the same clean run: the price of shrinking.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/screenconf.js');
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** One `screenconf run` as a user would start it: wall time, the report, each suite's line. */
function run(args) {
  const dir = mkdtempSync(join(tmpdir(), 'screenconf-bench-'));
  const began = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'run', '--quiet', '--report-dir', dir, ...args], {
    encoding: 'utf8',
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SCREENCONF_'))),
  });
  const wallMs = performance.now() - began;
  const report = JSON.parse(readFileSync(join(realpathSync(join(dir, 'latest')), 'conformance.json'), 'utf8'));
  const suites = {};
  for (const m of r.stdout.matchAll(/^ {2}[✓✗–] (\S+)\s.*\((\d+) requests, (\d+\.\d) s\)$/gm)) {
    suites[m[1]] = { requests: Number(m[2]), seconds: Number(m[3]) };
  }
  return {
    status: r.status,
    wallMs,
    requests: report.summary.requests?.total ?? 0,
    verdict: report.summary.verdict,
    suites,
  };
}

/** A run that selects no check (a name none has): what is left is the run's own start and finish. */
const NO_CHECK = ['--suites', 'token', '--check', "bench: no check (the run's own start and finish)"];

/** The same runs in this process, in warm sessions (src/runner/suite-session.ts), as the tests and campaigns run. */
async function warm() {
  const { main } = await import('../src/cli.ts');
  const { SuiteSessions } = await import('../src/runner/suite-session.ts');
  const sessions = new SuiteSessions();
  const inProcess = async (args) => {
    const dir = mkdtempSync(join(tmpdir(), 'screenconf-bench-'));
    let out = '';
    const began = performance.now();
    const status = await main(['run', '--report-dir', dir, ...args], {
      out: (...lines) => (out += `${lines.join('\n')}\n`),
      err: (line) => (out += `${line}\n`),
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SCREENCONF_'))),
      cwd: ROOT,
      sessions,
    });
    const wallMs = performance.now() - began;
    const report = JSON.parse(readFileSync(join(realpathSync(join(dir, 'latest')), 'conformance.json'), 'utf8'));
    return { status, wallMs, requests: report.summary.requests?.total ?? 0, verdict: report.summary.verdict, out };
  };
  try {
    await inProcess(NO_CHECK); // the session's first run: vitest, its workers and their modules warm up
    const overheadMs = median(await sequence(5, () => inProcess(NO_CHECK).then((r) => r.wallMs)));
    const runs = await sequence(REPEAT, () => inProcess(['--seed', '7']));
    const fullMs = median(runs.map((r) => r.wallMs));
    const bySuite = {};
    for (const m of runs[0].out.matchAll(/^ {2}[✓✗–] (\S+)\s.*\((\d+) requests, (\d+\.\d) s\)$/gm)) {
      bySuite[m[1]] = Number(m[3]);
    }
    const [longest, longestSeconds] = Object.entries(bySuite).sort((a, b) => b[1] - a[1])[0] ?? ['none', 0];
    return {
      overheadMs,
      fullMs,
      requests: median(runs.map((r) => r.requests)),
      verdicts: runs.map((r) => r.verdict),
      suitesMs: fullMs - overheadMs,
      longest: { suite: longest, seconds: longestSeconds },
    };
  } finally {
    await sessions.close();
  }
}

async function sequence(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

function cold() {
  return { overheadMs: median(Array.from({ length: REPEAT }, () => run(NO_CHECK).wallMs)) };
}

function full() {
  const runs = Array.from({ length: REPEAT }, () => run(['--seed', '7']));
  const wallMs = median(runs.map((r) => r.wallMs));
  const requests = median(runs.map((r) => r.requests));
  const bySuite = Object.fromEntries(
    Object.keys(runs[0].suites)
      .sort()
      .map((s) => [
        s,
        { seconds: median(runs.map((r) => r.suites[s]?.seconds ?? 0)), requests: runs[0].suites[s].requests },
      ]),
  );
  return {
    wallMs,
    requests,
    requestsPerSecond: requests / (wallMs / 1000),
    verdicts: runs.map((r) => r.verdict),
    bySuite,
  };
}

/** The same requests through screenconf's client and through bare undici, against one reference server. */
async function overhead() {
  const { createReferenceServer } = await import('../src/reference/server.ts');
  const { Transport } = await import('../src/client/transport.ts');
  const { Redactor } = await import('../src/base/redact.ts');
  const { organisationClient } = await import('../src/client/api.ts');
  const { request } = await import('undici');
  const server = await createReferenceServer();
  const [org] = server.organisations;
  const redactor = new Redactor([org.clientSecret, org.apiKey]);
  const exchanges = [];
  const transport = new Transport({ timeoutMs: 15_000, maxResponseBytes: 4 << 20 }, redactor, (e) => exchanges.push(e));
  const api = organisationClient({ baseUrl: server.url, credentials: org, transport, organisation: 'ours' });
  const created = (await api.request('POST', '/api/cases/', { body: { customer: { full_name: 'Bench' } } })).json;
  const mix = [
    ['PATCH', `/api/cases/${created.id}/`, { metadata: { bench: true }, delete_after: 5 }],
    ['GET', `/api/cases/${created.id}/`, undefined],
    ['POST', '/api/cases/bulk-update/', { items: [{ id: created.id, delete_after: 7 }] }],
    ['PATCH', `/api/cases/${created.id}/`, { webhook_url: null }],
  ];
  const N = 1500;
  const token = `Bearer ${org.apiKey}`;
  const bare = async () => {
    const began = performance.now();
    for (let i = 0; i < N; i++) {
      const [method, path, body] = mix[i % mix.length];
      const res = await request(`${server.url}${path}`, {
        method,
        headers: { authorization: token, accept: 'application/json', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      JSON.parse(await res.body.text());
    }
    return performance.now() - began;
  };
  const harness = async () => {
    const began = performance.now();
    for (let i = 0; i < N; i++) {
      const [method, path, body] = mix[i % mix.length];
      await api.request(method, path, body === undefined ? {} : { body });
      if (exchanges.length > 50) exchanges.length = 0;
    }
    return performance.now() - began;
  };
  // The two alternate (bare first, then harness first, …) after both are warm: the process keeps getting faster
  // over its first runs (JIT, the reference server's own code), and three bare runs then three harness runs
  // credited that to the harness (the client of 366653b: 1.3× in that order, 1.7× in the reverse one).
  for (let i = 0; i < 3; i++) {
    await bare();
    await harness();
  }
  const bareRuns = [];
  const harnessRuns = [];
  for (let i = 0; i < 6; i++) {
    if (i % 2 === 0) bareRuns.push(await bare());
    harnessRuns.push(await harness());
    if (i % 2 === 1) bareRuns.push(await bare());
  }
  const bareMs = median(bareRuns);
  const harnessMs = median(harnessRuns);
  await server.close();
  return { requests: N, bareMs, harnessMs, ratio: harnessMs / bareMs };
}

function scaling() {
  const suites = 'case-properties,content-types,bulk-customers';
  return [25, 100, 400].map((runs) => {
    const r = run(['--seed', '7', '--suites', suites, '--runs', String(runs)]);
    return { runs, wallMs: r.wallMs, requests: r.requests };
  });
}

function failing() {
  const args = ['--seed', '7', '--suites', 'bulk-cases,bulk-customers,bulk-checks'];
  const clean = median(Array.from({ length: REPEAT }, () => run(args).wallMs));
  const faulty = median(
    Array.from({ length: REPEAT }, () => run([...args, '--reference-faults', 'bulk.failure-as-success']).wallMs),
  );
  return { fault: 'bulk.failure-as-success', cleanMs: clean, failingMs: faulty, ratio: faulty / clean };
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const results = {
  at: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
  full: full(),
  cold: cold(),
  warm: await warm(),
  overhead: await overhead(),
  scaling: scaling(),
  failing: failing(),
};

const f = results.full;
const m = results.machine;
console.log(`machine: ${m.cpus} × ${m.model}, ${m.memoryGiB} GiB, Node ${m.node}`);
const verdicts = [...new Set(f.verdicts)].join(', ');
console.log(`full default run (embedded server, median of ${REPEAT}): ${s(f.wallMs)}, ${f.requests} requests,`);
console.log(`  ${f.requestsPerSecond.toFixed(0)} requests/s, verdicts ${verdicts}`);
console.log('  suite                 time   requests');
for (const [name, x] of Object.entries(f.bySuite))
  console.log(`  ${name.padEnd(18)} ${x.seconds.toFixed(1).padStart(6)} s ${String(x.requests).padStart(9)}`);
const c = results.cold;
const w = results.warm;
console.log(
  `a run's own start and finish (no check selected): cold ${s(c.overheadMs)} (screenconf run: a process, tsx, ` +
    `vitest), warm ${s(w.overheadMs)} (a warm session of the in-process API)`,
);
console.log(
  `full run, warm (median of ${REPEAT}): ${s(w.fullMs)}, ${w.requests} requests, verdicts ` +
    `${[...new Set(w.verdicts)].join(', ')}: its own start and finish ${s(w.overheadMs)}, the suites ` +
    `${s(w.suitesMs)} (longest file ${w.longest.suite}, ${w.longest.seconds.toFixed(1)} s; two worker processes ` +
    'share the rest)',
);
const o = results.overhead;
const per = (ms) => `${(ms / o.requests).toFixed(3)} ms`;
console.log(
  `overhead per request: screenconf ${per(o.harnessMs)}, bare undici ${per(o.bareMs)}: ${o.ratio.toFixed(2)}×`,
);
console.log(
  `cost by --runs: ${results.scaling.map((x) => `${x.runs}: ${s(x.wallMs)} / ${x.requests} requests`).join('; ')}`,
);
const fl = results.failing;
console.log(`failing run (${fl.fault}) against clean: ${s(fl.failingMs)} vs ${s(fl.cleanMs)}: ${fl.ratio.toFixed(2)}×`);
mkdirSync(join(ROOT, 'bench'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('written: bench/results.json');
