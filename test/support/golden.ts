/**
 * Golden files: a report as it was once reviewed, with what changes from run to run (times,
 * ports, ids, durations, temporary folders) replaced by placeholders. Set
 * SCREENCONF_UPDATE_GOLDEN=1 to write the files anew (then review the diff).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './cli.ts';

export const GOLDEN_DIR = join(ROOT, 'test/golden');

export interface Volatile {
  /** The --report-dir of the run (and the run folder inside it). */
  dir: string;
  runId: string;
}

export function normalize(text: string, v: Volatile): string {
  return (
    text
      .split(v.dir)
      .join('<dir>')
      .replace(/\d{8}T\d{6}Z-[0-9a-f]{8}/g, '<run-folder>')
      .split(v.runId)
      .join('<run>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replace(/[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT/g, '<http-date>')
      .replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:<port>')
      // external ids: screenconf-<run>-a-case-1-<random suffix>
      .replace(/(screenconf-<run>-[ab]-[a-z]+-\d+-)[a-z0-9]+/g, '$1<rand>')
      // the suffix is 5 or 6 characters: lengths of bodies that hold one vary
      .replace(/("content-length": ")\d+"/g, '$1<n>"')
      .replace(/^(content-length: )\d+$/gm, '$1<n>')
      .replace(/("durationMs": )\d+/g, '$1<ms>')
      .replace(/\(\d+ ms\)/g, '(<ms> ms)')
      .replace(/( time=")[\d.]+"/g, '$1<s>"')
      .replace(/( hostname=")[^"]*"/g, '$1<host>"')
      .replace(/((?:src|suites)\/[\w./-]+\.ts):\d+:\d+/g, '$1:<line>')
      // the embedded server's client ids
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>')
  );
}

/** Compares text with test/golden/<name>, or writes it there under SCREENCONF_UPDATE_GOLDEN=1. */
export function expectGolden(name: string, text: string): void {
  const file = join(GOLDEN_DIR, name);
  if (process.env.SCREENCONF_UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file))
    throw new Error(`no golden file ${file}: run with SCREENCONF_UPDATE_GOLDEN=1 to write it, then review it`);
  expect(text, `differs from ${file} (SCREENCONF_UPDATE_GOLDEN=1 rewrites it; review the diff)`).toBe(
    readFileSync(file, 'utf8'),
  );
}
