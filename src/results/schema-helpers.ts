/**
 * How the results model declares its zod schemas. An object schema drops fields it does not know
 * when parsing (a newer report renders with what this version knows); the JSON Schema made from it
 * allows them (generated for input: no additionalProperties), so a reader of version N reads N+1.
 */
import { z } from 'zod';

export const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape);

/** A string field with its description (which goes into docs/conformance.schema.json). */
export const text = (description: string) => z.string().describe(description);
