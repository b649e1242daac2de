/**
 * Which check of a conformance run caused the work the reference server is doing: the mutation campaign's
 * per-check coverage (scripts/mutate/runner.ts reads it while Stryker counts which mutants each test executes).
 * A run's workers name their check in a request header, toward the embedded server only (kit/context.ts); the
 * server handles each request inside its attribution, and what the request starts (processing steps, webhook
 * deliveries, their retries) keeps it. Work outside any request (starting the server) has none. And how the
 * campaign ends a server whose code crashed. Plumbing, not behaviour: no client sees it, and the campaign does not
 * mutate this file.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { ATTRIBUTION_HEADER } from '../base/attribution.ts';

const current = new AsyncLocalStorage<string>();

/** Runs `handle` attributed to the check the request's header names (as it is, when it names none). */
export function attributed<T>(headers: IncomingHttpHeaders, handle: () => T): T {
  const named = headers[ATTRIBUTION_HEADER];
  if (typeof named !== 'string') return handle();
  let check: string;
  try {
    check = decodeURIComponent(named);
  } catch {
    return handle();
  }
  return current.run(check, handle);
}

/** The check the work in progress is attributed to, if any. */
export function attribution(): string | undefined {
  return current.getStore();
}

/** How to end each server listening in this process as its process's crash would: connections refused. */
const listening = new Set<() => void>();

/** Registers a listening server (and what else its end stops); the function returned forgets it (it closed). */
export function whileListening(server: Server, also: () => void): () => void {
  const end = () => {
    server.close();
    server.closeAllConnections();
    also();
  };
  listening.add(end);
  return () => listening.delete(end);
}

/**
 * Ends every server of this process as a crash of its process would. Node ends a server's process on an
 * uncaught exception; the campaign runs the server in its own process, which must live on, so it records the
 * crash and ends the server instead: requests in flight and after are refused at once, not left to time out.
 */
export function crashServers(): void {
  for (const end of listening) end();
}
