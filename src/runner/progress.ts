/**
 * Live progress while the suites run. On a terminal, one line per running suite file (checks done
 * of all, requests sent, elapsed), redrawn in place below the lines of the files that ended;
 * without a terminal (a CI log), a plain line at a steady interval while anything runs, so a long
 * run is never silent. Off with --quiet.
 */
import { suiteName } from '../base/suite-file.ts';
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import '../kit/meta.ts';

export type ProgressMode = 'terminal' | 'lines' | 'off';

export interface ProgressOptions {
  mode: ProgressMode;
  /** Writes one line (a newline is added). */
  out: (line: string) => void;
  /** Writes raw text to the terminal (cursor movement); only used in terminal mode. */
  write?: ((text: string) => void) | undefined;
  /** Between two plain progress lines, in ms (default 10000). */
  intervalMs?: number;
  /** The target's label, in a run with several. */
  label?: string | undefined;
}

interface Running {
  name: string;
  total: number;
  done: number;
  failed: number;
  requests: number;
  started: number;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A vitest reporter that shows progress; `log` prints a line above the live block. */
export class Progress implements Reporter {
  readonly #o: ProgressOptions;
  readonly #running = new Map<string, Running>();
  #files = 0;
  #filesDone = 0;
  #checksDone = 0;
  #requests = 0;
  #began = Date.now();
  #timer: NodeJS.Timeout | undefined;
  /** Lines of the live block now on the terminal. */
  #drawn = 0;

  constructor(options: ProgressOptions) {
    this.#o = options;
  }

  /** Prints a line of the run (a suite file's result) without tearing the live block. */
  log(line: string): void {
    if (this.#o.mode !== 'terminal') {
      this.#o.out(line);
      return;
    }
    this.#clear();
    this.#o.out(line);
    this.#draw();
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    // A run of the suite files after another (the last phase, a next round) adds its files to those done.
    if (this.#filesDone === 0) this.#began = Date.now();
    this.#files = this.#filesDone + specifications.length;
    if (this.#o.mode === 'off') return;
    const every = this.#o.mode === 'terminal' ? 1000 : (this.#o.intervalMs ?? 10_000);
    this.#timer = setInterval(() => this.#tick(), every);
    this.#timer.unref();
  }

  // A file's checks may be known before or after vitest says it started: either way, count them.
  onTestModuleStart(module: TestModule): void {
    this.#entry(module);
  }

  onTestModuleCollected(module: TestModule): void {
    this.#entry(module).total = [...module.children.allTests()].length;
  }

  onTestCaseResult(test: TestCase): void {
    const r = this.#entry(test.module);
    const requests = test.meta().screenconf?.requests ?? 0;
    this.#checksDone += 1;
    this.#requests += requests;
    r.done += 1;
    r.requests += requests;
    if (test.result().state === 'failed') r.failed += 1;
    if (this.#o.mode === 'terminal') this.#redraw();
  }

  onTestModuleEnd(module: TestModule): void {
    this.#running.delete(module.moduleId);
    this.#filesDone += 1;
    if (this.#o.mode === 'terminal') this.#redraw();
  }

  onTestRunEnd(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#o.mode === 'terminal') this.#clear();
  }

  /** The plain progress line: files and checks done, requests, elapsed, and what is running. */
  line(now = Date.now()): string {
    const tag = this.#o.label ? `[${this.#o.label}] ` : '';
    const running = [...this.#running.values()].map((r) => `${r.name} ${r.done}/${r.total || '?'}`).join(', ');
    const counts =
      `${this.#filesDone}/${this.#files} suites done, ${this.#checksDone} checks, ` +
      `${this.#requests} requests, ${seconds(now - this.#began)}`;
    return `  ${tag}progress: ${counts}${running ? `; running: ${running}` : ''}`;
  }

  /** The live block on a terminal: one line per running suite file. */
  block(now = Date.now()): string[] {
    return [...this.#running.values()].map((r) => {
      const failed = r.failed ? `, ${r.failed} failed` : '';
      const checks = `${r.done}/${r.total || '?'} checks${failed}`;
      return `  … ${r.name.padEnd(16)} ${checks}, ${r.requests} requests, ${seconds(now - r.started)}`;
    });
  }

  #entry(module: TestModule): Running {
    let r = this.#running.get(module.moduleId);
    if (!r) {
      r = { name: suiteName(module.moduleId), total: 0, done: 0, failed: 0, requests: 0, started: Date.now() };
      this.#running.set(module.moduleId, r);
    }
    return r;
  }

  #tick(): void {
    if (this.#o.mode === 'terminal') this.#redraw();
    else if (this.#running.size > 0) this.#o.out(this.line());
  }

  #redraw(): void {
    this.#clear();
    this.#draw();
  }

  #draw(): void {
    const lines = this.block();
    if (lines.length === 0 || !this.#o.write) return;
    this.#o.write(`${lines.join('\n')}\n`);
    this.#drawn = lines.length;
  }

  #clear(): void {
    if (this.#drawn === 0 || !this.#o.write) return;
    // Up to the first line of the block, then erase to the end of the screen.
    this.#o.write(`\u001b[${this.#drawn}F\u001b[J`);
    this.#drawn = 0;
  }
}
