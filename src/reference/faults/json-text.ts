/**
 * Reading a JSON text's structure without parsing it, as the switches of the body dimension need: where its first
 * value ends, and how deep it nests. Here, among the faults, since only switches use it (the mutation campaign
 * leaves faults/ and variants/ alone: a correct server never runs it).
 */

/** Where the first JSON value of a text ends (after its closing bracket, quote, or its last character). */
export function firstValueEnd(text: string): number {
  let i = text.length - text.trimStart().length;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && /\s/.test(ch)) return i;
  }
  return text.length;
}

/** How deep a JSON text nests (brackets open at once, outside strings). */
export function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') deepest = Math.max(deepest, ++depth);
    else if (ch === '}' || ch === ']') depth--;
  }
  return deepest;
}
