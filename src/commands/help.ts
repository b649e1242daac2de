/**
 * What help text is made of: the run settings grouped by what they are about, the name of each
 * option's value (`--base-url URL`), and wrapping within 100 columns.
 */
import { SETTINGS, type SettingKey } from '../runner/settings.ts';

/** Widest help line. */
export const HELP_COLUMNS = 100;

/** The settings that give the run's credentials one by one (beside `credentials`, a file of them). */
export const CREDENTIAL_SETTINGS: readonly SettingKey[] = [
  'clientId',
  'clientSecret',
  'clientSecretFile',
  'apiKey',
  'apiKeyFile',
  'peerClientId',
  'peerClientSecret',
  'peerClientSecretFile',
];

/** The groups of `run --help`, in order; a setting not named here is listed under "other". */
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['target', ['baseUrl', 'targets', 'targetImage', 'targetPort', 'targetEnv', 'targetReadyTimeoutMs', 'provisioner']],
  ['credentials', ['credentials', ...CREDENTIAL_SETTINGS]],
  [
    'selection',
    [
      'suites',
      'suitesDir',
      'userCatalogue',
      'only',
      'checks',
      'seed',
      'runs',
      'shrinkTimeMs',
      'shrinkRequests',
      'credentialGuesses',
    ],
  ],
  ['load', ['concurrency', 'maxRps', 'timeoutMs', 'deadlineMs', 'maxResponseBytes', 'maxFailures', 'exitFirst']],
  ['webhooks', ['webhookHost', 'webhookPort', 'webhookPublicUrl', 'webhookTimeoutMs', 'processingTimeoutMs']],
  [
    'reports',
    [
      'reportDir',
      'mdMaxChars',
      'signKey',
      'expect',
      'strict',
      'requireComplete',
      'quiet',
      'progressIntervalMs',
      'bulkFailuresPath',
    ],
  ],
  ['safety', ['allowInsecureHttp', 'keep']],
  ['self-tests', ['referenceFaults', 'referenceVariants']],
];

/** The name of a flag's value in help and messages: URL, FILE, MS, N, … */
export function valueName(flag: string): string {
  const name = flag.replace(/^-+/, '');
  const named: Record<string, string> = {
    target: 'LABEL=URL',
    'target-env': 'K=V',
    'target-image': 'IMAGE',
    suites: 'NAME[,…]',
    only: 'REQ-ID[,…]',
    'reference-faults': 'NAME[,…]',
    'reference-variants': 'NAME[,…]',
    'bulk-failures-path': 'JSONPATH',
    'webhook-host': 'HOST',
    'api-key': 'KEY',
    expect: 'FILE',
    provisioner: 'FILE',
    'sign-key': 'FILE',
    config: 'FILE',
    credentials: 'FILE',
    'user-catalogue': 'FILE',
  };
  if (named[name]) return named[name];
  if (name.endsWith('-url')) return 'URL';
  if (name.endsWith('-ms')) return 'MS';
  if (name.endsWith('-file')) return 'FILE';
  if (name.endsWith('-dir')) return 'DIR';
  if (name.endsWith('-id')) return 'ID';
  if (name.endsWith('-secret')) return 'SECRET';
  if (name.endsWith('-port') || name === 'port') return 'PORT';
  if (name === 'host') return 'HOST';
  return 'N';
}

/** `text` after `prefix` (padded to `indent`), as lines of at most `width` columns, each further one indented. */
export function wrap(prefix: string, text: string, indent: number, width = HELP_COLUMNS): string[] {
  const lines: string[] = [];
  let line = prefix.padEnd(indent);
  let empty = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = ' '.repeat(indent) + word;
    } else line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** The run settings by group, in order ("Target", "Credentials", …); a setting no group names is under "Other". */
export function groupedSettings(): [string, SettingKey[]][] {
  const keys = Object.keys(SETTINGS) as SettingKey[];
  const listed = new Set(GROUPS.flatMap(([, ks]) => ks));
  const groups = [...GROUPS, ['other', keys.filter((k) => !listed.has(k))] as const];
  return groups
    .map(([title, members]): [string, SettingKey[]] => [
      `${title[0]!.toUpperCase()}${title.slice(1)}`,
      members.filter((k): k is SettingKey => k in SETTINGS),
    ])
    .filter(([, members]) => members.length > 0);
}
