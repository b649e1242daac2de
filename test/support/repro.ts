/** What the reproduction tests share: a run's results as conformance.json has them, a script run, a replay run. */
import { spawn } from 'node:child_process';
import { screenconfInProcess } from './in-process.ts';

export interface Failure {
  message: string;
  request?: { method: string; path: string; credential: string };
  evidence?: { exchanges: { judged?: boolean; request: { method: string } }[]; property?: unknown };
}
export interface Result {
  id: string;
  verdict: string;
  failures?: Failure[];
  repro?: { script: string; env: string[]; command: string };
  replay?: { command: string; env: string[] };
}

/** Runs `sh script` with the environment given; resolves with its exit status and output. */
export function sh(script: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [script], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out }));
  });
}

/** `screenconf replay <run folder> …`: its status, each requirement's exit by id, and what it printed. */
export async function replayRun(
  dir: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; exits: Record<string, number>; each: number[]; out: string }> {
  const r = await screenconfInProcess(['replay', dir, ...args], { env });
  const exits = Object.fromEntries(
    [...r.stdout.matchAll(/^([A-Z0-9-]+): exit (\d) /gm)].map((m) => [m[1]!, Number(m[2])]),
  );
  // With several failures of a requirement, a line each follows its line: every one decides alike.
  const each = [...r.stdout.matchAll(/^(?:[A-Z0-9-]+| {2}.+?): exit (\d) /gm)].map((m) => Number(m[1]));
  return { status: r.status, exits, each, out: r.stdout + r.stderr };
}
