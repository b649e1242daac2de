/**
 * `screenconf init`: what a first run in a user's repository needs. A credentials template (the
 * `run --credentials` file, its secrets named as environment variables, never written; gitignored),
 * an empty expectations file (`run --expect`), and with `--ci github|gitlab` the CI job that runs
 * the gate with them. Nothing is overwritten unless --force.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { PACKAGE_ROOT } from '../version.ts';
import type { CliIO } from './args.ts';
import { type Command, type CommandSpec, helpText, parseCommand } from './command.ts';

/** The files init writes, by role (paths relative to the folder it runs in). */
export const INIT_FILES = {
  credentials: 'screenconf.credentials.json',
  expectations: 'screenconf.expect.json',
  github: '.github/workflows/screenconf.yml',
  gitlab: '.gitlab/screenconf.gitlab-ci.yml',
} as const;

const CI_PLATFORMS = ['github', 'gitlab'] as const;
type CiPlatform = (typeof CI_PLATFORMS)[number];

export const INIT: CommandSpec = {
  name: 'init',
  summary: 'write a credentials template, an expectations file and (--ci) a CI job into this folder',
  usage: 'screenconf init [--ci github|gitlab] [--force]',
  description: `Writes what a first run needs into the current folder:
  ${INIT_FILES.credentials}  the target and its client ids for "screenconf run --credentials FILE";
      its secrets are named as environment variables ({"env": "SCREENCONF_CLIENT_SECRET"}), never
      written; the file is added to .gitignore
  ${INIT_FILES.expectations}       known failures for "screenconf run --expect FILE" (none yet)
With --ci github, ${INIT_FILES.github}: a workflow that runs the screenconf action
of the installed package (uses: ./node_modules/screenconf) with the repository's variables and
secrets. With --ci gitlab, ${INIT_FILES.gitlab}: the same job for GitLab CI, to include
from .gitlab-ci.yml.`,
  groups: [
    {
      title: 'Options',
      options: {
        ci: { type: 'string', value: 'github|gitlab', help: 'also write the CI job for this platform' },
        force: { type: 'boolean', help: 'overwrite files that exist (without it, an existing file is SC_INIT_EXISTS)' },
      },
    },
  ],
  notes: `Exit status: 0 written, 2 usage error or a file exists (SC_INIT_EXISTS names it; nothing is written).`,
};

export const INIT_COMMAND: Command = { spec: INIT, run: initCommand };

/** The credentials template: `run --credentials` reads it; each secret is read from the variable it names. */
const CREDENTIALS_TEMPLATE = {
  baseUrl: 'https://staging.example.com',
  organisations: [
    {
      clientId: '00000000-0000-4000-8000-000000000001',
      clientSecret: { env: 'SCREENCONF_CLIENT_SECRET' },
      apiKey: { env: 'SCREENCONF_API_KEY' },
    },
    { clientId: '00000000-0000-4000-8000-000000000002', clientSecret: { env: 'SCREENCONF_PEER_CLIENT_SECRET' } },
  ],
};

const GITHUB_WORKFLOW = `# screenconf conformance gate (written by "screenconf init --ci github").
# Set the repository variables SCREENCONF_BASE_URL, SCREENCONF_CLIENT_ID, SCREENCONF_PEER_CLIENT_ID
# and the secrets SCREENCONF_CLIENT_SECRET, SCREENCONF_API_KEY, SCREENCONF_PEER_CLIENT_SECRET.
# Without a base URL the run is against the embedded reference server.
name: conformance

on:
  push:
  pull_request:
  workflow_dispatch:

jobs:
  conformance:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - name: Install
        run: npm ci
      - name: Conformance
        uses: ./node_modules/screenconf
        with:
          base-url: \${{ vars.SCREENCONF_BASE_URL }}
          client-id: \${{ vars.SCREENCONF_CLIENT_ID }}
          client-secret: \${{ secrets.SCREENCONF_CLIENT_SECRET }}
          api-key: \${{ secrets.SCREENCONF_API_KEY }}
          peer-client-id: \${{ vars.SCREENCONF_PEER_CLIENT_ID }}
          peer-client-secret: \${{ secrets.SCREENCONF_PEER_CLIENT_SECRET }}
          expect: ${INIT_FILES.expectations}
`;

/** The GitLab job: the package's template, copied (GitLab cannot include from node_modules), and a job using it. */
function gitlabJob(template: string): string {
  return `# screenconf conformance gate (written by "screenconf init --ci gitlab"). Include it from .gitlab-ci.yml:
#   include:
#     - local: ${INIT_FILES.gitlab}
# and set SCREENCONF_BASE_URL, SCREENCONF_CLIENT_ID, SCREENCONF_PEER_CLIENT_ID and (masked)
# SCREENCONF_CLIENT_SECRET, SCREENCONF_API_KEY, SCREENCONF_PEER_CLIENT_SECRET as CI/CD variables.

${template.trimEnd()}

screenconf:
  extends: .screenconf
  variables:
    SCREENCONF_EXPECT: ${INIT_FILES.expectations}
`;
}

/** The package's GitLab CI template. */
function gitlabTemplate(): string {
  return readFileSync(join(PACKAGE_ROOT, 'ci/screenconf.gitlab-ci.yml'), 'utf8');
}

/** Adds `entry` to the folder's .gitignore (created if need be) unless a line already says it. */
function gitignore(cwd: string, entry: string): boolean {
  const file = join(cwd, '.gitignore');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (text.split(/\r?\n/).some((l) => [entry, `/${entry}`].includes(l.trim()))) return false;
  const sep = text === '' || text.endsWith('\n') ? '' : '\n';
  appendFileSync(
    file,
    `${sep}# screenconf: the target's credentials file (secrets come from the environment)\n${entry}\n`,
  );
  return true;
}

export function initCommand(args: string[], io: CliIO): number {
  const { values } = parseCommand(args, INIT);
  if (values.help) {
    io.out(helpText(INIT));
    return EXIT.ok;
  }
  const ci = values.ci as string | undefined;
  if (ci !== undefined && !CI_PLATFORMS.includes(ci as CiPlatform))
    throw new HarnessError('SC_USAGE', `--ci "${ci}" is not a CI platform (${CI_PLATFORMS.join(', ')})`);
  const files: [string, string][] = [
    [INIT_FILES.credentials, `${JSON.stringify(CREDENTIALS_TEMPLATE, null, 2)}\n`],
    [INIT_FILES.expectations, `${JSON.stringify({ expectations: [] }, null, 2)}\n`],
  ];
  if (ci === 'github') files.push([INIT_FILES.github, GITHUB_WORKFLOW]);
  if (ci === 'gitlab') files.push([INIT_FILES.gitlab, gitlabJob(gitlabTemplate())]);
  // All or nothing: every file is checked before the first is written.
  const existing = files.map(([path]) => path).filter((path) => existsSync(join(io.cwd, path)));
  if (existing.length && !values.force)
    throw new HarnessError(
      'SC_INIT_EXISTS',
      `${existing.join(', ')} ${existing.length > 1 ? 'exist' : 'exists'}: init never overwrites a file ` +
        '(give --force to write it anew); nothing was written',
    );
  for (const [path, text] of files) {
    const file = join(io.cwd, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    io.out(`wrote ${relative(io.cwd, file)}`);
  }
  if (gitignore(io.cwd, INIT_FILES.credentials)) io.out(`added ${INIT_FILES.credentials} to .gitignore`);
  io.out(
    '',
    'Next:',
    '  npx screenconf run                           the embedded reference server: a first run',
    `  export SCREENCONF_CLIENT_SECRET=…            then fill in ${INIT_FILES.credentials} and`,
    `  npx screenconf run --credentials ${INIT_FILES.credentials} --expect ${INIT_FILES.expectations}`,
    ...(ci === 'github' ? ['  commit .github/workflows/screenconf.yml; set the variables and secrets it names'] : []),
    ...(ci === 'gitlab'
      ? [`  include ${INIT_FILES.gitlab} from .gitlab-ci.yml; set the CI/CD variables it names`]
      : []),
  );
  return EXIT.ok;
}
