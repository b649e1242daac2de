/**
 * Ids of cases, customers and checks. The interface says they are integers and nothing about how large, so
 * a server may hand out ids beyond 2^53 (Snowflake-style ids, 64-bit sequences), which a JS number cannot
 * hold exactly. An id is a number while it is a safe integer and the exact bigint beyond (`parseJson` in
 * src/base/json.ts reads JSON so): one value always has one type, so `===`, Set and Map keys stay exact.
 */
import { z } from 'zod';

export type Id = number | bigint;

/** An id read from JSON: a safe integer, or a bigint beyond the safe range (as parseJson gives it). */
export const IdSchema = z
  .union([z.int(), z.bigint().refine((v) => !Number.isSafeInteger(Number(v)), 'must be outside the safe range')])
  .meta({ type: 'integer' });

/** Whether a value read from JSON is an integer id (a bigint is one only beyond the safe range). */
export function isId(v: unknown): v is Id {
  return typeof v === 'bigint' ? !Number.isSafeInteger(Number(v)) : Number.isSafeInteger(v);
}

/** The one form of an integer as an id: a number when it is safe, else the bigint. */
export function toId(v: number | bigint): Id {
  if (typeof v === 'number') return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

/** The id written as decimal digits (with an optional minus sign), or undefined for other text. */
export function idFromText(text: string): Id | undefined {
  return /^-?\d+$/.test(text) ? toId(BigInt(text)) : undefined;
}

/** `id + n`, exact for ids beyond 2^53 too. */
export function idPlus(id: Id, n: number): Id {
  return typeof id === 'number' && Number.isSafeInteger(id + n) ? id + n : toId(BigInt(id) + BigInt(n));
}

/** Ascending order of ids, for sort (a - b fails on a bigint; `<` compares a number and a bigint exactly). */
export function compareIds(a: Id, b: Id): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * For z.toJSONSchema's `override`: an id is an integer in JSON Schema (zod cannot represent its bigint half, so
 * the calls pass `unrepresentable: 'any'` and this names what the id is).
 */
export function idAsInteger(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  if (ctx.zodSchema !== IdSchema) return;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  ctx.jsonSchema.type = 'integer';
}
