/** Local listeners a test file starts: each is closed, its connections with it, after every test. */
import type { Server } from 'node:http';
import { afterEach } from 'vitest';

/** Registers the closing of the listeners a test starts; returns how to hand one over. */
export function closedAfterEach(): (server: Server) => Server {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(
      servers.splice(0).map(
        (s) =>
          new Promise((r) => {
            s.closeAllConnections();
            s.close(r);
          }),
      ),
    );
  });
  return (server) => {
    servers.push(server);
    return server;
  };
}
