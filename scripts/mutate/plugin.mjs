// Stryker's entry to the screenconf test runner (runner.ts). Stryker loads its plugins in each of its
// child processes; those it starts without tsx (its checker process) get tsx registered here first.
if (!process.execArgv.some((a) => a.includes('tsx'))) (await import('tsx/esm/api')).register();
const { strykerPlugins, strykerValidationSchema } = await import('./runner.ts');
export { strykerPlugins, strykerValidationSchema };
