/** Text for one line of a console or a report. */

/** A message on one line (a server's body excerpt may span several), at most `max` characters. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
