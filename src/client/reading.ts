/** Reading an answer: its body within a cap, its headers flat, Retry-After as a wait; an exchange's time as text. */
import type { Dispatcher } from 'undici';
import { TransportError } from '../errors.ts';

/** An exchange's `at`: requests started in the same millisecond share the text (toISOString is not free). */
let isoOf = { ms: Number.NaN, text: '' };
export function isoTime(ms: number): string {
  if (isoOf.ms !== ms) isoOf = { ms, text: new Date(ms).toISOString() };
  return isoOf.text;
}

export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * The body, all of it, or a TransportError once it passes `max` bytes. Read with listeners rather
 * than an async iterator: the iterator's machinery (end-of-stream watcher, a promise per chunk)
 * cost more than the rest of reading a small answer.
 */
export function readCapped(body: Dispatcher.ResponseData['body'], max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > max) {
        fail(new TransportError('SC_TARGET_TOO_LARGE', `response body over ${max} bytes`));
        body.destroy();
        return;
      }
      chunks.push(chunk);
    });
    body.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    body.on('error', fail);
    // Closed with neither an end nor an error: what the iterator reported as a premature close. Every body
    // closes, after its end too, so the Error (and its stack) is made only when nothing settled the read.
    body.on('close', () => {
      if (!settled) fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}

/**
 * Retry-After as a wait in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
