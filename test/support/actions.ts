/**
 * A small local runner for GitHub Actions jobs, enough for screenconf's workflows and its composite
 * action (action.yml): `run:` steps with bash -eo pipefail as GitHub runs them, GITHUB_OUTPUT per
 * step, GITHUB_STEP_SUMMARY, GITHUB_ACTIONS=true; `${{ … }}` for inputs, vars, secrets, matrix, env
 * and steps' outputs; `if:` with success(), failure(), always() and !cancelled(); a local composite
 * action (`uses: ./path`, its inputs' defaults, GITHUB_ACTION_PATH); actions/upload-artifact as a copy
 * into an artifacts folder; checkout and setup-node skipped (the workspace is ready, Node is this one),
 * and so are the steps the caller names as done (the install).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { BIN, ROOT, tempDir } from './cli.ts';

/**
 * A project as a CI runner (or a user) has it after `npm ci`: screenconf's bin in node_modules/.bin, as
 * `npx screenconf` finds it, and this checkout as node_modules/screenconf (the action, the templates).
 */
export function installedProject(prefix = 'screenconf-ci-'): string {
  const dir = tempDir(prefix);
  writeFileSync(join(dir, 'package.json'), '{"name": "uses-screenconf", "private": true}\n');
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules/screenconf'));
  symlinkSync(BIN, join(dir, 'node_modules/.bin/screenconf'));
  return dir;
}

interface StepDef {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string | number | boolean>;
  with?: Record<string, string | number | boolean>;
}

export interface StepResult {
  name: string;
  status: number;
  out: string;
}

export interface JobResult {
  conclusion: 'success' | 'failure';
  steps: StepResult[];
  /** What the job wrote to its summary. */
  summary: string;
  /** The folder the uploaded artifacts were copied to, one folder per artifact name. */
  artifacts: string;
}

export interface Context {
  vars?: Record<string, string>;
  secrets?: Record<string, string>;
  matrix?: Record<string, string>;
  /** The job's environment (besides the machine's, which `baseEnv` gives). */
  env?: NodeJS.ProcessEnv;
  /** Names of steps the workspace has done already (`npm ci`): skipped. */
  done?: readonly string[];
}

interface Scope {
  inputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
  env: NodeJS.ProcessEnv;
  context: Context;
}

/** The value of one expression; what screenconf's workflows use, no more. */
function evaluate(expr: string, scope: Scope): string {
  const e = expr.trim();
  const path = /^([a-z_]+)\.([\w-]+)(?:\.outputs\.([\w-]+))?$/.exec(e);
  if (!path) throw new Error(`expression not supported by the local runner: ${e}`);
  const [, kind, name, output] = path as unknown as [string, string, string, string | undefined];
  if (kind === 'steps') return scope.steps[name]?.[output ?? ''] ?? '';
  const table: Record<string, Record<string, unknown> | undefined> = {
    inputs: scope.inputs,
    vars: scope.context.vars,
    secrets: scope.context.secrets,
    matrix: scope.context.matrix,
    env: scope.env,
  };
  if (!(kind in table)) throw new Error(`expression not supported by the local runner: ${e}`);
  return String(table[kind]?.[name] ?? '');
}

/** A value with its `${{ … }}` replaced. */
function substitute(value: unknown, scope: Scope): string {
  return String(value).replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => evaluate(expr, scope));
}

/** Whether a step runs, by its `if:` and whether a step before it failed. */
function shouldRun(condition: string | undefined, failed: boolean): boolean {
  const c = (condition ?? '').replace(/^\$\{\{(.*)\}\}$/s, '$1').trim();
  if (c === '' || c === 'success()') return !failed;
  if (c === 'always()' || c === '!cancelled()') return true;
  if (c === 'failure()') return failed;
  throw new Error(`if: not supported by the local runner: ${condition}`);
}

/** Runs a script as a CI runner does (`bash --noprofile --norc -eo pipefail`): its status and its whole output. */
export function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number; out: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status: status ?? 1, out }));
  });
}

/** `key=value` lines of a GITHUB_OUTPUT file. */
function outputs(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

class Runner {
  readonly results: StepResult[] = [];
  readonly summaryFile: string;
  readonly artifacts: string;
  #n = 0;

  constructor(
    readonly workspace: string,
    readonly baseEnv: NodeJS.ProcessEnv,
  ) {
    this.summaryFile = join(workspace, '.runner', 'step-summary.md');
    this.artifacts = join(workspace, '.runner', 'artifacts');
    mkdirSync(this.artifacts, { recursive: true });
    writeFileSync(this.summaryFile, '');
  }

  /** Runs steps in order; returns whether one failed. */
  async steps(steps: StepDef[], scope: Scope, actionPath?: string): Promise<boolean> {
    let failed = false;
    for (const step of steps) {
      if (!shouldRun(step.if, failed) || (step.name && scope.context.done?.includes(step.name))) continue;
      const status = await this.step(step, scope, actionPath);
      if (status !== 0) failed = true;
    }
    return failed;
  }

  async step(step: StepDef, scope: Scope, actionPath?: string): Promise<number> {
    const name = step.name ?? step.uses ?? step.run ?? 'step';
    const env: NodeJS.ProcessEnv = { ...scope.env };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(v, scope);
    const withs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(v, scope)]));
    if (step.run !== undefined) {
      const outputFile = join(this.workspace, '.runner', `output-${++this.#n}`);
      const { status, out } = await bash(substitute(step.run, scope), this.workspace, {
        ...env,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: this.summaryFile,
        ...(actionPath ? { GITHUB_ACTION_PATH: actionPath } : {}),
      });
      if (step.id) scope.steps[step.id] = outputs(outputFile);
      this.results.push({ name, status, out });
      return status;
    }
    const uses = step.uses ?? '';
    if (/^actions\/(checkout|setup-node)@/.test(uses)) return 0;
    if (/^actions\/upload-artifact@/.test(uses)) {
      const from = join(this.workspace, withs.path ?? '');
      if (existsSync(from)) cpSync(from, join(this.artifacts, withs.name ?? 'artifact'), { recursive: true });
      else if (withs['if-no-files-found'] !== 'ignore') return this.record(name, 1, `no files at ${withs.path}`);
      return this.record(name, 0, `uploaded ${withs.path} as ${withs.name}`);
    }
    if (uses.startsWith('./')) {
      const path = resolve(this.workspace, uses);
      const action = parse(readFileSync(join(path, 'action.yml'), 'utf8')) as {
        inputs?: Record<string, { default?: string }>;
        runs: { using: string; steps: StepDef[] };
      };
      if (action.runs.using !== 'composite') throw new Error(`${uses}: only composite actions run locally`);
      const inputs = Object.fromEntries(
        Object.entries(action.inputs ?? {}).map(([k, d]) => [k, withs[k] ?? String(d.default ?? '')]),
      );
      const inner: Scope = { inputs, steps: {}, env, context: scope.context };
      return (await this.steps(action.runs.steps, inner, path)) ? 1 : 0;
    }
    throw new Error(`uses: ${uses} is not supported by the local runner`);
  }

  record(name: string, status: number, out: string): number {
    this.results.push({ name, status, out });
    return status;
  }
}

/** Runs one job of a workflow file in `workspace`, as GitHub would on a runner where that workspace is checked out. */
export async function runJob(
  workflowFile: string,
  job: string,
  workspace: string,
  baseEnv: NodeJS.ProcessEnv,
  context: Context = {},
): Promise<JobResult> {
  const workflow = parse(readFileSync(workflowFile, 'utf8')) as {
    env?: Record<string, string>;
    jobs: Record<string, { env?: Record<string, string>; steps: StepDef[] }>;
  };
  const def = workflow.jobs[job];
  if (!def) throw new Error(`no job ${job} in ${workflowFile}`);
  const runner = new Runner(workspace, baseEnv);
  const scope: Scope = { inputs: {}, steps: {}, env: { ...baseEnv, GITHUB_ACTIONS: 'true', ...context.env }, context };
  for (const [k, v] of Object.entries({ ...workflow.env, ...def.env })) scope.env[k] = substitute(v, scope);
  const failed = await runner.steps(def.steps, scope);
  return {
    conclusion: failed ? 'failure' : 'success',
    steps: runner.results,
    summary: readFileSync(runner.summaryFile, 'utf8'),
    artifacts: runner.artifacts,
  };
}
