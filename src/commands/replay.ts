/** `screenconf replay DIR REQ-ID… | --all`: a run's failures replayed against a target, decided by the run's judge. */
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { runFolderOf } from '../report/commands.ts';
import { REPORT_FILES } from '../report/folder.ts';
import { loadReport } from '../report/load.ts';
import type { ConformanceReport } from '../results/report.ts';
import type { ConfigInput } from '../runner/config.ts';
import type { SettingKey } from '../runner/settings.ts';
import { type CliIO, configFrom, TARGET_SETTINGS } from './args.ts';
import { type Command, type CommandSpec, CONFIG_OPTION, helpText, parseCommand, settingGroup } from './command.ts';

/**
 * The run's own settings a replay keeps unless given (none of them secret): the ids of its credentials, how it talked
 * to the target and ran its checks, and its target when it can be reached again (the embedded server's switches or
 * the container image, started anew; the run's base URL is kept apart).
 */
const KEPT: readonly SettingKey[] = [
  'clientId',
  'peerClientId',
  'timeoutMs',
  'maxResponseBytes',
  'concurrency',
  'maxRps',
  'provisioner',
  'bulkFailuresPath',
  'credentialGuesses',
  'webhookHost',
  'webhookPort',
  'webhookPublicUrl',
  'webhookTimeoutMs',
  'processingTimeoutMs',
  'referenceFaults',
  'referenceVariants',
  'targetImage',
  'targetPort',
  'targetReadyTimeoutMs',
];
/** And those it keeps that it takes from the run alone: its properties' shrinking, the user's suites. */
const FROM_RUN: readonly SettingKey[] = [...KEPT, 'shrinkTimeMs', 'shrinkRequests', 'suitesDir', 'userCatalogue'];
/** The settings replay takes: where the target is and as whom, and those it keeps from the run. */
const REPLAY_SETTINGS: readonly SettingKey[] = [
  ...new Set<SettingKey>([...TARGET_SETTINGS, 'credentials', 'targetEnv', ...KEPT]),
];

export const REPLAY: CommandSpec = {
  name: 'replay',
  summary: "a run's failures again against a target, judged by the run's own checks (1 reproduced)",
  usage: `screenconf replay DIR REQ-ID… [options]
       screenconf replay DIR --all [options]`,
  description: `Replays the failures of a run against a target, judged by the run's own checks: each failed check
runs again (only it, with the run's seed; a property on its shrunk counterexample), and a failure
of the invariant watcher (READ-*) has its requests sent again and the answers judged by the
watcher. DIR is a run folder (or a report folder: its "latest" run).

A replay never judges on a diverged setup: every request before the judged one must answer with
the status the run saw; otherwise it says which step diverged and decides nothing (exit 3).

The target is the run's (its base URL; for the embedded reference server, a new one with the
run's --reference-faults and --reference-variants) unless --base-url says otherwise. Credentials
come as for run (flags, SCREENCONF_* variables, --credentials FILE, the config file); the run's
client ids and settings are kept unless given.`,
  groups: [
    {
      title: 'Options',
      options: {
        all: { type: 'boolean', help: 'every failure of the run (instead of REQ-ID…), one line each with its exit' },
        ...settingGroup('Options', REPLAY_SETTINGS).options,
        config: CONFIG_OPTION,
      },
    },
  ],
  notes: `Prints one line per failed requirement with its exit status (and a line for each of its failures
when it has several: checks, the invariant watcher). Exit status (the worst with several):
1 reproduced (the requirement fails again), 0 conforms now, 3 undecided (the replay could not
decide: a setup step diverged, a check could not judge or skipped, the target unreachable), 2 could
not run (usage, not a run folder, an id that did not fail, a record the replay cannot make).`,
  positionals: true,
};

export const REPLAY_COMMAND: Command = { spec: REPLAY, run: replayCommand };

/** The settings a replay starts from: the run's, without its target when the replay is given another. */
function runDefaults(report: ConformanceReport, given: ConfigInput): ConfigInput {
  const options = report.run.options ?? {};
  const out: ConfigInput = {};
  for (const key of FROM_RUN) if (options[key] !== undefined) out[key] = options[key];
  // A run of a URL target replays against that URL, unless it ran a container (started anew) or given another.
  if (report.target.kind === 'url' && options.targetImage === undefined) out.baseUrl = report.target.baseUrl;
  if (given.baseUrl !== undefined || given.targetImage !== undefined) {
    delete out.baseUrl;
    delete out.targetImage;
  }
  // A credentials file names its organisations (and target) itself.
  if (given.credentials !== undefined) {
    delete out.clientId;
    delete out.peerClientId;
    delete out.baseUrl;
  }
  // The embedded server's switches, only for a new embedded server.
  const elsewhere = [out.baseUrl, out.targetImage, given.baseUrl, given.targetImage, given.credentials];
  if (elsewhere.some((v) => v !== undefined)) {
    delete out.referenceFaults;
    delete out.referenceVariants;
  }
  return out;
}

export async function replayCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, REPLAY);
  if (values.help) {
    io.out(helpText(REPLAY));
    return EXIT.ok;
  }
  const [dirArg, ...ids] = positionals;
  if (dirArg === undefined)
    throw new HarnessError('SC_USAGE', 'replay needs a run folder (see "screenconf replay --help")');
  if (values.all === true && ids.length)
    throw new HarnessError('SC_USAGE', 'replay takes requirement ids or --all, not both');
  if (values.all !== true && !ids.length)
    throw new HarnessError('SC_USAGE', 'replay needs the requirement ids to replay, or --all');
  const runDir = runFolderOf(dirArg, io.cwd, REPORT_FILES.json);
  const report = loadReport(join(runDir, REPORT_FILES.json));
  const config = configFrom(values, io, REPLAY_SETTINGS, (given) => runDefaults(report, given));
  const { replayRun } = await import('../runner/replay.ts');
  const stop = io.stopSignal?.then((signal) => signal ?? 'SIGINT');
  return replayRun(
    { report, runDir, config, ids: values.all === true ? undefined : ids },
    { out: io.out, err: io.err, cwd: io.cwd, stop, sessions: io.sessions },
  );
}
