/** `screenconf serve`: the reference server on its own, for a run from another shell or a container. */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { FAULTS, isFaultName } from '../reference/faults.ts';
import { isVariantName, VARIANTS, variantConflict } from '../reference/variants.ts';
import { parseServeCredentials, SERVE_CREDENTIALS_ENV } from '../reference/credentials.ts';
import { createReferenceServer, type TenantCredentials } from '../reference/server.ts';
import type { CliIO } from './args.ts';
import { type Command, type CommandSpec, helpText, parseCommand } from './command.ts';

export const SERVE: CommandSpec = {
  name: 'serve',
  summary: 'start the reference server standalone',
  usage: `screenconf serve [--port N] [--host H] [--credentials-in FILE] [--credentials-out FILE]
                        [--fault NAME ...] [--reference-variants A,B]`,
  description: 'Starts the reference server standalone and prints its base URL and credentials.',
  groups: [
    {
      title: 'Options',
      options: {
        port: { type: 'string', value: 'N', help: 'port to listen on (default: a free port)' },
        host: { type: 'string', value: 'H', help: 'address to bind (default 127.0.0.1)' },
        'credentials-in': {
          type: 'string',
          value: 'FILE',
          help:
            `use these organisations instead of generated ones: the JSON --credentials-out writes (apiKey ` +
            `optional); ${SERVE_CREDENTIALS_ENV} may hold the JSON itself. Given credentials are not printed.`,
        },
        'credentials-out': {
          type: 'string',
          value: 'FILE',
          help:
            'also write {"baseUrl", "organisations": [{"clientId", "clientSecret", "apiKey"}]} as JSON (mode ' +
            '600), which "screenconf run --credentials FILE" reads',
        },
        fault: {
          type: 'string',
          multiple: true,
          value: 'NAME',
          help: 'switch on a fault, a deliberate defect (for self-tests); repeatable. The faults are listed below.',
        },
        'reference-variants': {
          type: 'string',
          multiple: true,
          value: 'A,B',
          help:
            'switch on variants: legal choices other than the default ones, which a conforming harness must ' +
            'accept; comma-separated or repeated. The variants are listed below.',
        },
        variant: { type: 'string', multiple: true, value: 'NAME', help: 'one variant; repeatable' },
      },
    },
  ],
  notes: `Faults:\n${switchList(FAULTS)}\n\nVariants:\n${switchList(VARIANTS)}`,
};

export const SERVE_COMMAND: Command = { spec: SERVE, run: serveCommand };

/** A help listing of switches, one "name: description" line each. */
function switchList(switches: Readonly<Record<string, string>>): string {
  return Object.entries(switches)
    .map(([k, v]) => `  ${k}: ${v}`)
    .join('\n');
}

/**
 * The variants given to serve: --reference-variants (comma-separated, repeatable) and --variant;
 * SC_USAGE for an unknown name or for alternatives.
 */
function serveVariants(values: Record<string, unknown>): string[] {
  const given = [
    ...((values['reference-variants'] as string[] | undefined) ?? []),
    ...((values.variant as string[] | undefined) ?? []),
  ];
  const names = given
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const v of names)
    if (!isVariantName(v))
      throw new HarnessError('SC_USAGE', `--reference-variants "${v}" is not a variant; see "screenconf serve --help"`);
  const problem = variantConflict(names);
  if (problem) throw new HarnessError('SC_USAGE', `--reference-variants: ${problem}`);
  return [...new Set(names)];
}
/** The organisations given to serve: --credentials-in FILE, else SCREENCONF_SERVE_CREDENTIALS; none when neither. */
function serveCredentials(file: string | undefined, io: CliIO): TenantCredentials[] | undefined {
  if (file !== undefined) {
    const path = resolve(io.cwd, file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new HarnessError(
        'SC_USAGE',
        `--credentials-in ${path} cannot be read: ${(err as { code?: string }).code ?? (err as Error).message}`,
      );
    }
    return parseServeCredentials(text, `--credentials-in ${path}`);
  }
  const text = io.env[SERVE_CREDENTIALS_ENV];
  return text ? parseServeCredentials(text, SERVE_CREDENTIALS_ENV) : undefined;
}

export async function serveCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommand(args, SERVE);
  if (values.help) {
    io.out(helpText(SERVE));
    return EXIT.ok;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new HarnessError('SC_USAGE', `--port must be an integer from 0 to 65535, got "${values.port}"`);
  const faults = (values.fault as string[] | undefined) ?? [];
  for (const f of faults)
    if (!isFaultName(f))
      throw new HarnessError('SC_USAGE', `--fault "${f}" is not a fault; see "screenconf serve --help"`);
  const variants = serveVariants(values);
  const given = serveCredentials(values['credentials-in'] as string | undefined, io);
  let server: Awaited<ReturnType<typeof createReferenceServer>>;
  try {
    server = await createReferenceServer({
      port,
      host: (values.host as string | undefined) ?? '127.0.0.1',
      faults: faults.filter(isFaultName),
      variants: variants.filter(isVariantName),
      ...(given ? { organisations: given } : {}),
    });
  } catch (err) {
    throw new HarnessError(
      'SC_USAGE',
      `cannot listen on ${(values.host as string | undefined) ?? '127.0.0.1'}:${port}: ` +
        `${(err as { code?: string }).code ?? (err as Error).message}`,
    );
  }
  const organisations = server.organisations.map(({ clientId, clientSecret, apiKey }) => ({
    clientId,
    clientSecret,
    apiKey,
  }));
  io.out(
    `screenconf reference server listening on ${server.url}` +
      `${faults.length ? ` (faults: ${faults.join(', ')})` : ''}` +
      `${variants.length ? ` (variants: ${variants.join(', ')})` : ''}`,
  );
  for (const [i, o] of organisations.entries()) {
    io.out(
      given
        ? `organisation ${i + 1}: client_id=${o.clientId} (secret and API key as given)`
        : `organisation ${i + 1}: client_id=${o.clientId} client_secret=${o.clientSecret} api_key=${o.apiKey}`,
    );
  }
  const [ours, peer] = organisations;
  const secret = (value: string | undefined, name: string) => (given ? name : value);
  io.out(
    `run against it: screenconf run --base-url ${server.url} --client-id ${ours!.clientId} ` +
      `--client-secret ${secret(ours!.clientSecret, '<client_secret>')} ` +
      `--api-key ${secret(ours!.apiKey, '<api_key>')}` +
      (peer
        ? ` --peer-client-id ${peer.clientId} --peer-client-secret ${secret(peer.clientSecret, '<peer_client_secret>')}`
        : ''),
  );
  if (values['credentials-out']) {
    const file = resolve(io.cwd, values['credentials-out'] as string);
    writeFileSync(file, `${JSON.stringify({ baseUrl: server.url, organisations }, null, 2)}\n`, { mode: 0o600 });
    io.out(`credentials written to ${file}`, `or, with them: screenconf run --credentials ${file}`);
  }
  await (io.stopSignal ?? new Promise<void>(() => {}));
  await server.close();
  return EXIT.ok;
}
