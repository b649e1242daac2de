/** The shell steps of a GitHub Actions workflow in docs/ci/, run here as a runner runs them. */
import { bash } from './actions.ts';
import { cleanEnv } from './cli.ts';

/** The `run:` script of the step with this name (a `- name:` line, then `run: |` and its indented block). */
export function stepScript(workflow: string, name: string): string {
  const lines = workflow.split('\n');
  const at = lines.findIndex((l) => l.trim() === `- name: ${name}`);
  if (at < 0) throw new Error(`no step named "${name}" in the workflow`);
  const indent = lines[at]!.indexOf('-') + 2;
  for (let i = at + 1; i < lines.length && (lines[i]!.search(/\S/) >= indent || !lines[i]!.trim()); i++) {
    const run = /^(\s*)run: (.*)$/.exec(lines[i]!);
    if (!run) continue;
    if (run[2] !== '|') return run[2]!;
    const block: string[] = [];
    for (let j = i + 1; j < lines.length && (!lines[j]!.trim() || lines[j]!.search(/\S/) > run[1]!.length); j++)
      block.push(lines[j]!.slice(run[1]!.length + 2));
    return block.join('\n').trim();
  }
  throw new Error(`the step "${name}" has no run script`);
}

/** Runs a step's script as GitHub Actions does (`bash --noprofile --norc -eo pipefail`). */
export function runStep(
  workflow: string,
  name: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number; out: string }> {
  return bash(stepScript(workflow, name), cwd, { ...cleanEnv(), npm_config_offline: 'true', ...env });
}
