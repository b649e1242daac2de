/**
 * The layers of screenconf, bottom to top; a module may import from its own layer and the ones
 * below it, never from one above. docs/architecture.md draws the same picture in words.
 *
 *   base        errors and exit statuses, version, JSON and text helpers, redaction
 *   spec        the interface as data: schemas, limits, the requirement catalogue
 *   results     the results model: exchanges, evidence, failures, outcomes, the report schema
 *   generators  fast-check + faker arbitraries (src/arbitraries)
 *   client      HTTP transport, auth, typed operations
 *   services    provisioning (ledger, adapter) and the webhook receiver
 *   kit         what suites use: check(), assertions, the run context, the invariant watcher
 *   report      renderers of the results model: console, JSON, HTML, Markdown, the run folder
 *   runner      config, targets, the stages of a run (vitest, collection, gate, reporting)
 *   cli         the command line
 *
 * The reference server (src/reference) is a separate program that shares the schemas: it may
 * import only base and spec. Suites (suites/) may import what a check needs, never the runner,
 * the report or the reference server.
 */
const LAYERS = [
  ['base', '^src/(base/|errors\\.ts$|exit\\.ts$|version\\.ts$)'],
  ['spec', '^src/spec/'],
  ['results', '^src/results/'],
  ['generators', '^src/arbitraries/'],
  ['client', '^src/client/'],
  ['services', '^src/(provision|webhooks)/'],
  ['kit', '^src/kit/'],
  ['report', '^src/report/'],
  ['runner', '^src/runner/'],
  ['cli', '^src/(cli\\.ts$|commands/)'],
];

const upward = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `no-${name}-upward`,
  comment: `${name} may not import from a layer above it (${LAYERS.slice(i + 1).map(([n]) => n).join(', ')})`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, p]) => `(${p})`).join('|') },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'import cycles hide the order of the layers; a cycle closed only by `import type` (a handler naming ' +
        'the Env its defaults are composed into) orders nothing at run time and is allowed',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    ...upward,
    {
      name: 'reference-apart',
      severity: 'error',
      comment: 'the reference server is a program of its own: it shares base and spec only',
      from: { path: '^src/reference/' },
      to: { path: '^src/', pathNot: '^src/(reference/|spec/|base/|errors\\.ts$|version\\.ts$)' },
    },
    {
      name: 'only-the-cli-and-runner-use-the-reference',
      severity: 'error',
      comment: 'checks judge a target through HTTP; only the runner (embedded target) and the cli (serve) start it',
      from: { path: '^src/', pathNot: '^src/(reference/|runner/|commands/|cli\\.ts$)' },
      to: { path: '^src/reference/' },
    },
    {
      name: 'suites-judge-through-the-kit',
      severity: 'error',
      comment: 'suites use the kit, spec, generators, results and services; never the runner, report or reference',
      from: { path: '^suites/' },
      to: { path: '^src/(runner|report|reference)/|^src/cli\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|test|reports)/' },
  },
};
